package io.slurmwise.stats;

import io.slurmwise.job.Outcome;
import io.slurmwise.backend.BackendException;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.config.Settings;
import io.slurmwise.job.JobRecord;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Computes {@link FleetStats} over a window through any {@link SlurmBackend}: the window is queried as
 * consecutive slices (a week each by default) so a shared slurmdbd never gets one giant query, each slice is
 * streamed and aggregated on its own, and the slices are merged. A job the backend returns for several slices
 * (it ran across a slice boundary) is counted once, in the slice where it ended (running and pending jobs: the
 * last slice); one that ended after the window is counted as the window's end saw it, running or pending
 * ({@link JobQuery#atWindowEnd}: how it ended, and the hours it spent, belong to the window it ended in). Failed jobs get their failure kind from the {@link Classifier} on the accounting record and,
 * when enabled, on the tails of their logs.
 *
 * <pre>{@code
 * FleetScan scan = FleetScan.builder(backend, classifier).readLogs(false).build();
 * FleetStats stats = scan.run(JobQuery.window(now.minusDays(30), now));
 * System.out.println(stats.report().total().failureRate());
 * }</pre>
 */
public final class FleetScan {

    /** One query of the window: [start, end), the last slice closed at the window's end. */
    public record Slice(int index, int count, LocalDateTime start, LocalDateTime end) {
        public boolean isLast() {
            return index == count - 1;
        }

        /** Whether a job anchored at {@code t} belongs to this slice. */
        boolean holds(LocalDateTime t) {
            if (start != null && t.isBefore(start)) {
                return false;
            }
            return end == null || t.isBefore(end) || (isLast() && !t.isAfter(end));
        }
    }

    /** Told as slices start and end, for a progress bar. Called on the scanning thread. */
    public interface Progress {
        Progress NONE = new Progress() {
        };

        default void sliceStarted(Slice slice) {
        }

        /** @param jobs jobs of this slice that were counted (not those counted in another slice) */
        default void sliceDone(Slice slice, long jobs) {
        }
    }

    public static final Duration DEFAULT_SLICE = Duration.ofDays(7);

    private final SlurmBackend backend;
    private final Classifier classifier;
    private final boolean readLogs;
    private final int logTailLines;
    private final Duration sliceLength;
    private final EnergyModel energy;
    private final int topJobs;
    private final Progress progress;

    private FleetScan(Builder b) {
        this.backend = b.backend;
        this.classifier = b.classifier;
        this.readLogs = b.readLogs;
        this.logTailLines = b.logTailLines;
        this.sliceLength = b.sliceLength;
        this.energy = b.energy;
        this.topJobs = b.topJobs;
        this.progress = b.progress;
    }

    public static Builder builder(SlurmBackend backend, Classifier classifier) {
        return new Builder(backend, classifier);
    }

    /**
     * A scan of records at hand (sacct exports): failed jobs are classified from their records, and nothing asks
     * a cluster, so no backend is needed.
     */
    public static Builder forRecords(Classifier classifier) {
        return new Builder(NO_CLUSTER, classifier);
    }

    // what forRecords scans stand on: any question to the cluster is a programming error, said plainly
    private static final SlurmBackend NO_CLUSTER = new SlurmBackend() {
        @Override
        public String name() {
            return "records";
        }

        private BackendException none() {
            return new BackendException("this scan reads records at hand (sacct exports), not a cluster");
        }

        @Override
        public io.slurmwise.backend.JobLookup lookup(io.slurmwise.job.JobId id) {
            throw none();
        }

        @Override
        public Stream<JobRecord> jobs(JobQuery query) {
            throw none();
        }

        @Override
        public LogTail logTail(JobRecord job, LogStream stream, int maxLines) {
            throw none();
        }

        @Override
        public java.util.Optional<String> batchScript(JobRecord job) {
            throw none();
        }

        @Override
        public List<io.slurmwise.job.Partition> partitions() {
            throw none();
        }
    };

    /** An empty aggregate configured like this scan's (same energy model and top size), for merging. */
    public FleetStats newStats() {
        return FleetStats.builder().energy(energy).topJobs(topJobs).build();
    }

    /**
     * The most slices one window may have: about 21 years of the default week. A window from the year 1 (a client's
     * "all time") would otherwise be a hundred thousand accounting queries and their lists in memory.
     */
    public static final int MAX_SLICES = 1100;

    /**
     * Splits [since, until] into consecutive slices of at most {@code length}; one slice when unbounded.
     *
     * @throws IllegalArgumentException when the window needs more than {@link #MAX_SLICES} slices
     */
    public static List<Slice> slices(LocalDateTime since, LocalDateTime until, Duration length) {
        if (length.isZero() || length.isNegative()) {
            throw new IllegalArgumentException("slice length must be positive, got " + length);
        }
        if (since == null || until == null) {
            return List.of(new Slice(0, 1, since, until));
        }
        long seconds = Duration.between(since, until).getSeconds();
        if (seconds / Math.max(1, length.getSeconds()) >= MAX_SLICES) {
            throw new IllegalArgumentException("the window " + since.toLocalDate() + " .. " + until.toLocalDate()
                    + " is " + (seconds / 86_400 / 7) + " weeks; stats asks accounting one " + human(length)
                    + " at a time and takes at most " + MAX_SLICES + " of them in one run: start the window later"
                    + " (--since, or the fleet_stats tool's since; for example now-365days), or read an export with"
                    + " --input");
        }
        List<LocalDateTime> starts = new ArrayList<>();
        for (LocalDateTime t = since; t.isBefore(until) || starts.isEmpty(); t = t.plus(length)) {
            starts.add(t);
        }
        List<Slice> out = new ArrayList<>();
        for (int i = 0; i < starts.size(); i++) {
            LocalDateTime end = i + 1 < starts.size() ? starts.get(i + 1) : until;
            out.add(new Slice(i, starts.size(), starts.get(i), end));
        }
        return out;
    }

    /** Aggregates every job of the query's window, slice by slice. */
    public FleetStats run(JobQuery query) {
        FleetStats all = newStats();
        all.coverWindow(query.since(), query.until());
        for (Slice s : slices(query.since(), query.until(), sliceLength)) {
            if (Thread.currentThread().isInterrupted()) {
                // a caller that gave up (the MCP server's call timeout, a cancelled call) stops the scan here
                throw new java.util.concurrent.CancellationException("stats stopped after " + s.index() + " of "
                        + s.count() + " slices: the call was cancelled or timed out");
            }
            all.merge(runSlice(query, s));
        }
        return all;
    }

    private static String human(Duration d) {
        long days = d.toDays();
        return days == 7 ? "week" : days >= 1 && d.equals(Duration.ofDays(days)) ? days + "-day slice" : d.toHours() + "-hour slice";
    }

    /** Aggregates one slice: the jobs the backend returns for it that are anchored in it. */
    public FleetStats runSlice(JobQuery query, Slice slice) {
        progress.sliceStarted(slice);
        // every partition's records: a heterogeneous job's components elsewhere decide how it ended (see onlyPartition)
        FleetStats stats = newStats().onlyPartition(query.partition());
        stats.coverWindow(slice.start(), slice.end());
        JobQuery q = new JobQuery(slice.start(), slice.end(), query.states(), query.user(), query.allUsers(), null);
        long n = 0;
        try (Stream<JobRecord> jobs = backend.jobs(q)) {
            var it = jobs.iterator();
            // one record behind: sacct -D prints a requeued job's runs one after another, and a run followed by a later
            // one of the same job is not a job of its own, whichever slice that later run ends in
            JobRecord held = null;
            while (it.hasNext()) {
                JobRecord j = query.atWindowEnd(it.next()); // one that ended after the window was running there
                if (held != null) {
                    if (isEarlierRun(held, j) && !slice.holds(anchor(j, query.since(), query.until()))) {
                        // the job counts in a later slice, by its last run: this run's hours count here as
                        // interrupted, as one pass over the window counts them (an outside audit: a run that hit
                        // NODE_FAIL in one week and its requeued run in the next counted as two jobs)
                        stats.addEarlierRun(held, null);
                    } else {
                        add(stats, held);
                    }
                    n++;
                    held = null;
                }
                if (slice.holds(anchor(j, query.since(), query.until()))) {
                    held = j;
                }
            }
            if (held != null) {
                add(stats, held);
                n++;
            }
        }
        progress.sliceDone(slice, n);
        return stats;
    }

    /**
     * Whether {@code earlier} is an earlier run of {@code job} as {@link FleetStats#add} tells one: the same id (an array
     * task's own) and cluster, ended, and no heterogeneous job's component (those gather as one job instead).
     */
    static boolean isEarlierRun(JobRecord earlier, JobRecord job) {
        return earlier.end() != null && (earlier.id().hetOffset() == null || earlier.id().isArrayTask())
                && Implausible.why(job) == null // a later run set aside leaves the earlier the job's last
                && earlier.id().toString().equals(job.id().toString())
                && java.util.Objects.equals(earlier.cluster(), job.cluster());
    }

    /** Where a job counts: when it ended, clamped to the window; jobs still active count at the window's end. */
    static LocalDateTime anchor(JobRecord j, LocalDateTime since, LocalDateTime until) {
        LocalDateTime t = j.end();
        if (t == null || (until != null && t.isAfter(until))) {
            t = until != null ? until : LocalDateTime.MAX;
        }
        if (since != null && t.isBefore(since)) {
            t = since;
        }
        return t;
    }

    /** Classifies the job when it failed, then adds it. */
    public void add(FleetStats stats, JobRecord job) {
        stats.add(job, job.outcome() == Outcome.FAILED ? failureKind(job) : null);
    }

    /** The classifier's kind of a failed job: from the record, and from its log tails when enabled. */
    public String failureKind(JobRecord job) {
        return verdict(job).kind();
    }

    /**
     * The classifier's verdict on a failed job, its kind and confidence: from the record (remembered per record
     * signature, {@link Classifier#recordVerdict}), and from its log tails when enabled (one or two file reads).
     */
    public Classifier.Verdict verdict(JobRecord job) {
        if (!readLogs) {
            return classifier.recordVerdict(JobFacts.of(job));
        }
        List<LogTail> logs = new ArrayList<>(2);
        logs.add(backend.logTail(job, LogStream.STDOUT, logTailLines));
        if (job.stderrPath() == null || !job.stderrPath().equals(job.stdoutPath())) {
            logs.add(backend.logTail(job, LogStream.STDERR, logTailLines));
        }
        return Classifier.Verdict.of(classifier.classify(JobFacts.of(job), logs));
    }

    /** Configures a {@link FleetScan}. */
    public static final class Builder {
        private final SlurmBackend backend;
        private final Classifier classifier;
        private boolean readLogs;
        private int logTailLines = Settings.DEFAULT_LOG_TAIL;
        private Duration sliceLength = DEFAULT_SLICE;
        private EnergyModel energy = EnergyModel.defaults();
        private int topJobs = 10;
        private Progress progress = Progress.NONE;

        private Builder(SlurmBackend backend, Classifier classifier) {
            this.backend = Objects.requireNonNull(backend, "backend");
            this.classifier = Objects.requireNonNull(classifier, "classifier");
        }

        /** Also classify failed jobs by the tails of their logs (one or two file reads per failed job). */
        public Builder readLogs(boolean v) {
            this.readLogs = v;
            return this;
        }

        public Builder logTailLines(int n) {
            this.logTailLines = n;
            return this;
        }

        /** How much of the window one backend query covers (default 7 days). */
        public Builder sliceLength(Duration d) {
            if (d == null || d.isZero() || d.isNegative()) {
                throw new IllegalArgumentException("slice length must be positive, got " + d);
            }
            this.sliceLength = d;
            return this;
        }

        public Builder energy(EnergyModel e) {
            this.energy = Objects.requireNonNull(e, "energy");
            return this;
        }

        public Builder topJobs(int n) {
            FleetStats.builder().topJobs(n); // validates
            this.topJobs = n;
            return this;
        }

        public Builder progress(Progress p) {
            this.progress = p == null ? Progress.NONE : p;
            return this;
        }

        public FleetScan build() {
            return new FleetScan(this);
        }
    }
}
