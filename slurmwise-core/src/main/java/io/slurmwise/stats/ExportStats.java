package io.slurmwise.stats;

import io.slurmwise.backend.JobQuery;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.SacctReader;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * {@link FleetStats} straight from {@code sacct -P} exports, at the speed of the disk: each export is read as
 * blocks of whole jobs (a block never ends between a job's row and its step rows), a few worker threads parse
 * the blocks in place with {@link SacctReader} into their own aggregate, and the aggregates are merged, which the
 * monoid makes exact. Memory is flat: a fixed pool of block buffers (read into once, parsed in place, handed back)
 * and one aggregate per thread, whatever the export's size; the export's bytes are never copied into new arrays,
 * so a million rows cost no garbage for their text.
 *
 * <pre>{@code
 * FleetStats s = ExportStats.builder(scan::newStats, scan::add).threads(2)
 *         .run(List.of(ExportStats.Source.of("sacct.psv", () -> Files.newInputStream(path))), query);
 * }</pre>
 *
 * A job counts when {@link JobQuery#covers} says it belongs to the window, as the backends select jobs.
 */
public final class ExportStats {

    /** One export: a name for messages and a way to open its (already decompressed) bytes. */
    public record Source(String name, Opener opener) {
        public Source {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(opener, "opener");
        }

        public static Source of(String name, Opener opener) {
            return new Source(name, opener);
        }
    }

    /** Opens an export's bytes. */
    @FunctionalInterface
    public interface Opener {
        InputStream open() throws IOException;
    }

    /** An export that cannot be read as sacct output: what is wrong and with which file. */
    public static final class ExportException extends RuntimeException {
        public ExportException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Rows read, jobs counted, rows skipped as malformed: what the user is told beside the figures.
     *
     * @param firstMalformed the first skipped row of the first export that had one ({@code file line N: `...`}),
     *                       null when none was skipped
     * @param repeated       job rows the same as one read before (overlapping exports, or a file given twice):
     *                       counted once, see {@link JobKeys}
     */
    public record Counts(long jobs, long counted, long malformed, int files, String firstMalformed, long repeated) {
    }

    /** The aggregate and what was read. */
    public record Result(FleetStats stats, Counts counts) {
    }

    static final int DEFAULT_BLOCK = 4 << 20;
    private static final Block END = new Block(null, null, null, 0, 0);

    private final Supplier<FleetStats> newStats;
    private final BiConsumer<FleetStats, JobRecord> add;
    private final int threads;
    private final int blockSize;
    private final int maxBlock;
    // lines longer than a whole block, dropped by the splitter (the workers count the other malformed rows)
    private final java.util.concurrent.atomic.AtomicLong overlong = new java.util.concurrent.atomic.AtomicLong();

    private ExportStats(Builder b) {
        this.newStats = b.newStats;
        this.add = b.add;
        this.threads = b.threads;
        this.blockSize = b.blockSize;
        this.maxBlock = Math.max(blockSize, Math.max(4 * blockSize, 4 * SacctReader.MAX_LINE_BYTES));
    }

    /**
     * @param newStats an empty aggregate (all alike, so they merge)
     * @param add      adds one job to an aggregate (e.g. {@link FleetScan#add}, which classifies failed jobs);
     *                 called from worker threads, each with its own aggregate
     */
    public static Builder builder(Supplier<FleetStats> newStats, BiConsumer<FleetStats, JobRecord> add) {
        return new Builder(newStats, add);
    }

    /** Rows {@code bytes[from, to)} of one export; the buffer goes back to the pool once parsed. */
    private record Block(String source, SacctReader.Header header, byte[] bytes, int from, int to) {
    }

    /**
     * The block buffers: as many as can be in flight (queued, being parsed, being filled), made on first need and
     * then reused. A buffer grown for one job longer than a block is not kept.
     */
    private final class Pool {
        private final BlockingQueue<byte[]> free;
        private int made;
        private final int capacity;

        Pool(int capacity) {
            this.capacity = capacity;
            this.free = new ArrayBlockingQueue<>(capacity);
        }

        /** A buffer of the block size; waits while every buffer is in flight (the workers are behind). */
        byte[] take() {
            byte[] b = free.poll();
            if (b != null) {
                return b;
            }
            synchronized (this) {
                if (made < capacity) {
                    made++;
                    return new byte[blockSize];
                }
            }
            try {
                return free.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while reading exports", e);
            }
        }

        /** Hands a buffer back; one of another size (grown for a long job, or made for a tail) is dropped. */
        void give(byte[] b) {
            if (b.length == blockSize) {
                free.offer(b);
            }
        }
    }

    /** Aggregates every job of the exports that the query's window, user, partition and states select. */
    public Result run(List<Source> sources, JobQuery query) {
        BlockingQueue<Block> queue = new ArrayBlockingQueue<>(2 * threads);
        // in flight at most: the queue's blocks, one per worker, the one being filled and the next one
        Pool pool = new Pool(3 * threads + 2);
        // one export never repeats a job (sacct prints each record once, each run of -D once): only rows of
        // several exports are looked up, which costs a hash lookup a job (about 0.4 us) and 16-32 bytes
        JobKeys seen = sources.size() > 1 ? new JobKeys() : null;
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        List<Worker> workers = new ArrayList<>();
        List<Thread> running = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Worker w = new Worker(queue, pool, query, failure, seen);
            workers.add(w);
            Thread t = new Thread(w, "slurmwise-export-" + i);
            t.setDaemon(true);
            running.add(t);
            t.start();
        }
        try {
            for (Source s : sources) {
                if (failure.get() != null) {
                    break;
                }
                split(s, queue, pool, failure);
            }
        } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
        } finally {
            for (int i = 0; i < threads; i++) {
                putQuietly(queue, END);
            }
            for (Thread t : running) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while reading exports", e);
                }
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        FleetStats all = newStats.get();
        all.coverWindow(query.since(), query.until());
        long jobs = 0;
        long counted = 0;
        long repeated = 0;
        long malformed = overlong.get();
        String first = overlong.get() > 0 ? "a line longer than " + (maxBlock >> 20) + " MiB" : null;
        for (Worker w : workers) {
            all.merge(w.stats);
            jobs += w.jobs;
            counted += w.counted;
            repeated += w.repeated;
            malformed += w.malformed;
            if (first == null) {
                first = w.firstMalformed;
            }
        }
        return new Result(all, new Counts(jobs, counted, malformed, sources.size(), first, repeated));
    }

    /** Reads one export's header, then cuts its rows into blocks of whole jobs for the workers. */
    private void split(Source s, BlockingQueue<Block> queue, Pool pool, AtomicReference<RuntimeException> failure) {
        try (InputStream in = s.opener().open()) {
            byte[] buf = pool.take();
            int len = 0;
            SacctReader.Header header = null;
            int jobIdColumn = -1;
            byte[] sep = null;
            boolean eof = false;
            boolean skipping = false;
            while (!eof && failure.get() == null) {
                if (len == buf.length) {
                    if (buf.length < maxBlock) {
                        byte[] small = buf;
                        buf = Arrays.copyOf(buf, Math.min(maxBlock, buf.length * 2)); // one job's rows longer than a block
                        pool.give(small);
                    } else {
                        // a job's rows beyond any block: cut at a row's end (its last steps lose their job), or
                        // drop a line longer than a block, never holding more
                        int nl = lastIndexOf(buf, 0, len, (byte) '\n');
                        if (nl >= 0 && !skipping && header != null) {
                            byte[] rest = new byte[buf.length];
                            System.arraycopy(buf, nl + 1, rest, 0, len - nl - 1);
                            putQuietly(queue, new Block(s.name(), header, buf, 0, nl + 1));
                            buf = rest;
                            len -= nl + 1;
                        } else if (header == null) {
                            throw new ExportException(s.name() + " is not a sacct -P export: its first line is longer"
                                    + " than " + (maxBlock >> 20) + " MiB; export it with sacct -P --format=JobID,...", null);
                        } else {
                            if (!skipping) {
                                overlong.incrementAndGet();
                            }
                            skipping = true;
                            len = 0;
                        }
                    }
                }
                int n = in.read(buf, len, buf.length - len);
                if (n < 0) {
                    eof = true;
                } else {
                    len += n;
                }
                if (skipping) {
                    int nl = indexOf(buf, 0, len, (byte) '\n');
                    if (nl < 0) {
                        len = 0;
                        continue;
                    }
                    skipping = false;
                    System.arraycopy(buf, nl + 1, buf, 0, len - nl - 1);
                    len -= nl + 1;
                }
                int from = 0;
                if (header == null) {
                    int nl = indexOf(buf, 0, len, (byte) '\n');
                    if (nl < 0 && !eof) {
                        continue;
                    }
                    int end = nl < 0 ? len : nl;
                    String line = new String(buf, 0, end > 0 && buf[end - 1] == '\r' ? end - 1 : end,
                            StandardCharsets.UTF_8);
                    if (line.isBlank()) {
                        return; // an empty export
                    }
                    header = SacctReader.Header.of(line);
                    jobIdColumn = column(header, "jobid");
                    if (jobIdColumn < 0) {
                        throw new ExportException(s.name() + " is not a sacct -P export with a header: its first line"
                                + " has no JobID column (" + abbreviate(line) + "); export it with sacct -P"
                                + " --format=JobID,... (without -n)", null);
                    }
                    String missing = missingColumns(header);
                    if (missing != null) {
                        throw new ExportException(s.name() + " has no " + missing + " column (" + abbreviate(line)
                                + "): without it no job's outcome or time can be counted; export it with sacct -P"
                                + " --format=JobID,JobName,User,Partition,State,Start,End,Elapsed,AllocCPUS,AllocTRES,..."
                                + " (README: Exports, at centre scale)", null);
                    }
                    sep = header.separator().getBytes(StandardCharsets.UTF_8);
                    from = nl < 0 ? len : nl + 1;
                }
                int cut = eof ? len : lastJobStart(buf, from, len, jobIdColumn, sep);
                if (cut > from) {
                    // the rows up to the cut go to a worker in this buffer; the rest starts the next buffer
                    byte[] next = pool.take();
                    if (len - cut > next.length) {
                        pool.give(next);
                        next = new byte[buf.length];
                    }
                    System.arraycopy(buf, cut, next, 0, len - cut);
                    putQuietly(queue, new Block(s.name(), header, buf, from, cut));
                    buf = next;
                    len -= cut;
                } else {
                    System.arraycopy(buf, from, buf, 0, len - from);
                    len -= from;
                }
            }
            pool.give(buf);
        } catch (java.io.EOFException e) {
            // a compressed file cut short: its source says what to do
            throw new ExportException("cannot read " + s.name() + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new ExportException("cannot read " + s.name() + ": " + e.getMessage()
                    + " (check that it is a readable sacct export, plain, .gz or .zst)", e);
        } catch (UncheckedIOException e) {
            throw new ExportException("cannot read " + s.name() + ": " + e.getCause().getMessage()
                    + " (check that it is a readable sacct export, plain, .gz or .zst)", e);
        } catch (ExportException e) {
            throw e;
        } catch (RuntimeException e) {
            // a decompressor's complaint about corrupt data, say
            throw new ExportException("cannot read " + s.name() + ": " + e.getMessage()
                    + " (check that it is a readable sacct export, plain, .gz or .zst, and that its name's ending"
                    + " matches its compression)", e);
        }
    }

    /**
     * Where the last job in {@code buf[from, len)} whose row is whole starts: the start of the last complete line
     * that is a job's row (not a step row) after {@code from}, so a block cut there holds its jobs' step rows;
     * {@code from} when there is none.
     */
    static int lastJobStart(byte[] buf, int from, int len, int jobIdColumn, byte[] sep) {
        int lineEnd = lastIndexOf(buf, from, len, (byte) '\n');
        int cut = from;
        int cutEnd = -1;
        while (lineEnd > from) {
            int prevNl = lastIndexOf(buf, from, lineEnd, (byte) '\n');
            int lineStart = prevNl < 0 ? from : prevNl + 1;
            if (isJobRow(buf, lineStart, lineEnd, jobIdColumn, sep)) {
                // the runs of a requeued job (sacct -D repeats its id on each) stay in one block: FleetStats counts
                // the job once from its consecutive runs
                if (cutEnd >= 0 && !sameJobId(buf, lineStart, lineEnd, cut, cutEnd, jobIdColumn, sep)) {
                    return cut;
                }
                if (lineStart == from) {
                    return from; // back to the block's start, one job's rows: no cut inside it
                }
                cut = lineStart;
                cutEnd = lineEnd;
            }
            if (prevNl < 0) {
                break;
            }
            lineEnd = prevNl;
        }
        return cut;
    }

    /** Whether the rows {@code [a, aEnd)} and {@code [b, bEnd)} have the same JobID field. */
    private static boolean sameJobId(byte[] buf, int a, int aEnd, int b, int bEnd, int jobIdColumn, byte[] sep) {
        int[] x = field(buf, a, aEnd, jobIdColumn, sep);
        int[] y = field(buf, b, bEnd, jobIdColumn, sep);
        return x != null && y != null && java.util.Arrays.equals(buf, x[0], x[1], buf, y[0], y[1]);
    }

    /** The start and end of field {@code column} of the row {@code [start, end)}, or null when it has no such field. */
    private static int[] field(byte[] b, int start, int end, int column, byte[] sep) {
        int fieldStart = start;
        for (int f = 0; f < column; f++) {
            int at = find(b, fieldStart, end, sep);
            if (at < 0) {
                return null;
            }
            fieldStart = at + sep.length;
        }
        int fieldEnd = find(b, fieldStart, end, sep);
        return new int[] {fieldStart, fieldEnd < 0 ? end : fieldEnd};
    }

    /**
     * A row whose JobID field is there and has no step suffix ({@code 123}, {@code 123_4}, {@code 123+0}, not
     * {@code 123.batch}, nor a heterogeneous job's later component {@code 123+1}): where a job's rows start, so where
     * an export can be cut without splitting a job (here, and in slurmwise-spark's splits).
     */
    public static boolean isJobRow(byte[] b, int start, int end, int jobIdColumn, byte[] sep) {
        int[] id = field(b, start, end, jobIdColumn, sep);
        if (id == null) {
            return false;
        }
        int fieldStart = id[0];
        int fieldEnd = id[1];
        if (fieldEnd <= fieldStart || indexOf(b, fieldStart, fieldEnd, (byte) '.') >= 0) {
            return false;
        }
        // a heterogeneous job's later component (1853+1) continues its job: FleetStats counts the components as one
        int plus = indexOf(b, fieldStart, fieldEnd, (byte) '+');
        if (plus < 0) {
            return true;
        }
        for (int i = plus + 1; i < fieldEnd; i++) {
            if (b[i] != '0' && b[i] != ' ') {
                return false;
            }
        }
        return true;
    }

    private static int find(byte[] b, int from, int to, byte[] sep) {
        for (int i = from; i <= to - sep.length; i++) {
            if (matches(b, i, sep)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean matches(byte[] b, int i, byte[] s) {
        for (int k = 0; k < s.length; k++) {
            if (b[i + k] != s[k]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] b, int from, int to, byte x) {
        for (int i = from; i < to; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }

    private static int lastIndexOf(byte[] b, int from, int to, byte x) {
        for (int i = to - 1; i >= from; i--) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }

    /** The columns stats cannot do without, named as sacct names them, or null when the header has them. */
    static String missingColumns(SacctReader.Header h) {
        List<String> missing = new ArrayList<>();
        if (column(h, "state") < 0) {
            missing.add("State");
        }
        if (column(h, "elapsed") < 0 && (column(h, "start") < 0 || column(h, "end") < 0)) {
            missing.add("Elapsed (nor Start and End)");
        }
        return missing.isEmpty() ? null : String.join(" and no ", missing);
    }

    private static int column(SacctReader.Header h, String name) {
        for (int i = 0; i < h.names().size(); i++) {
            if (h.names().get(i).strip().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    private static String abbreviate(String s) {
        return s.length() > 120 ? s.substring(0, 120) + "..." : s;
    }

    private static void putQuietly(BlockingQueue<Block> q, Block b) {
        try {
            q.put(b);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading exports", e);
        }
    }

    /** Parses blocks into its own aggregate until the end marker. */
    private final class Worker implements Runnable {
        final BlockingQueue<Block> queue;
        final Pool pool;
        final JobQuery query;
        final AtomicReference<RuntimeException> failure;
        final JobKeys seen;
        final FleetStats stats = newStats.get();
        long jobs;
        long counted;
        long repeated;
        long malformed;
        String firstMalformed;

        Worker(BlockingQueue<Block> queue, Pool pool, JobQuery query, AtomicReference<RuntimeException> failure,
               JobKeys seen) {
            this.queue = queue;
            this.seen = seen;
            this.pool = pool;
            // the partition is FleetStats' to select: a heterogeneous job's components elsewhere decide how it ended
            this.query = query.withPartition(null);
            this.failure = failure;
            stats.onlyPartition(query.partition());
        }

        @Override
        public void run() {
            while (true) {
                Block b;
                try {
                    b = queue.take();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                if (b == END) {
                    return;
                }
                if (failure.get() != null) {
                    pool.give(b.bytes());
                    continue; // drain: the reader stops soon
                }
                try {
                    SacctReader r = SacctReader.open(b.bytes(), b.from(), b.to(), b.header());
                    while (r.hasNext()) {
                        JobRecord j = r.next();
                        jobs++;
                        if (seen != null && !seen.add(j)) {
                            repeated++;
                        } else if (query.covers(j)) {
                            add.accept(stats, query.atWindowEnd(j)); // ended after the window: running there
                            counted++;
                        }
                    }
                    malformed += r.malformedRows();
                    if (firstMalformed == null && r.firstMalformedRow() != null) {
                        // line numbers count within the block: name the file and the row, not a line
                        String row = r.firstMalformedRow();
                        firstMalformed = b.source() + ": " + row.substring(row.indexOf(": ") + 2);
                    }
                } catch (RuntimeException e) {
                    failure.compareAndSet(null, e instanceof ExportException ? e
                            : new ExportException("cannot read " + b.source() + ": " + e.getMessage(), e));
                } finally {
                    pool.give(b.bytes());
                }
            }
        }
    }

    /** Configures an {@link ExportStats}. */
    public static final class Builder {
        private final Supplier<FleetStats> newStats;
        private final BiConsumer<FleetStats, JobRecord> add;
        private int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
        private int blockSize = DEFAULT_BLOCK;

        private Builder(Supplier<FleetStats> newStats, BiConsumer<FleetStats, JobRecord> add) {
            this.newStats = Objects.requireNonNull(newStats, "newStats");
            this.add = Objects.requireNonNull(add, "add");
        }

        /** Worker threads parsing blocks (default: the available processors). */
        public Builder threads(int n) {
            if (n < 1 || n > 256) {
                throw new IllegalArgumentException("threads must be between 1 and 256, got " + n);
            }
            this.threads = n;
            return this;
        }

        /** Bytes per block (default 4 MiB); tests use small blocks to cut jobs often. */
        public Builder blockSize(int bytes) {
            if (bytes < 64) {
                throw new IllegalArgumentException("block size must be at least 64 bytes, got " + bytes);
            }
            this.blockSize = bytes;
            return this;
        }

        public ExportStats build() {
            return new ExportStats(this);
        }
    }
}
