package io.slurmwise.patch;

import io.slurmwise.classify.Finding;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.Partition;
import io.slurmwise.job.PartitionSearch;
import io.slurmwise.job.Qos;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the fixers see of a job: its accounting record, the rules' finding, the lines of its log tails (decoded once,
 * by the log tail) and the evidence lines, and the cluster's partitions.
 *
 * @param partitions the cluster's partitions (MaxTime and node sizes cap the fixes); may be empty
 * @param qos        the cluster's QOSes (a job's QOS MaxWall caps its time on every partition), read when a fixer first
 *                   asks (one question to slurmdbd) and once; empty when unknown
 * @param allowedQos the QOSes the job's user may use with its account on its partition ({@code sacctmgr show assoc}),
 *                   read when a fixer first asks; empty when unknown
 * @param clock      the logs' own clock: how long the job had run when a line was printed ({@link LogClock#NONE} when
 *                   the logs do not say)
 */
public record FixContext(JobRecord job, Finding finding, List<String> logLines, List<String> evidenceLines,
                         List<Partition> partitions, Supplier<List<Qos>> qos,
                         Supplier<Optional<java.util.Set<String>>> allowedQos, LogClock clock) {

    public FixContext {
        clock = clock == null ? LogClock.NONE : clock;
        logLines = List.copyOf(logLines);
        evidenceLines = List.copyOf(evidenceLines);
        partitions = partitions == null ? List.of() : List.copyOf(partitions);
        qos = qos == null ? List::of : Qos.once(qos);
        allowedQos = allowedQos == null ? Optional::empty : allowedQos;
    }

    /** Without the logs' clock: progress is read as of the job's end. */
    public FixContext(JobRecord job, Finding finding, List<String> logLines, List<String> evidenceLines,
                      List<Partition> partitions, Supplier<List<Qos>> qos,
                      Supplier<Optional<java.util.Set<String>>> allowedQos) {
        this(job, finding, logLines, evidenceLines, partitions, qos, allowedQos, null);
    }

    /** Without the QOSes the user's association allows: a QOS a patch names is one to check. */
    public FixContext(JobRecord job, Finding finding, List<String> logLines, List<String> evidenceLines,
                      List<Partition> partitions, Supplier<List<Qos>> qos) {
        this(job, finding, logLines, evidenceLines, partitions, qos, null, null);
    }

    /** Without the cluster's QOSes: the advice says to check them. */
    public FixContext(JobRecord job, Finding finding, List<String> logLines, List<String> evidenceLines,
                      List<Partition> partitions) {
        this(job, finding, logLines, evidenceLines, partitions, null, null, null);
    }

    /**
     * The QOS a patch may move the job to for a run of {@code need} on {@code partition}: the site's QOS named like the
     * partition, or, when the user's associations are known, the one of theirs that allows the run (the least MaxWall
     * that does); never one their association does not list. Empty when none is known to be open to them.
     */
    public Optional<Qos> qosFor(java.time.Duration need, String partition, String besides) {
        Optional<java.util.Set<String>> mine = allowedQos.get();
        // a QOS the partition is known not to admit (AllowQos/DenyQos) would be refused there
        java.util.function.Predicate<Qos> admitted = q -> partitions.stream().filter(p -> p.name().equals(partition))
                .noneMatch(p -> p.qosAccess().refuses(q.name()));
        Optional<Qos> named = Qos.forPartition(qos.get(), need, partition, besides)
                .filter(q -> mine.map(m -> m.contains(q.name().toLowerCase(java.util.Locale.ROOT))).orElse(true))
                .filter(admitted);
        if (named.isPresent() || mine.isEmpty()) {
            return named;
        }
        return qosAllowing(need, besides).stream().filter(admitted).findFirst();
    }

    /**
     * Whether partition {@code p} is known to refuse the job's QOS (its AllowQos does not list it, or its DenyQos
     * does): a move there must change the QOS too.
     */
    public boolean refusesJobQos(Partition p) {
        return job != null && p != null && p.qosAccess().refuses(job.qos());
    }

    /**
     * The QOSes (besides {@code besides}) whose MaxWall allows {@code need}, least first ({@link Qos#allowing}); only
     * the user's own when their associations are known.
     */
    public List<Qos> qosAllowing(java.time.Duration need, String besides) {
        Optional<java.util.Set<String>> mine = allowedQos.get();
        return Qos.allowing(qos.get(), need, besides).stream()
                .filter(q -> mine.map(m -> m.contains(q.name().toLowerCase(java.util.Locale.ROOT))).orElse(true))
                .toList();
    }

    /** Whether the user's associations are known (a QOS the patch names is then one of theirs). */
    public boolean knowsOwnQos() {
        return allowedQos.get().isPresent();
    }

    /** The job's QOS as the cluster lists it; empty when the job names none or the QOSes are unknown. */
    public Optional<Qos> jobQos() {
        return job == null || job.qos() == null || job.qos().isBlank() ? Optional.empty() : Qos.named(qos.get(), job.qos());
    }

    /**
     * The QOS whose MaxWall caps the job's time on partition {@code p}: the partition's own QOS when it has one with a
     * MaxWall (slurmctld takes its limits first), else the job's ({@link Qos#timeCap}).
     */
    public Optional<Qos> timeQos(Optional<Partition> p) {
        return Qos.timeCap(qos, jobQos(), p.orElse(null));
    }

    /** Whether partition {@code o}'s own QOS, if it has one, allows a run of {@code need}: a partition to move to must. */
    public boolean ownQosAllows(Partition o, java.time.Duration need) {
        return Qos.ownAllows(qos, o, need);
    }

    /** A path sacct recorded (WorkDir, StdOut, StdErr), unless blank or sacct's word for none ({@code None}, {@code (null)}). */
    static Optional<String> recordedPath(String path) {
        return Optional.ofNullable(path).filter(p -> !p.isBlank() && !p.equalsIgnoreCase("None") && !p.equals("(null)"));
    }

    /**
     * Where the job's relative paths start: the script's {@code --chdir}, else the WorkDir sacct recorded; empty when
     * neither says.
     */
    public Optional<String> workingDirectory(BatchScript s) {
        Optional<String> chdir = s.option("chdir").map(BatchScript.Option::value).filter(v -> v != null && !v.isBlank());
        return chdir.isPresent() ? chdir : recordedPath(job == null ? null : job.workDir());
    }

    /** The job's partition (its first when it asked for several), else the script's, else the default one. */
    public Optional<Partition> partition(BatchScript s) {
        String name = job.partition() != null ? job.partition()
                : s.option("partition").map(BatchScript.Option::value).orElse(null);
        if (name == null) {
            return partitions.stream().filter(Partition::isDefault).findFirst();
        }
        String first = name.split(",")[0];
        return partitions.stream().filter(p -> p.name().equals(first)).findFirst();
    }

    /** GPUs allocated, or asked for in the script (a record of a job that never started has no allocation). */
    public boolean usesGpus(BatchScript s) {
        return job.gpus() > 0 || s.options().stream().anyMatch(o -> o.name().startsWith("gpus")
                || (o.name().equals("gres") && o.value() != null && o.value().contains("gpu")));
    }

    /** A search for another partition among the cluster's (the one search every patch's advice names them by). */
    public PartitionSearch search() {
        return PartitionSearch.among(partitions);
    }
}
