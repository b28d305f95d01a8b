package io.slurmwise.stats;

import io.slurmwise.job.Outcome;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.TreeMap;

/**
 * A streaming, mergeable aggregate over job records: failure rate, wasted GPU/CPU-hours and estimated energy of
 * failed jobs by failure kind, partition, user and day, cancelled and preempted jobs apart, the most wasteful
 * jobs (array jobs as one entry), and the efficiency of completed jobs. Memory does not grow with the number of
 * records: it holds one counter set per partition, user, day and kind, the top jobs, and one small entry per
 * array job (at most {@link Builder#arrayLimit}, beyond which only the least wasteful arrays' entries are lost;
 * totals stay exact). Counters are whole numbers, so {@link #merge} is exact: slices of a window, or clusters,
 * combine to the figures one pass over all records gives. Not thread-safe: one per thread, then merge.
 *
 * <pre>{@code
 * FleetStats stats = FleetStats.builder().energy(EnergyModel.defaults()).build();
 * try (Stream<JobRecord> jobs = backend.jobs(query)) {
 *     jobs.forEach(j -> stats.add(j, kindOf(j)));   // kind: the classifier's verdict for failed jobs
 * }
 * FleetReport report = stats.report();
 * }</pre>
 */
public final class FleetStats {

    /** A completed job under this CPU or memory efficiency is counted as low (jobstats flags similar levels). */
    public static final double LOW_EFFICIENCY = 0.25;
    public static final String UNKNOWN_KEY = "(unknown)";
    private static final double MIB = 1024.0 * 1024;

    private final EnergyModel energy;
    private final int topJobs;
    private final int arrayLimit;
    private long records;
    // jobs that ran but whose record gives no CPU count: their CPU-hours are 0, and the report says how many
    private long withoutCpus;
    // failed jobs that held nothing (never started, or no elapsed time): in the failure counts, never among the top jobs
    private long failedWithoutHours;
    private LocalDateTime since;
    private LocalDateTime until;
    // the earliest and latest moments of the jobs counted, their ends (see seen): the window an export read whole covers
    private LocalDateTime dataFrom;
    private LocalDateTime dataUntil;
    private final Tally total = new Tally();
    private final Map<String, Tally> partitions = new HashMap<>();
    // only jobs whose record names a cluster (sacct's Cluster column): exports of one or several clusters
    private final Map<String, Tally> clusters = new HashMap<>();
    private final Map<String, Tally> users = new HashMap<>();
    private final Map<String, Tally> kinds = new HashMap<>();
    private final TreeMap<LocalDate, Tally> days = new TreeMap<>();
    private final Effort effort = new Effort();
    // min-heap on waste: the head is the least wasteful of the kept jobs
    private final PriorityQueue<Wasted> top;
    private final Map<ArrayKey, ArrayAcc> arrays = new HashMap<>();
    private boolean arraysTruncated;
    // the components of the heterogeneous job being read (see add)
    private final List<Component> het = new ArrayList<>(2);
    // the plain job added last: sacct -D prints a requeued job's runs one after another (see add)
    private Run lastRun;
    // --partition: only this partition's jobs count (see onlyPartition); null for all
    private String partitionOnly;
    // records whose times cannot be (Implausible), set aside, and the first of them by job id: "4242 (End ... before
    // Start ...)", whatever order slices, blocks and threads merge in
    private long implausible;
    private String firstImplausible;

    private FleetStats(Builder b) {
        this.energy = Objects.requireNonNull(b.energy, "energy");
        this.topJobs = b.topJobs;
        this.arrayLimit = b.arrayLimit;
        this.top = new PriorityQueue<>(Math.max(1, topJobs + 1), Wasted.RANK.reversed());
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Counters of completed jobs' efficiency. */
    private static final class Effort {
        long completed;
        long cpuJobs;
        long cpuUsedMillis;
        long cpuReservedMillis;
        long cpuLow;
        long memJobs;
        long memUsedMib;
        long memLimitMib;
        long memReservedMibSeconds;
        long memUnusedMibSeconds;
        long memLow;

        void merge(Effort e) {
            completed += e.completed;
            cpuJobs += e.cpuJobs;
            cpuUsedMillis += e.cpuUsedMillis;
            cpuReservedMillis += e.cpuReservedMillis;
            cpuLow += e.cpuLow;
            memJobs += e.memJobs;
            memUsedMib += e.memUsedMib;
            memLimitMib += e.memLimitMib;
            memReservedMibSeconds += e.memReservedMibSeconds;
            memUnusedMibSeconds += e.memUnusedMibSeconds;
            memLow += e.memLow;
        }
    }

    /** A failed job in the top list. */
    private record Wasted(String id, String cluster, String name, String user, String partition, String state,
                          String kind, long elapsedSeconds, int gpus, int cpus, long gpuSeconds, long cpuSeconds,
                          long joules, Long measuredJoules, LocalDateTime end) {
        // most wasteful first; the id breaks ties so that merging in any order keeps the same jobs
        static final Comparator<Wasted> RANK = Comparator.comparingLong(Wasted::joules).reversed()
                .thenComparing(Comparator.comparingLong(Wasted::gpuSeconds).reversed())
                .thenComparing(Comparator.comparingLong(Wasted::cpuSeconds).reversed())
                .thenComparing(Wasted::id)
                .thenComparing(w -> w.cluster() == null ? "" : w.cluster());
    }

    /** An array job: its id on its cluster (sacct -M: two clusters may each run an array 4242). */
    private record ArrayKey(String cluster, long arrayId) {
    }

    /** One array job: its tasks by outcome and the waste of its failed tasks. */
    private static final class ArrayAcc {
        final ArrayKey key;
        String name;
        String user;
        String partition;
        final Tally tally = new Tally(); // the tasks by outcome and the waste of the failed ones
        long failedElapsedSeconds;
        int maxGpus;
        int maxCpus;
        long minTask = Long.MAX_VALUE;
        long maxTask = Long.MIN_VALUE;
        final Map<String, Long> kinds = new TreeMap<>();
        int failedStates; // bit per JobState ordinal: a map per array would dominate the aggregate's memory
        LocalDateTime lastEnd;

        ArrayAcc(ArrayKey key) {
            this.key = key;
        }

        void merge(ArrayAcc a) {
            name = minString(name, a.name);
            user = minString(user, a.user);
            partition = minString(partition, a.partition);
            tally.merge(a.tally);
            failedElapsedSeconds += a.failedElapsedSeconds;
            maxGpus = Math.max(maxGpus, a.maxGpus);
            maxCpus = Math.max(maxCpus, a.maxCpus);
            minTask = Math.min(minTask, a.minTask);
            maxTask = Math.max(maxTask, a.maxTask);
            a.kinds.forEach((k, v) -> kinds.merge(k, v, Long::sum));
            failedStates |= a.failedStates;
            lastEnd = maxTime(lastEnd, a.lastEnd);
        }

        long tasks() {
            long n = 0;
            for (long c : tally.outcomes) {
                n += c;
            }
            return n;
        }

        static final Comparator<ArrayAcc> RANK = Comparator.<ArrayAcc>comparingLong(a -> a.tally.failedJoules).reversed()
                .thenComparing(Comparator.<ArrayAcc>comparingLong(a -> a.tally.failedGpuSeconds).reversed())
                .thenComparing(Comparator.<ArrayAcc>comparingLong(a -> a.tally.failedCpuSeconds).reversed())
                .thenComparingLong(a -> a.key.arrayId())
                .thenComparing(a -> a.key.cluster() == null ? "" : a.key.cluster());
    }

    /**
     * Adds one job.
     *
     * <p>A heterogeneous job's components ({@code 1234+0}, {@code 1234+1}, ...: one row each, next to each other, as
     * sacct prints them) are one job: counted once, under the worst outcome of its components (failed when one
     * failed), with the resources of every component on its own partition, and one line among the top jobs
     * ({@code 1234}, its components' figures summed). A component of another job, or any call that reads the
     * figures ({@link #report}, {@link #merge}, {@link #writeTo}), ends the gathering.
     *
     * @param failureKind the failure kind of a failed job (the classifier's verdict); ignored for other outcomes;
     *                    null counts as {@code unknown}
     */
    public void add(JobRecord job, String failureKind) {
        boolean component = job.id().hetOffset() != null && !job.id().isArrayTask();
        String odd = Implausible.why(job);
        if (!component && !io.slurmwise.backend.JobQuery.inPartition(partitionOnly, job.partition())) {
            // another partition's job: not counted, though it ends the job gathered before it, or is the later run
            // of one counted (its hours were then interrupted in this partition)
            flushHet();
            if (odd == null && lastRun != null && isEarlierRun(lastRun.job(), job)) {
                refile(lastRun);
            }
            lastRun = null;
            return;
        }
        if (odd != null) {
            // set aside and counted as such; a run before it stays the job's last (see FleetScan's slices)
            implausible++;
            firstImplausible = Implausible.first(firstImplausible,
                    job.id() + (job.cluster() == null ? "" : " on " + job.cluster()) + " (" + odd + ")");
            return;
        }
        records++;
        if (component) {
            if (!het.isEmpty() && !sameJob(het.get(0).job(), job)) {
                flushHet();
            }
            het.add(new Component(job, failureKind));
            lastRun = null;
            return;
        }
        flushHet();
        Outcome o = job.outcome();
        String kind = kindOf(o, failureKind);
        // a row with a task range that never ran stands for its tasks, as each task is a job once it starts: a pending
        // array's one row (700_[3-500]) is its tasks still to run, an array cancelled before they started one row of
        // them all (an outside audit: counted 498 jobs pending, 1 once cancelled); a task that started has its own row
        long n = o == Outcome.PENDING || job.start() == null ? job.id().taskCount() : 1;
        if (lastRun != null && isEarlierRun(lastRun.job(), job)) {
            refile(lastRun);
        }
        Figures f = account(job, o, kind, n, n, true);
        if (o == Outcome.FAILED && !f.wasted()) {
            failedWithoutHours += n;
        }
        lastRun = new Run(job, o, kind, n, f);
        if (job.id().isArrayTask()) {
            addTask(job, o, kind, f.seconds(), f.gpus(), f.cpus(), f.gpuSeconds(), f.cpuSeconds(), f.joules(), f.measured());
        } else if (o == Outcome.FAILED && f.wasted()) {
            offer(new Wasted(job.id().toString(), job.cluster(), job.name(), job.user(), job.partition(), failedState(job),
                    kind, f.seconds(), f.gpus(), f.cpus(), f.gpuSeconds(), f.cpuSeconds(), f.joules(), f.measured(), job.end()));
        }
    }

    /**
     * Adds a run of a requeued job that a later run of it follows, that later run counted in another aggregate (a later
     * slice of the window): its hours count as interrupted and it is no job, as {@link #add} counts it once the later
     * run comes, so slices merge to what one pass gives.
     */
    public void addEarlierRun(JobRecord job, String failureKind) {
        add(job, failureKind);
        if (lastRun != null && lastRun.job() == job) {
            refile(lastRun);
        }
    }

    /**
     * Counts only the jobs of one partition ({@code --partition}; a job pending on several counts in each), and of a
     * heterogeneous job only its components there, under the worst outcome of all its components: what that
     * partition's row of the whole report says (an outside audit: a job failed on gpu and completed on cpu counted
     * as completed under {@code --partition cpu}, failed in the cpu row). Give it every partition's records.
     *
     * @param partition null for every partition
     */
    public FleetStats onlyPartition(String partition) {
        if (!Objects.equals(partition, partitionOnly)) {
            flushHet();
            this.partitionOnly = partition;
        }
        return this;
    }

    /** A plain job as it was counted: what {@link #refile} takes back when a later run of it comes. */
    private record Run(JobRecord job, Outcome o, String kind, long n, Figures f) {
    }

    /**
     * Whether {@code earlier} is an earlier run of {@code job}: the same job id (an array task's own, {@code 700_3})
     * and cluster, and it ended.
     */
    private static boolean isEarlierRun(JobRecord earlier, JobRecord job) {
        return earlier.end() != null && earlier.id().toString().equals(job.id().toString())
                && Objects.equals(earlier.cluster(), job.cluster());
    }

    /**
     * An earlier run of a requeued job ({@code sacct -D} keeps each run, the job's id repeated): the job counts once,
     * as its last run ended, and the earlier run's hours were lost to what ended it (a node failure or a preemption
     * that requeued it, an admin's requeue), so they count as interrupted time, not as another job (an outside audit:
     * a job that hit NODE_FAIL, was requeued and completed counted as 3 jobs, one "cancelled", one failed).
     */
    private void refile(Run r) {
        JobRecord job = r.job();
        Figures f = r.f();
        boolean never = r.o().isEnded() && job.neverStarted();
        for (Tally t : groups(job)) {
            t.retract(r.o(), r.n(), f.gpuSeconds(), f.cpuSeconds(), f.joules(), f.measured());
            t.add(Outcome.CANCELLED, 0, f.gpuSeconds(), f.cpuSeconds(), f.joules(), f.measured());
            if (never) {
                t.neverStarted[r.o().ordinal()] -= r.n();
            }
        }
        if (r.o() == Outcome.FAILED && !f.wasted()) {
            failedWithoutHours -= r.n();
        }
        if (r.kind() != null) {
            Tally k = tally(kinds, r.kind());
            k.retract(r.o(), Math.min(1, r.n()), f.gpuSeconds(), f.cpuSeconds(), f.joules(), f.measured());
            if (never) {
                k.neverStarted[r.o().ordinal()] -= Math.min(1, r.n());
            }
            if (k.isEmpty()) {
                kinds.remove(r.kind()); // no failure of that kind is left
            }
        }
        if (r.o() == Outcome.FAILED) {
            top.removeIf(w -> w.id().equals(job.id().toString()) && Objects.equals(w.cluster(), job.cluster())
                    && Objects.equals(w.end(), job.end()));
        }
        ArrayAcc a = job.id().isArrayTask() ? arrays.get(new ArrayKey(job.cluster(), job.id().arrayJobId())) : null;
        if (a != null) {
            // the array's task counts once too (its line among the top jobs said 3 tasks for one requeued twice); the
            // states its failed runs had stay named (a bit each, not counted)
            a.tally.retract(r.o(), 1, f.gpuSeconds(), f.cpuSeconds(), f.joules(), f.measured());
            a.tally.add(Outcome.CANCELLED, 0, f.gpuSeconds(), f.cpuSeconds(), f.joules(), f.measured());
            if (r.o() == Outcome.FAILED) {
                a.failedElapsedSeconds -= f.seconds();
                a.kinds.computeIfPresent(r.kind(), (k, c) -> c > 1 ? c - 1 : null);
            }
        }
        lastRun = null;
    }

    /**
     * The groups a job counts in besides its failure kind: the total, its partition, user, cluster (when named) and
     * the day it ended (else started, else was submitted). What counts a job and what takes a run back use the same.
     */
    private List<Tally> groups(JobRecord job) {
        List<Tally> out = new ArrayList<>(5);
        out.add(total);
        out.add(tally(partitions, key(job.partition())));
        if (job.cluster() != null) {
            out.add(tally(clusters, job.cluster()));
        }
        out.add(tally(users, key(job.user())));
        LocalDateTime when = job.end() != null ? job.end() : job.start() != null ? job.start() : job.submit();
        if (when != null) {
            out.add(days.computeIfAbsent(when.toLocalDate(), d -> new Tally()));
        }
        return out;
    }

    /**
     * How a failed job ended, for the top list: its state, or for a COMPLETED job whose step failed, that step's
     * ({@code OUT_OF_MEMORY (step 1062.0)}: "COMPLETED" among the failed jobs read as a success).
     */
    private static String failedState(JobRecord job) {
        return job.failedStepOfCompleted().map(s -> s.status() + " (step " + s.id() + ")").orElse(job.status().toString());
    }

    /** The failure kind a failed job counts under (the classifier's verdict, {@code unknown} without one); null otherwise. */
    private static String kindOf(Outcome o, String failureKind) {
        return o == Outcome.FAILED ? (failureKind == null ? "unknown" : failureKind) : null;
    }

    /** One row's figures: elapsed seconds of an ended job, its allocation, and the energy estimated and measured. */
    private record Figures(long seconds, int gpus, int cpus, long gpuSeconds, long cpuSeconds, long joules, Long measured) {
        boolean wasted() {
            return joules > 0 || cpuSeconds > 0 || gpuSeconds > 0;
        }
    }

    /** A component of a heterogeneous job, gathered until its last component has come. */
    private record Component(JobRecord job, String failureKind) {
    }

    private static boolean sameJob(JobRecord a, JobRecord b) {
        return a.id().jobId() == b.id().jobId() && Objects.equals(a.cluster(), b.cluster());
    }

    /**
     * Counts one row in every group under outcome {@code o}, as {@code n} jobs (0 for a heterogeneous job's further
     * components: their resources count, the job once), in its partition as {@code inPartition} jobs (a heterogeneous
     * job is in each partition it has a component on: a partition's hours never stand without its job), and returns
     * its figures; {@code completedJob} counts a completed job's efficiency as a job (its first component).
     */
    private Figures account(JobRecord job, Outcome o, String kind, long n, long inPartition, boolean completedJob) {
        long seconds = o.isEnded() && job.elapsed() != null ? Math.max(0, job.elapsed().toSeconds()) : 0;
        int gpus = job.gpus();
        int cpus = job.cpus();
        long gpuSeconds = Math.round(seconds * job.gpuEquivalents()); // a MIG slice its share of the GPU
        long cpuSeconds = seconds * cpus;
        if (seconds > 0 && cpus == 0) {
            withoutCpus++;
        }
        long joules = seconds > 0 ? energy.itJoules(job, seconds) : 0;
        Long measured = o.isEnded() ? job.consumedEnergyJoules() : null;
        seen(job);
        boolean never = o.isEnded() && job.neverStarted();
        Tally partition = tally(partitions, key(job.partition()));
        for (Tally t : groups(job)) {
            long jobs = t == partition ? inPartition : n;
            t.add(o, jobs, gpuSeconds, cpuSeconds, joules, measured);
            if (never) {
                t.neverStarted[o.ordinal()] += jobs;
            }
        }
        if (kind != null) {
            Tally k = tally(kinds, kind);
            k.add(o, Math.min(1, n), gpuSeconds, cpuSeconds, joules, measured);
            if (never) {
                k.neverStarted[o.ordinal()] += Math.min(1, n);
            }
        }
        if (o == Outcome.COMPLETED) {
            efficiency(job, seconds, cpus, completedJob); // every component's cores and memory, the job once
        }
        return new Figures(seconds, gpus, cpus, gpuSeconds, cpuSeconds, joules, measured);
    }

    /**
     * Widens the span of the jobs counted to this one's moment: its end (else its start, else its submit), the
     * moment that dates it in the by-day rows and that a window counts it by (a job counts in the window it ended
     * in, with all its hours). Without --since/--until, that span is the window an export covered, which every
     * output names: its first and last days are those of the day rows (an outside audit: the span began with the
     * earliest start, days before the first day row), and given as --since/--until it counts the same jobs.
     */
    private void seen(JobRecord job) {
        LocalDateTime when = job.end() != null ? job.end() : job.start() != null ? job.start() : job.submit();
        dataFrom = minTime(dataFrom, when);
        dataUntil = maxTime(dataUntil, when);
    }

    /** Counts the heterogeneous job gathered so far as one job (see {@link #add}). */
    private void flushHet() {
        if (het.isEmpty()) {
            return;
        }
        List<Component> parts = List.copyOf(het);
        het.clear();
        // the worst outcome of its components: failed when one failed, else cancelled or preempted, else the first's
        Component decides = parts.get(0);
        for (Component c : parts) {
            Outcome co = c.job().outcome();
            Outcome best = decides.job().outcome();
            if (co == Outcome.FAILED && best != Outcome.FAILED || co.isInterrupted() && !best.isInterrupted() && best != Outcome.FAILED) {
                decides = c;
            }
        }
        Outcome o = decides.job().outcome();
        String kind = kindOf(o, decides.failureKind());
        if (partitionOnly != null) {
            // under --partition its components elsewhere decided the outcome; only those here count
            List<Component> here = parts.stream()
                    .filter(c -> io.slurmwise.backend.JobQuery.inPartition(partitionOnly, c.job().partition())).toList();
            records -= parts.size() - here.size();
            if (here.isEmpty()) {
                return;
            }
            parts = here;
        }
        long seconds = 0;
        int gpus = 0;
        int cpus = 0;
        long gpuSeconds = 0;
        long cpuSeconds = 0;
        long joules = 0;
        Long measured = null;
        LocalDateTime end = null;
        java.util.Set<String> where = new java.util.LinkedHashSet<>();
        java.util.Set<String> counted = new java.util.HashSet<>();
        for (int i = 0; i < parts.size(); i++) {
            JobRecord j = parts.get(i).job();
            Figures f = account(j, o, kind, i == 0 ? 1 : 0, counted.add(key(j.partition())) ? 1 : 0, i == 0);
            seconds = Math.max(seconds, f.seconds());
            gpus += f.gpus();
            cpus += f.cpus();
            gpuSeconds += f.gpuSeconds();
            cpuSeconds += f.cpuSeconds();
            joules += f.joules();
            if (f.measured() != null) {
                measured = measured == null ? f.measured() : Long.valueOf(measured + f.measured());
            }
            end = maxTime(end, j.end());
            if (j.partition() != null) {
                where.add(j.partition());
            }
        }
        if (o == Outcome.FAILED && joules == 0 && cpuSeconds == 0 && gpuSeconds == 0) {
            failedWithoutHours++;
        }
        if (o == Outcome.FAILED && (joules > 0 || cpuSeconds > 0 || gpuSeconds > 0)) {
            JobRecord first = parts.get(0).job();
            offer(new Wasted(Long.toString(first.id().jobId()), first.cluster(), first.name(), first.user(),
                    where.isEmpty() ? null : String.join(",", where), failedState(decides.job()), kind, seconds,
                    gpus, cpus, gpuSeconds, cpuSeconds, joules, measured, end));
        }
    }

    private static Tally tally(Map<String, Tally> m, String key) {
        Tally t = m.get(key);
        if (t == null) {
            t = new Tally();
            m.put(key, t);
        }
        return t;
    }

    private static String key(String s) {
        return s == null || s.isBlank() ? UNKNOWN_KEY : s;
    }

    /**
     * A completed job's (or component's) use of what it reserved; {@code job} counts it as a job (a heterogeneous job's
     * further components add their cores and memory to the totals, and are judged low or not with its first).
     */
    private void efficiency(JobRecord job, long seconds, int cpus, boolean asJob) {
        int one = asJob ? 1 : 0;
        effort.completed += one;
        if (job.totalCpu() != null && seconds > 0 && cpus > 0) {
            long reserved = seconds * cpus * 1000;
            long used = Math.min(job.totalCpu().toMillis(), reserved);
            effort.cpuJobs += one;
            effort.cpuUsedMillis += used;
            effort.cpuReservedMillis += reserved;
            if (asJob && used < LOW_EFFICIENCY * reserved) {
                effort.cpuLow++;
            }
        }
        DataSize rss = job.maxRss();
        DataSize limit = job.memoryLimit().orElse(null);
        if (rss != null && limit != null && limit.bytes() > 0 && seconds > 0) {
            long limitMib = Math.max(1, Math.round(limit.bytes() / MIB));
            long usedMib = Math.min(limitMib, Math.round(rss.bytes() / MIB));
            effort.memJobs += one;
            effort.memUsedMib += usedMib;
            effort.memLimitMib += limitMib;
            effort.memReservedMibSeconds += limitMib * seconds;
            effort.memUnusedMibSeconds += (limitMib - usedMib) * seconds;
            if (asJob && rss.bytes() < LOW_EFFICIENCY * limit.bytes()) { // in bytes: a whole MiB would move the edge
                effort.memLow++;
            }
        }
    }

    private void offer(Wasted w) {
        if (topJobs <= 0) {
            return;
        }
        top.add(w);
        if (top.size() > topJobs) {
            top.poll();
        }
    }

    private void addTask(JobRecord job, Outcome o, String kind, long seconds, int gpus, int cpus, long gpuSeconds,
                         long cpuSeconds, long joules, Long measured) {
        ArrayKey id = new ArrayKey(job.cluster(), job.id().arrayJobId());
        ArrayAcc a = arrays.get(id);
        if (a == null) {
            a = new ArrayAcc(id);
            arrays.put(id, a);
        }
        a.name = minString(a.name, job.name());
        a.user = minString(a.user, job.user());
        a.partition = minString(a.partition, job.partition());
        a.tally.add(o, gpuSeconds, cpuSeconds, joules, measured);
        long task = job.id().arrayTask();
        a.minTask = Math.min(a.minTask, task);
        a.maxTask = Math.max(a.maxTask, task);
        a.lastEnd = maxTime(a.lastEnd, job.end());
        if (o == Outcome.FAILED) {
            a.failedElapsedSeconds += seconds;
            a.maxGpus = Math.max(a.maxGpus, gpus);
            a.maxCpus = Math.max(a.maxCpus, cpus);
            a.kinds.merge(kind, 1L, Long::sum);
            // a completed task whose step failed: the step's state
            a.failedStates |= 1 << job.failedStepOfCompleted().map(st -> st.status().state()).orElse(job.state()).ordinal();
        }
        if (arrays.size() > 2 * arrayLimit) {
            compactArrays();
        }
    }

    private void compactArrays() {
        List<ArrayAcc> all = new ArrayList<>(arrays.values());
        all.sort(ArrayAcc.RANK);
        arrays.clear();
        for (int i = 0; i < Math.min(arrayLimit, all.size()); i++) {
            arrays.put(all.get(i).key, all.get(i));
        }
        arraysTruncated = true;
    }

    private static String minString(String a, String b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static LocalDateTime minTime(LocalDateTime a, LocalDateTime b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return a.isBefore(b) ? a : b;
    }

    private static LocalDateTime maxTime(LocalDateTime a, LocalDateTime b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return a.isAfter(b) ? a : b;
    }

    /** Widens the window this aggregate reports on (slices call it with their bounds). */
    public void coverWindow(LocalDateTime from, LocalDateTime to) {
        if (from != null && (since == null || from.isBefore(since))) {
            since = from;
        }
        if (to != null && (until == null || to.isAfter(until))) {
            until = to;
        }
    }

    /**
     * Adds another aggregate into this one (another slice of the window, another cluster). The result is the
     * same, counter for counter, as one pass over both inputs.
     *
     * @throws IllegalArgumentException when the two were computed with different energy models or top sizes
     */
    public FleetStats merge(FleetStats other) {
        if (!energy.equals(other.energy)) {
            throw new IllegalArgumentException("cannot merge fleet stats computed with different energy models ("
                    + energy.describe() + " vs " + other.energy.describe() + ")");
        }
        if (topJobs != other.topJobs || arrayLimit != other.arrayLimit) {
            throw new IllegalArgumentException("cannot merge fleet stats with different top-job or array limits");
        }
        flushHet();
        other.flushHet();
        records += other.records;
        implausible += other.implausible;
        firstImplausible = Implausible.first(firstImplausible, other.firstImplausible);
        withoutCpus += other.withoutCpus;
        failedWithoutHours += other.failedWithoutHours;
        coverWindow(other.since, other.until);
        dataFrom = minTime(dataFrom, other.dataFrom);
        dataUntil = maxTime(dataUntil, other.dataUntil);
        total.merge(other.total);
        mergeInto(partitions, other.partitions);
        mergeInto(clusters, other.clusters);
        mergeInto(users, other.users);
        mergeInto(kinds, other.kinds);
        other.days.forEach((d, t) -> days.computeIfAbsent(d, x -> new Tally()).merge(t));
        effort.merge(other.effort);
        other.top.forEach(this::offer);
        other.arrays.forEach((id, a) -> {
            ArrayAcc mine = arrays.get(id);
            if (mine == null) {
                mine = new ArrayAcc(id);
                arrays.put(id, mine);
            }
            mine.merge(a);
        });
        arraysTruncated |= other.arraysTruncated;
        if (arrays.size() > 2 * arrayLimit) {
            compactArrays();
        }
        return this;
    }

    /** Format tag of {@link #writeTo}: bump it when the encoding changes. */
    private static final int FORMAT = 0x5357_4653; // "SWFS"
    // 2: top jobs and arrays carry their cluster; 3: jobs that never started, failed jobs without hours, the data's span;
    // 4: implausible records set aside
    private static final int VERSION = 4;

    /**
     * Writes every counter of this aggregate, exactly, for another process to merge ({@link #mergeFrom}): what a
     * distributed run ships between its workers. The energy model is not written: the receiving aggregate's is
     * used, so both sides must be built alike (as for {@link #merge}).
     */
    public void writeTo(java.io.DataOutput out) throws java.io.IOException {
        flushHet();
        out.writeInt(FORMAT);
        out.writeInt(VERSION);
        out.writeInt(topJobs);
        out.writeInt(arrayLimit);
        out.writeLong(records);
        out.writeLong(implausible);
        writeString(out, firstImplausible);
        out.writeLong(withoutCpus);
        out.writeLong(failedWithoutHours);
        writeTime(out, since);
        writeTime(out, until);
        writeTime(out, dataFrom);
        writeTime(out, dataUntil);
        writeTally(out, total);
        for (Map<String, Tally> m : List.of(partitions, clusters, users, kinds)) {
            out.writeInt(m.size());
            for (Map.Entry<String, Tally> e : m.entrySet()) {
                writeString(out, e.getKey());
                writeTally(out, e.getValue());
            }
        }
        out.writeInt(days.size());
        for (Map.Entry<LocalDate, Tally> e : days.entrySet()) {
            out.writeLong(e.getKey().toEpochDay());
            writeTally(out, e.getValue());
        }
        Effort f = effort;
        for (long v : new long[] {f.completed, f.cpuJobs, f.cpuUsedMillis, f.cpuReservedMillis, f.cpuLow, f.memJobs,
                f.memUsedMib, f.memLimitMib, f.memReservedMibSeconds, f.memUnusedMibSeconds, f.memLow}) {
            out.writeLong(v);
        }
        out.writeInt(top.size());
        for (Wasted w : top) {
            for (String s : new String[] {w.id(), w.cluster(), w.name(), w.user(), w.partition(), w.state(), w.kind()}) {
                writeString(out, s);
            }
            out.writeLong(w.elapsedSeconds());
            out.writeInt(w.gpus());
            out.writeInt(w.cpus());
            out.writeLong(w.gpuSeconds());
            out.writeLong(w.cpuSeconds());
            out.writeLong(w.joules());
            out.writeBoolean(w.measuredJoules() != null);
            if (w.measuredJoules() != null) {
                out.writeLong(w.measuredJoules());
            }
            writeTime(out, w.end());
        }
        out.writeInt(arrays.size());
        for (ArrayAcc a : arrays.values()) {
            out.writeLong(a.key.arrayId());
            writeString(out, a.key.cluster());
            writeString(out, a.name);
            writeString(out, a.user);
            writeString(out, a.partition);
            writeTally(out, a.tally);
            out.writeLong(a.failedElapsedSeconds);
            out.writeInt(a.maxGpus);
            out.writeInt(a.maxCpus);
            out.writeLong(a.minTask);
            out.writeLong(a.maxTask);
            out.writeInt(a.kinds.size());
            for (Map.Entry<String, Long> e : a.kinds.entrySet()) {
                writeString(out, e.getKey());
                out.writeLong(e.getValue());
            }
            out.writeInt(a.failedStates);
            writeTime(out, a.lastEnd);
        }
        out.writeBoolean(arraysTruncated);
    }

    /**
     * Merges an aggregate written by {@link #writeTo} into this one: the same, counter for counter, as
     * {@link #merge} with the original.
     *
     * @throws IllegalArgumentException when the bytes are not such an aggregate, or were written with other
     *                                  top-job or array limits
     */
    public FleetStats mergeFrom(java.io.DataInput in) throws java.io.IOException {
        if (in.readInt() != FORMAT) {
            throw new IllegalArgumentException("not an encoded FleetStats (wrong format tag)");
        }
        int version = in.readInt();
        if (version != VERSION) {
            throw new IllegalArgumentException("encoded FleetStats version " + version + ", this build reads "
                    + VERSION + "; run every worker with the same slurmwise version");
        }
        int top = in.readInt();
        int arraysAt = in.readInt();
        if (top != topJobs || arraysAt != arrayLimit) {
            throw new IllegalArgumentException("cannot merge fleet stats with different top-job or array limits");
        }
        FleetStats o = new FleetStats(energy, topJobs, arrayLimit);
        o.records = in.readLong();
        o.implausible = in.readLong();
        o.firstImplausible = readString(in);
        o.withoutCpus = in.readLong();
        o.failedWithoutHours = in.readLong();
        o.since = readTime(in);
        o.until = readTime(in);
        o.dataFrom = readTime(in);
        o.dataUntil = readTime(in);
        readTally(in, o.total);
        for (Map<String, Tally> m : List.of(o.partitions, o.clusters, o.users, o.kinds)) {
            for (int i = in.readInt(); i > 0; i--) {
                String k = readString(in);
                readTally(in, tally(m, k));
            }
        }
        for (int i = in.readInt(); i > 0; i--) {
            LocalDate d = LocalDate.ofEpochDay(in.readLong());
            readTally(in, o.days.computeIfAbsent(d, x -> new Tally()));
        }
        Effort f = o.effort;
        f.completed = in.readLong();
        f.cpuJobs = in.readLong();
        f.cpuUsedMillis = in.readLong();
        f.cpuReservedMillis = in.readLong();
        f.cpuLow = in.readLong();
        f.memJobs = in.readLong();
        f.memUsedMib = in.readLong();
        f.memLimitMib = in.readLong();
        f.memReservedMibSeconds = in.readLong();
        f.memUnusedMibSeconds = in.readLong();
        f.memLow = in.readLong();
        for (int i = in.readInt(); i > 0; i--) {
            String id = readString(in);
            String cluster = readString(in);
            String name = readString(in);
            String user = readString(in);
            String partition = readString(in);
            String state = readString(in);
            String kind = readString(in);
            long elapsed = in.readLong();
            int gpus = in.readInt();
            int cpus = in.readInt();
            long gpuSeconds = in.readLong();
            long cpuSeconds = in.readLong();
            long joules = in.readLong();
            Long measured = in.readBoolean() ? in.readLong() : null;
            o.offer(new Wasted(id, cluster, name, user, partition, state, kind, elapsed, gpus, cpus, gpuSeconds, cpuSeconds,
                    joules, measured, readTime(in)));
        }
        for (int i = in.readInt(); i > 0; i--) {
            long arrayId = in.readLong();
            ArrayAcc a = new ArrayAcc(new ArrayKey(readString(in), arrayId));
            a.name = readString(in);
            a.user = readString(in);
            a.partition = readString(in);
            readTally(in, a.tally);
            a.failedElapsedSeconds = in.readLong();
            a.maxGpus = in.readInt();
            a.maxCpus = in.readInt();
            a.minTask = in.readLong();
            a.maxTask = in.readLong();
            for (int k = in.readInt(); k > 0; k--) {
                String kind = readString(in);
                a.kinds.put(kind, in.readLong());
            }
            a.failedStates = in.readInt();
            a.lastEnd = readTime(in);
            o.arrays.put(a.key, a);
        }
        o.arraysTruncated = in.readBoolean();
        return merge(o);
    }

    private FleetStats(EnergyModel energy, int topJobs, int arrayLimit) {
        this(new Builder().energy(energy).topJobs(topJobs).arrayLimit(arrayLimit));
    }

    private static void writeTally(java.io.DataOutput out, Tally t) throws java.io.IOException {
        out.writeInt(t.outcomes.length);
        for (long c : t.outcomes) {
            out.writeLong(c);
        }
        for (long c : t.neverStarted) {
            out.writeLong(c);
        }
        for (long v : new long[] {t.failedGpuSeconds, t.failedCpuSeconds, t.failedJoules, t.failedMeasuredJoules,
                t.failedMeasuredJobs, t.interruptedGpuSeconds, t.interruptedCpuSeconds, t.interruptedJoules,
                t.usedGpuSeconds, t.usedCpuSeconds, t.usedJoules, t.usedMeasuredJoules, t.usedMeasuredJobs}) {
            out.writeLong(v);
        }
    }

    private static void readTally(java.io.DataInput in, Tally t) throws java.io.IOException {
        int n = in.readInt();
        if (n != t.outcomes.length) {
            throw new IllegalArgumentException("encoded FleetStats has " + n + " outcomes, this build has "
                    + t.outcomes.length + "; run every worker with the same slurmwise version");
        }
        for (int i = 0; i < n; i++) {
            t.outcomes[i] = in.readLong();
        }
        for (int i = 0; i < n; i++) {
            t.neverStarted[i] = in.readLong();
        }
        t.failedGpuSeconds = in.readLong();
        t.failedCpuSeconds = in.readLong();
        t.failedJoules = in.readLong();
        t.failedMeasuredJoules = in.readLong();
        t.failedMeasuredJobs = in.readLong();
        t.interruptedGpuSeconds = in.readLong();
        t.interruptedCpuSeconds = in.readLong();
        t.interruptedJoules = in.readLong();
        t.usedGpuSeconds = in.readLong();
        t.usedCpuSeconds = in.readLong();
        t.usedJoules = in.readLong();
        t.usedMeasuredJoules = in.readLong();
        t.usedMeasuredJobs = in.readLong();
    }

    // strings as length + UTF-8 (DataOutput.writeUTF stops at 64 KB); -1 is null
    private static void writeString(java.io.DataOutput out, String s) throws java.io.IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readString(java.io.DataInput in) throws java.io.IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static void writeTime(java.io.DataOutput out, LocalDateTime t) throws java.io.IOException {
        out.writeBoolean(t != null);
        if (t != null) {
            out.writeLong(t.toLocalDate().toEpochDay());
            out.writeLong(t.toLocalTime().toNanoOfDay());
        }
    }

    private static LocalDateTime readTime(java.io.DataInput in) throws java.io.IOException {
        if (!in.readBoolean()) {
            return null;
        }
        LocalDate d = LocalDate.ofEpochDay(in.readLong());
        return d.atTime(java.time.LocalTime.ofNanoOfDay(in.readLong()));
    }

    private static void mergeInto(Map<String, Tally> into, Map<String, Tally> from) {
        from.forEach((k, t) -> tally(into, k).merge(t));
    }

    public long records() {
        return records;
    }

    public EnergyModel energy() {
        return energy;
    }

    /** The most days the by-day rows fill in without jobs (ten years): past it, only the days that have jobs. */
    private static final long MAX_FILLED_DAYS = 3660;

    /**
     * The days as the report shows them: a job dated before the window (one running or pending at its end that
     * started or was submitted earlier) on the window's first day, after it on its last, and every day between the
     * first and the last, those without jobs too, so that a day's place in a chart is its date (an outside audit: a
     * chart of 8 marks labelled 27 days, and a two-day window drawn over three weeks).
     */
    private TreeMap<LocalDate, Tally> byDay() {
        LocalDate lo = since == null ? null : since.toLocalDate();
        LocalDate hi = until == null ? null : lastDay(since, until);
        TreeMap<LocalDate, Tally> out = new TreeMap<>();
        days.forEach((d, t) -> out.computeIfAbsent(lo != null && d.isBefore(lo) ? lo : hi != null && d.isAfter(hi) ? hi : d,
                x -> new Tally()).merge(t));
        if (out.size() > 1 && java.time.temporal.ChronoUnit.DAYS.between(out.firstKey(), out.lastKey()) <= MAX_FILLED_DAYS) {
            for (LocalDate d = out.firstKey(); d.isBefore(out.lastKey()); d = d.plusDays(1)) {
                out.computeIfAbsent(d, x -> new Tally());
            }
        }
        return out;
    }

    /**
     * The last day a window reaches: a window that ends at midnight ({@code --until 2026-11-08}) ends with the day
     * before, not with a day of which it holds no moment (an outside audit: a 7-day window had 8 day rows).
     */
    static LocalDate lastDay(LocalDateTime since, LocalDateTime until) {
        boolean midnight = until.toLocalTime().equals(java.time.LocalTime.MIDNIGHT);
        return midnight && (since == null || since.toLocalDate().isBefore(until.toLocalDate()))
                ? until.toLocalDate().minusDays(1) : until.toLocalDate();
    }

    /** The figures in the user's units. */
    public FleetReport report() {
        flushHet();
        Comparator<FleetReport.Breakdown> byWaste = Comparator.comparingDouble(FleetReport.Breakdown::wastedKwh).reversed()
                .thenComparing(Comparator.comparingLong(FleetReport.Breakdown::failed).reversed())
                .thenComparing(Comparator.comparingLong(FleetReport.Breakdown::jobs).reversed())
                .thenComparing(FleetReport.Breakdown::key);
        List<FleetReport.Breakdown> byDay = new ArrayList<>();
        byDay().forEach((d, t) -> byDay.add(breakdown(d.toString(), t)));
        return new FleetReport(since, until, records, breakdown("total", total), sorted(kinds, byWaste),
                sorted(partitions, byWaste), sorted(users, byWaste), byDay, sorted(clusters, byWaste), topEntries(),
                efficiencyReport(), energy,
                arraysTruncated, withoutCpus, failedWithoutHours, dataFrom, dataUntil, implausible, firstImplausible);
    }

    private List<FleetReport.Breakdown> sorted(Map<String, Tally> m, Comparator<FleetReport.Breakdown> order) {
        List<FleetReport.Breakdown> out = new ArrayList<>();
        m.forEach((k, t) -> out.add(breakdown(k, t)));
        out.sort(order);
        return out;
    }

    private FleetReport.Breakdown breakdown(String key, Tally t) {
        return new FleetReport.Breakdown(key, t.jobs(), t.count(Outcome.COMPLETED), t.count(Outcome.FAILED),
                t.count(Outcome.CANCELLED), t.count(Outcome.PREEMPTED), t.count(Outcome.PENDING),
                t.count(Outcome.RUNNING), t.count(Outcome.UNKNOWN),
                hours(t.failedGpuSeconds), hours(t.failedCpuSeconds), energy.facilityKwh(t.failedJoules),
                energy.co2Kg(t.failedJoules), t.failedMeasuredJobs == 0 ? null : t.failedMeasuredJoules / 3.6e6,
                t.failedMeasuredJobs, hours(t.interruptedGpuSeconds), hours(t.interruptedCpuSeconds),
                energy.facilityKwh(t.interruptedJoules), hours(t.usedGpuSeconds), hours(t.usedCpuSeconds),
                energy.facilityKwh(t.usedJoules), t.usedMeasuredJobs == 0 ? null : t.usedMeasuredJoules / 3.6e6,
                t.usedMeasuredJobs, t.neverStarted(), t.neverStarted[Outcome.FAILED.ordinal()]);
    }

    private static double hours(long seconds) {
        return seconds / 3600.0;
    }

    private List<FleetReport.TopEntry> topEntries() {
        record Ranked(long joules, long gpuSeconds, long cpuSeconds, String id, FleetReport.TopEntry entry) {
        }
        boolean several = clusters.size() > 1; // then a job is named with its cluster: ids repeat across clusters
        List<Ranked> all = new ArrayList<>();
        for (Wasted w : top) {
            all.add(new Ranked(w.joules(), w.gpuSeconds(), w.cpuSeconds(), w.id(), new FleetReport.TopEntry(w.id(),
                    several ? w.cluster() : null, false, w.name(), w.user(), w.partition(), w.state(), Map.of(w.kind(), 1L), Map.of(), 1,
                    w.elapsedSeconds(), w.gpus(), w.cpus(), hours(w.gpuSeconds()), hours(w.cpuSeconds()),
                    energy.facilityKwh(w.joules()), energy.co2Kg(w.joules()),
                    w.measuredJoules() == null ? null : w.measuredJoules() / 3.6e6, w.end())));
        }
        for (ArrayAcc a : arrays.values()) {
            Tally t = a.tally;
            if (t.failedJoules == 0 && t.failedCpuSeconds == 0 && t.failedGpuSeconds == 0) {
                continue;
            }
            Map<String, Long> tasks = new LinkedHashMap<>();
            for (Outcome o : Outcome.values()) {
                if (t.outcomes[o.ordinal()] > 0) {
                    tasks.put(o.id(), t.outcomes[o.ordinal()]);
                }
            }
            String id = a.key.arrayId() + "_[" + (a.minTask == a.maxTask ? String.valueOf(a.minTask)
                    : a.minTask + "-" + a.maxTask) + "]";
            all.add(new Ranked(t.failedJoules, t.failedGpuSeconds, t.failedCpuSeconds, id, new FleetReport.TopEntry(id,
                    several ? a.key.cluster() : null, true, a.name, a.user, a.partition, states(a.failedStates), a.kinds, tasks,
                    a.tasks(), a.failedElapsedSeconds, a.maxGpus, a.maxCpus, hours(t.failedGpuSeconds),
                    hours(t.failedCpuSeconds), energy.facilityKwh(t.failedJoules), energy.co2Kg(t.failedJoules),
                    t.failedMeasuredJobs == 0 ? null : t.failedMeasuredJoules / 3.6e6, a.lastEnd)));
        }
        all.sort(Comparator.comparingLong(Ranked::joules).reversed()
                .thenComparing(Comparator.comparingLong(Ranked::gpuSeconds).reversed())
                .thenComparing(Comparator.comparingLong(Ranked::cpuSeconds).reversed())
                .thenComparing(Ranked::id)
                .thenComparing(r -> r.entry().cluster() == null ? "" : r.entry().cluster()));
        return all.stream().limit(topJobs).map(Ranked::entry).toList();
    }

    private static String states(int mask) {
        List<String> names = new ArrayList<>();
        for (io.slurmwise.job.JobState s : io.slurmwise.job.JobState.values()) {
            if ((mask & (1 << s.ordinal())) != 0) {
                names.add(s.name());
            }
        }
        names.sort(null);
        return String.join(",", names);
    }

    private FleetReport.Efficiency efficiencyReport() {
        Effort e = effort;
        return new FleetReport.Efficiency(e.completed, e.cpuJobs,
                e.cpuReservedMillis == 0 ? null : e.cpuUsedMillis / (double) e.cpuReservedMillis,
                e.cpuReservedMillis / 3.6e6, (e.cpuReservedMillis - e.cpuUsedMillis) / 3.6e6, e.cpuLow, e.memJobs,
                // weighted by run time, as the CPU figure and the unused GB-hours beside it are
                e.memReservedMibSeconds == 0 ? null
                        : 1.0 - e.memUnusedMibSeconds / (double) e.memReservedMibSeconds,
                e.memReservedMibSeconds / 1024.0 / 3600.0, e.memUnusedMibSeconds / 1024.0 / 3600.0, e.memLow);
    }

    /** Configures a {@link FleetStats}. */
    public static final class Builder {
        private EnergyModel energy = EnergyModel.defaults();
        private int topJobs = 10;
        private int arrayLimit = 10_000;

        private Builder() {
        }

        public Builder energy(EnergyModel e) {
            this.energy = Objects.requireNonNull(e, "energy");
            return this;
        }

        /** How many wasteful jobs the report lists (default 10). */
        public Builder topJobs(int n) {
            if (n < 0 || n > 10_000) {
                throw new IllegalArgumentException("top jobs must be between 0 and 10000, got " + n);
            }
            this.topJobs = n;
            return this;
        }

        /** How many array jobs are summarised exactly (default 10,000); memory is bounded by twice that. */
        public Builder arrayLimit(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("array limit must be positive, got " + n);
            }
            this.arrayLimit = n;
            return this;
        }

        public FleetStats build() {
            return new FleetStats(this);
        }
    }
}
