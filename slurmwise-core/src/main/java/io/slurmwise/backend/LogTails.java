package io.slurmwise.backend;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;

/**
 * Reads the last lines of a file from its end, in blocks, so the cost depends on the tail asked for and not on
 * the file size: a 10 GB log costs what a 10 KB one does. A tail never exceeds {@link #MAX_TAIL_BYTES}, so a
 * log made of one endless line is cut rather than loaded whole.
 *
 * <p>What is not a regular file (a FIFO, {@code classify <(zcat job.log.gz)}, a device) and standard input are
 * read to their end through a bounded ring ({@link TailBuffer}): memory stays at the tail's bound however much
 * flows, and the tail is the one the same bytes in a file give. No read blocks forever: a file read that gives
 * nothing for {@link #READ_TIMEOUT} (a FIFO nobody writes to, a hung network file system) is given up with a
 * line that says so, and a stream that keeps flowing is cut after {@link #MAX_STREAM_TIME}.
 */
public final class LogTails {

    /** Upper bound of bytes kept for one tail, whatever the line count asked for. */
    public static final int MAX_TAIL_BYTES = 4 << 20;
    /** How long a log file may give no data before the read is given up (SLURMWISE_LOG_TIMEOUT overrides it). */
    public static final Duration READ_TIMEOUT = Duration.ofSeconds(10);
    /** How long a stream that keeps flowing (a FIFO, a device) is read before its tail so far is taken. */
    public static final Duration MAX_STREAM_TIME = Duration.ofMinutes(5);
    private static final int BLOCK = 64 << 10;

    private LogTails() {
    }

    /** The last {@code maxLines} lines of bytes already in memory (fixtures, tests). */
    public static LogTail ofBytes(LogStream stream, String path, byte[] all, int maxLines) {
        return ofBytes(stream, path, all, all.length, maxLines, null);
    }

    /**
     * The last lines of {@code all}, the end of a stream of {@code total} bytes (more than {@code all} when its
     * start was dropped: its line numbers are then unknown).
     */
    private static LogTail ofBytes(LogStream stream, String path, byte[] all, long total, int maxLines, String problem) {
        int newlines = 0;
        int cut = 0;
        for (int i = all.length - 1; i >= 0; i--) {
            if (all[i] == '\n' && i != all.length - 1 && ++newlines == maxLines) {
                cut = i + 1;
                break;
            }
        }
        cut = Math.max(cut, all.length - MAX_TAIL_BYTES);
        return new LogTail(stream, path, java.util.Arrays.copyOfRange(all, cut, all.length),
                cut == 0 && total == all.length ? 1 : 0, total, problem);
    }

    /**
     * The last {@code maxLines} lines of a stream read to its end (standard input: {@code classify -}), keeping
     * at most {@link #MAX_TAIL_BYTES} in memory however long it is: a 2.5 GB pipe costs what a 4 MB one does.
     * It waits for the stream's end as {@code cat} does; the caller owns the stream.
     *
     * @throws IOException when the stream cannot be read
     */
    public static LogTail ofStream(LogStream stream, String path, InputStream in, int maxLines) throws IOException {
        if (maxLines <= 0) {
            throw new IllegalArgumentException("maxLines must be positive, got " + maxLines);
        }
        TailBuffer ring = new TailBuffer(MAX_TAIL_BYTES);
        byte[] buf = new byte[BLOCK];
        for (int n; (n = in.read(buf)) >= 0; ) {
            ring.append(buf, 0, n);
        }
        return ofBytes(stream, path, ring.bytes(), ring.total(), maxLines, null);
    }

    public static LogTail read(Path file, LogStream stream, int maxLines) {
        return read(file, stream, maxLines, MAX_TAIL_BYTES);
    }

    public static LogTail read(Path file, LogStream stream, int maxLines, int maxBytes) {
        return read(file, stream, maxLines, maxBytes, READ_TIMEOUT);
    }

    /**
     * As {@link #read(Path, LogStream, int)}, given up when the file gives no data for {@code timeout}: the tail
     * then says so in its {@link LogTail#problem()} (with what a stream gave before it stalled, if anything).
     */
    public static LogTail read(Path file, LogStream stream, int maxLines, int maxBytes, Duration timeout) {
        if (maxLines <= 0) {
            throw new IllegalArgumentException("maxLines must be positive, got " + maxLines);
        }
        TailBuffer ring = new TailBuffer(maxBytes);
        return bounded(file.toString(), stream, maxLines, ring, timeout,
                () -> readDirect(file, stream, maxLines, maxBytes, ring));
    }

    /**
     * Runs {@code read} on a daemon thread and waits while data keeps coming: a read that gives nothing for
     * {@code timeout} is interrupted (a channel read returns) and answered with what it had. A thread stuck in the
     * operating system (opening a FIFO nobody writes to, a hung NFS mount) cannot be freed from Java: it stays
     * parked as a daemon and the answer does not wait for it.
     */
    private static LogTail bounded(String shown, LogStream stream, int maxLines, TailBuffer ring, Duration timeout,
                                   java.util.concurrent.Callable<LogTail> read) {
        java.util.concurrent.FutureTask<LogTail> task = new java.util.concurrent.FutureTask<>(read);
        Thread reader = new Thread(task, "slurmwise-log-read");
        reader.setDaemon(true);
        reader.start();
        long started = System.nanoTime();
        long idle = Math.max(1, timeout.toNanos());
        try {
            while (true) {
                long waitFor = ring.lastData() + idle - System.nanoTime();
                try {
                    return task.get(Math.max(1, waitFor), java.util.concurrent.TimeUnit.NANOSECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    boolean stalled = System.nanoTime() - ring.lastData() >= idle;
                    boolean tooLong = System.nanoTime() - started >= MAX_STREAM_TIME.toNanos();
                    if (stalled || tooLong) {
                        reader.interrupt();
                        String why = tooLong && !stalled
                                ? shown + " was still flowing after " + MAX_STREAM_TIME.toMinutes() + " minutes; its tail"
                                + " so far is shown"
                                : shown + " gave " + (ring.total() == 0 ? "nothing" : "no more data") + " for "
                                + seconds(timeout) + " (a pipe nobody writes to, or a file system that hangs);"
                                + " check the file or its mount, or raise SLURMWISE_LOG_TIMEOUT";
                        return ring.total() == 0 ? LogTail.unavailable(stream, shown, why)
                                : ofBytes(stream, shown, ring.bytes(), ring.total(), maxLines, why);
                    }
                }
            }
        } catch (InterruptedException e) {
            reader.interrupt();
            Thread.currentThread().interrupt();
            return LogTail.unavailable(stream, shown, "reading " + shown + " was interrupted");
        } catch (java.util.concurrent.ExecutionException e) {
            return LogTail.unavailable(stream, shown, "cannot read " + shown + ": " + e.getCause().getMessage());
        }
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /**
     * As {@link #read(Path, LogStream, int)}, but only when the file (after following links) belongs to
     * {@code owner}, the job's user: a log path comes from the job's record, which its user chose ({@code sbatch
     * -o /etc/shadow}), so a slurmwise run by root or an admin account must not show another account's file.
     *
     * @param owner the job's user name as SLURM recorded it; null refuses every file
     */
    public static LogTail readOwnedBy(Path file, LogStream stream, int maxLines, String owner) {
        return readOwnedBy(file, stream, maxLines, owner, READ_TIMEOUT);
    }

    /** As {@link #readOwnedBy(Path, LogStream, int, String)}, giving up after {@code timeout} without data. */
    public static LogTail readOwnedBy(Path file, LogStream stream, int maxLines, String owner, Duration timeout) {
        if (maxLines <= 0) {
            throw new IllegalArgumentException("maxLines must be positive, got " + maxLines);
        }
        TailBuffer ring = new TailBuffer(MAX_TAIL_BYTES);
        // asking who owns a file on a hung mount blocks as reading it does
        return bounded(file.toString(), stream, maxLines, ring, timeout,
                () -> ownedDirect(file, stream, maxLines, owner, ring));
    }

    /**
     * A job's log read only when it is a regular file of the job's user: SLURM writes a job's output to a regular
     * file, and a device or pipe named as one ({@code -o /dev/zero}, a FIFO nobody writes to) would be read for
     * minutes or block a thread for good. The file read is the one checked: a file swapped for another while it was
     * read (a link put in its place) is refused.
     */
    private static LogTail ownedDirect(Path file, LogStream stream, int maxLines, String owner, TailBuffer ring) {
        String shown = file.toString();
        Path real;
        String fileOwner;
        Object key;
        try {
            real = file.toRealPath();
            java.nio.file.attribute.PosixFileAttributes a = Files.readAttributes(real,
                    java.nio.file.attribute.PosixFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
            if (a.isDirectory()) {
                return LogTail.unavailable(stream, shown, shown + " is a directory, not a log file");
            }
            if (!a.isRegularFile()) {
                return LogTail.unavailable(stream, shown, shown + " is not a regular file (a device, pipe or socket"
                        + (real.toString().equals("/dev/null") ? ": the job's output was discarded" : "")
                        + "); slurmwise reads a job's logs only from regular files");
            }
            fileOwner = a.owner().getName();
            key = a.fileKey();
        } catch (NoSuchFileException e) {
            return LogTail.unavailable(stream, shown, missing(file, shown));
        } catch (UnsupportedOperationException e) {
            return LogTail.unavailable(stream, shown, "cannot tell who owns " + shown + " on this file system");
        } catch (java.nio.file.AccessDeniedException e) {
            // a directory this user may not enter (another user's job, its logs under their home: the real lab's
            // root job read "cannot tell who owns <path>: <path>")
            return LogTail.unavailable(stream, shown, "cannot read " + shown + ": permission denied to "
                    + System.getProperty("user.name", "this user") + (owner == null || owner.isBlank() ? ""
                    : " (the job is " + owner + "'s: only " + (owner.equals("root") ? "root" : owner + " or root")
                    + " can read its logs)"));
        } catch (IOException e) {
            return LogTail.unavailable(stream, shown, "cannot tell who owns " + shown + ": " + e.getMessage());
        }
        if (owner == null || owner.isBlank()) {
            return LogTail.unavailable(stream, shown, "refusing to read " + shown + ": the job's user is unknown, and"
                    + " slurmwise reads only files that belong to the job's user");
        }
        if (!fileOwner.equals(owner)) {
            return LogTail.unavailable(stream, shown, "refusing to read " + shown + ": it belongs to " + fileOwner
                    + ", not to the job's user " + owner + " (slurmwise reads only the job's own files)");
        }
        LogTail t = readDirect(real, stream, maxLines, MAX_TAIL_BYTES, ring);
        try {
            Object after = Files.readAttributes(real, BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    .fileKey();
            if (key != null && !key.equals(after)) {
                return LogTail.unavailable(stream, shown, "refusing " + shown + ": it was replaced while it was read");
            }
        } catch (IOException e) {
            return LogTail.unavailable(stream, shown, "refusing " + shown + ": it went away while it was read");
        }
        return new LogTail(t.stream(), shown, t.content(), t.firstLine(), t.fileSize(), t.problem());
    }

    /**
     * Why a log is not there: a directory that does not exist either was never made, and SLURM does not make the
     * directory of {@code --output} (the job could not open its log: FAILED 0:53); else the file went away or lives on
     * a file system this host does not mount.
     */
    static String missing(Path file, String shown) {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null && dir.getParent() != null && !Files.isDirectory(dir)) {
            return shown + " does not exist, nor does its directory " + dir + " on this host (SLURM does not create the"
                    + " directory of --output and --error; or it is on a file system this host does not mount)";
        }
        return shown + " does not exist (moved, deleted, or on a file system this host does not mount)";
    }

    /** Reads in the calling thread: a regular file from its end, anything else as a stream into {@code ring}. */
    private static LogTail readDirect(Path file, LogStream stream, int maxLines, int maxBytes, TailBuffer ring) {
        String shown = file.toString();
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            if (a.isDirectory()) {
                return LogTail.unavailable(stream, shown, shown + " is a directory, not a log file");
            }
            if (!a.isRegularFile()) {
                // a FIFO (classify <(cmd)), a device: read to its end, keeping its tail
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                    ByteBuffer buf = ByteBuffer.allocate(BLOCK);
                    while (ch.read(buf.clear()) >= 0) {
                        ring.append(buf.array(), 0, buf.position());
                    }
                }
                return ofBytes(stream, shown, ring.bytes(), ring.total(), maxLines, null);
            }
        } catch (NoSuchFileException e) {
            return LogTail.unavailable(stream, shown, missing(file, shown));
        } catch (AccessDeniedException e) {
            return LogTail.unavailable(stream, shown, shown + " is not readable by this user (ask its owner, or run"
                    + " slurmwise as the job's user)");
        } catch (java.nio.channels.ClosedByInterruptException e) {
            return LogTail.unavailable(stream, shown, "reading " + shown + " was given up");
        } catch (IOException e) {
            return LogTail.unavailable(stream, shown, "cannot read " + shown + ": " + e.getMessage());
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            long pos = size;
            int newlines = 0;
            // a trailing newline ends the last line; it does not start an empty one
            boolean skipTrailing = true;
            long cut = 0; // file offset where the tail starts
            ByteBuffer buf = ByteBuffer.allocate(BLOCK);
            outer:
            while (pos > 0) {
                int len = (int) Math.min(BLOCK, pos);
                pos -= len;
                buf.clear().limit(len);
                int read = 0;
                while (read < len) {
                    int n = ch.read(buf, pos + read);
                    if (n < 0) {
                        break;
                    }
                    read += n;
                }
                byte[] a = buf.array();
                for (int i = read - 1; i >= 0; i--) {
                    if (a[i] == '\n') {
                        if (skipTrailing && pos + i == size - 1) {
                            continue;
                        }
                        if (++newlines == maxLines) {
                            cut = pos + i + 1;
                            break outer;
                        }
                    }
                }
                skipTrailing = false;
                if (size - pos >= maxBytes) {
                    cut = size - maxBytes;
                    break;
                }
            }
            long start = Math.max(cut, size - maxBytes);
            int length = (int) (size - start);
            byte[] content = new byte[length];
            ByteBuffer target = ByteBuffer.wrap(content);
            long p = start;
            while (target.hasRemaining()) {
                int n = ch.read(target, p);
                if (n < 0) {
                    break; // the file shrank while we read it: keep what we have
                }
                p += n;
            }
            byte[] got = target.position() == length ? content : java.util.Arrays.copyOf(content, target.position());
            return new LogTail(stream, shown, got, start == 0 ? 1 : 0, size, null);
        } catch (NoSuchFileException e) {
            return LogTail.unavailable(stream, shown, missing(file, shown));
        } catch (AccessDeniedException e) {
            return LogTail.unavailable(stream, shown, shown + " is not readable by this user (ask its owner, or run"
                    + " slurmwise as the job's user)");
        } catch (IOException e) {
            return LogTail.unavailable(stream, shown, "cannot read " + shown + ": " + e.getMessage());
        }
    }
}
