package io.slurmwise.backend;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads the last lines of a file from its end, in blocks, so the cost depends on the tail asked for and not on
 * the file size: a 10 GB log costs what a 10 KB one does. A tail never exceeds {@link #MAX_TAIL_BYTES}, so a
 * log made of one endless line is cut rather than loaded whole.
 */
public final class LogTails {

    /** Upper bound of bytes kept for one tail, whatever the line count asked for. */
    public static final int MAX_TAIL_BYTES = 4 << 20;
    private static final int BLOCK = 64 << 10;

    private LogTails() {
    }

    /** The last {@code maxLines} lines of bytes already in memory (fixtures, tests). */
    public static LogTail ofBytes(LogStream stream, String path, byte[] all, int maxLines) {
        int newlines = 0;
        int cut = 0;
        for (int i = all.length - 1; i >= 0; i--) {
            if (all[i] == '\n' && i != all.length - 1 && ++newlines == maxLines) {
                cut = i + 1;
                break;
            }
        }
        cut = Math.max(cut, all.length - MAX_TAIL_BYTES);
        return new LogTail(stream, path, java.util.Arrays.copyOfRange(all, cut, all.length), cut == 0 ? 1 : 0,
                all.length, null);
    }

    public static LogTail read(Path file, LogStream stream, int maxLines) {
        return read(file, stream, maxLines, MAX_TAIL_BYTES);
    }

    /**
     * As {@link #read(Path, LogStream, int)}, but only when the file (after following links) belongs to
     * {@code owner}, the job's user: a log path comes from the job's record, which its user chose ({@code sbatch
     * -o /etc/shadow}), so a slurmwise run by root or an admin account must not show another account's file.
     *
     * @param owner the job's user name as SLURM recorded it; null refuses every file
     */
    public static LogTail readOwnedBy(Path file, LogStream stream, int maxLines, String owner) {
        String shown = file.toString();
        Path real;
        String fileOwner;
        try {
            real = file.toRealPath();
            fileOwner = Files.getOwner(real, java.nio.file.LinkOption.NOFOLLOW_LINKS).getName();
        } catch (NoSuchFileException e) {
            return read(file, stream, maxLines);
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
        LogTail t = read(real, stream, maxLines);
        return new LogTail(t.stream(), shown, t.content(), t.firstLine(), t.fileSize(), t.problem());
    }

    public static LogTail read(Path file, LogStream stream, int maxLines, int maxBytes) {
        String shown = file.toString();
        if (maxLines <= 0) {
            throw new IllegalArgumentException("maxLines must be positive, got " + maxLines);
        }
        if (Files.isDirectory(file)) {
            return LogTail.unavailable(stream, shown, shown + " is a directory, not a log file");
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
            return LogTail.unavailable(stream, shown, shown + " does not exist (moved, deleted, or on a file system"
                    + " this host does not mount)");
        } catch (AccessDeniedException e) {
            return LogTail.unavailable(stream, shown, shown + " is not readable by this user (ask its owner, or run"
                    + " slurmwise as the job's user)");
        } catch (IOException e) {
            return LogTail.unavailable(stream, shown, "cannot read " + shown + ": " + e.getMessage());
        }
    }
}
