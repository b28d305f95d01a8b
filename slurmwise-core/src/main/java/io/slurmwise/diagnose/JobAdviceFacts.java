package io.slurmwise.diagnose;

import io.slurmwise.job.DataSize;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.Partition;
import io.slurmwise.job.PartitionSearch;
import io.slurmwise.job.Qos;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.job.UserNames;
import io.slurmwise.taxonomy.Placeholders;
import io.slurmwise.patch.MemoryAdvice;
import io.slurmwise.patch.ScriptReading;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The facts of one job and its cluster that advice is fitted to: its partition and that partition's limits, the
 * partitions that allow longer, its GPU model and the partitions that have it, its measured peak memory and the memory
 * to ask for after an OOM kill (by {@link MemoryAdvice}, the memory patch's own rule). Taken from
 * the job's accounting record and the backend's partition list (the same one the time fix is capped by).
 *
 * @param job        the job (never null)
 * @param partitions the cluster's partitions; empty when the backend could not say
 * @param reading    the job's batch script, when at hand (a fix it already follows says so), read once with the fixers'
 *                   patterns ({@link io.slurmwise.patch.PatchSuggester#read}), else null
 * @param gpuGiB     the capacity of the job's GPU as its own CUDA error reported it, in GiB, else null
 * @param qos        the cluster's QOSes (the job's MaxWall caps its time on every partition), asked only when advice
 *                   about time needs them; empty when unknown
 * @param canceller  the user name of whoever cancelled the job ({@code CANCELLED by 1001} with the uid's name), else
 *                   null
 * @param childRefused whether the deciding evidence is a workflow manager's report that SLURM refused a job it
 *                   submitted ({@link io.slurmwise.classify.WorkflowRefusal}): the refused request is that job's, not
 *                   this one's
 * @param allowedQos the QOSes the job's user may use with its account on its partition ({@code sacctmgr show assoc}),
 *                   asked only when a piece of advice names a QOS; empty when unknown
 * @param movedQos   the QOS a patch moves the job to, else null: the time limits a fix quotes are that QOS's (the real
 *                   lab's 211 read "within the partition/QOS maximum (00:10:00, the MaxWall of QOS short)" beside a
 *                   patch that moved it to QOS normal); what the job already does is still read from its own QOS
 * @param logLines   the deciding log lines of the finding ({@link #withLogLines}): a program's own memory error
 *                   ({@link io.slurmwise.classify.OwnMemoryError}) or a workflow's report of its task
 *                   ({@link io.slurmwise.classify.WorkflowTask}) says which memory advice is the job's; empty when none
 */
public record JobAdviceFacts(JobRecord job, List<Partition> partitions, ScriptReading reading, Double gpuGiB,
                             Supplier<List<Qos>> qos, String canceller, boolean childRefused,
                             Supplier<Optional<java.util.Set<String>>> allowedQos, String movedQos,
                             List<String> logLines) {


    public JobAdviceFacts {
        partitions = partitions == null ? List.of() : List.copyOf(partitions);
        qos = qos == null ? List::of : qos;
        allowedQos = allowedQos == null ? Optional::empty : allowedQos;
        logLines = logLines == null ? List.of() : List.copyOf(logLines.stream().filter(java.util.Objects::nonNull).toList());
    }

    /** As the canonical constructor, the script read with the bundled patterns and no log lines. */
    public JobAdviceFacts(JobRecord job, List<Partition> partitions, String script, Double gpuGiB,
                          Supplier<List<Qos>> qos, String canceller, boolean childRefused,
                          Supplier<Optional<java.util.Set<String>>> allowedQos, String movedQos) {
        this(job, partitions, script == null ? null : ScriptReading.withBundledPatterns(script), gpuGiB, qos, canceller,
                childRefused, allowedQos, movedQos, List.of());
    }

    public JobAdviceFacts(JobRecord job, List<Partition> partitions) {
        this(job, partitions, (String) null, null, null, null, false, null, null);
    }

    public JobAdviceFacts(JobRecord job, List<Partition> partitions, String script) {
        this(job, partitions, script, null, null, null, false, null, null);
    }

    /** The same facts with the job's batch script (null: not at hand), read with the bundled patterns. */
    public JobAdviceFacts withScript(String batchScript) {
        return withScript(batchScript == null ? null : ScriptReading.withBundledPatterns(batchScript));
    }

    /** The same facts with the job's batch script as the fixers read it (null: not at hand). */
    public JobAdviceFacts withScript(ScriptReading batchScript) {
        return new JobAdviceFacts(job, partitions, batchScript, gpuGiB, qos, canceller, childRefused, allowedQos, movedQos, logLines);
    }

    /**
     * What bash's {@code Permission denied} among the deciding log lines was, read from the job's script as the
     * exec_permission fixer reads it (a redirect that could not write, or a command that could not run); empty without a
     * script or such a line.
     */
    public Optional<io.slurmwise.patch.DeniedPath> deniedPath() {
        return reading == null ? Optional.empty() : reading.denied(logLines);
    }

    /** The job's batch script, when at hand, else null. */
    public String script() {
        return reading == null ? null : reading.text();
    }

    /** The same facts with the QOSes the job's user may use with its account, read when first needed. */
    public JobAdviceFacts withAllowedQos(Supplier<Optional<java.util.Set<String>>> read) {
        return new JobAdviceFacts(job, partitions, reading, gpuGiB, qos, canceller, childRefused, read, movedQos, logLines);
    }

    /** The same facts with the cluster's QOSes, read when first needed. */
    public JobAdviceFacts withQos(Supplier<List<Qos>> table) {
        return new JobAdviceFacts(job, partitions, reading, gpuGiB, table, canceller, childRefused, allowedQos, movedQos, logLines);
    }

    /** The job's QOS, when the cluster's QOSes are known and list it. */
    public Optional<Qos> jobQos() {
        return job.qos() == null || job.qos().isBlank() ? Optional.empty() : Qos.named(qos.get(), job.qos());
    }

    /**
     * The QOS that caps the job's time on its partition (the partition's own QOS when it has one with a MaxWall, else
     * the job's: {@link Qos#timeCap}) when its MaxWall is a tighter cap than the partition's MaxTime (or the partition
     * has none). Under the job's QOS no partition gives the job more time; under the partition's own, another
     * partition may.
     */
    public Optional<Qos> bindingQos() {
        if (partition().isEmpty()) {
            return Optional.empty();
        }
        Optional<Duration> part = partition().flatMap(Partition::maxTimeLimit);
        Optional<Qos> under = movedQos == null ? jobQos() : Qos.named(qos.get(), movedQos);
        return Qos.timeCap(qos, under, partition().get()).filter(q -> q.maxWallLimit().isPresent()
                && (part.isEmpty() || q.maxWallLimit().get().compareTo(part.get()) < 0));
    }

    /** Whether the binding QOS is the job's own (which caps every partition), not its partition's. */
    private boolean jobQosBinds() {
        return bindingQos().filter(q -> !Qos.isOwnQos(q, partition().orElse(null))).isPresent();
    }

    /**
     * The same facts with what the job's deciding log lines say: the capacity of its GPU its own CUDA error reported
     * ("total capacity of 39.39 GiB"), which tells the board from the type's sizes, and whether the refused request
     * was a job a workflow manager submitted ({@link io.slurmwise.classify.WorkflowRefusal}).
     */
    public JobAdviceFacts withLogLines(List<String> lines) {
        List<String> l = lines == null ? List.of() : lines;
        java.util.OptionalDouble gib = io.slurmwise.job.GpuModels.reported(l);
        boolean child = io.slurmwise.classify.WorkflowRefusal.in(l);
        return new JobAdviceFacts(job, partitions, reading, gib.isPresent() ? Double.valueOf(gib.getAsDouble()) : gpuGiB,
                qos, canceller, childRefused || child, allowedQos, movedQos, l);
    }

    /** The same facts under the QOS a patch moves the job to ({@code movedQos}). */
    public JobAdviceFacts withMovedQos(String name) {
        return new JobAdviceFacts(job, partitions, reading, gpuGiB, qos, canceller, childRefused, allowedQos, name, logLines);
    }

    /** The same facts with the user name of whoever cancelled the job (null: not cancelled, or the uid has no name). */
    public JobAdviceFacts withCanceller(String name) {
        return new JobAdviceFacts(job, partitions, reading, gpuGiB, qos, name, childRefused, allowedQos, movedQos, logLines);
    }

    /**
     * Whether the job's own user cancelled it, as its record says ({@code CANCELLED by 1001}, the uid named as the
     * job's user): advice for a job an admin or SLURM cancelled is not its advice.
     */
    public boolean cancelledByItsUser() {
        return canceller != null && job.user() != null && canceller.equals(job.user());
    }

    /** The job's partition (its first when it asked for several), when the cluster lists it. */
    public Optional<Partition> partition() {
        if (job.partition() == null) {
            return Optional.empty();
        }
        String first = job.partition().split(",")[0];
        return partitions.stream().filter(p -> p.name().equals(first)).findFirst();
    }

    /** The most time the job can have: its partition's MaxTime, or its QOS's MaxWall when that is less. */
    public Optional<Duration> maxTime() {
        Optional<Qos> q = bindingQos();
        return q.isPresent() ? q.get().maxWallLimit() : partition().flatMap(Partition::maxTimeLimit);
    }

    /** The job's own time limit when it is a duration. */
    public Optional<Duration> timeLimit() {
        return job.timeLimit().limit();
    }

    /** The GPU model the job ran on ({@code a100}), from its allocation. */
    public Optional<String> gpuModel() {
        return job.gpuModel().map(m -> m.toLowerCase(Locale.ROOT));
    }

    /** Whether the job used or asked for GPUs, as far as its record says. */
    public boolean usesGpus() {
        return job.gpus() > 0 || partition().map(Partition::hasGpus).orElse(false);
    }

    /**
     * The partitions (up, not the job's) whose MaxTime is longer than the job's partition's, shortest first; none when
     * the job's QOS is the tighter cap (another partition gives no more time under it).
     */
    public List<Partition> longerPartitions() {
        Optional<Duration> max = maxTime();
        if (max.isEmpty() || jobQosBinds()) {
            return List.of();
        }
        Duration more = max.get().plusSeconds(1);
        // a partition whose own QOS caps the time at no more is no longer one
        return search().allowing(more).withGpus(usesGpus())
                .where(o -> Qos.ownAllows(qos, o, more))
                .ranked(PartitionSearch.Rank.SHORTEST_MAXTIME);
    }

    /** A search among the cluster's partitions other than the job's. */
    private PartitionSearch search() {
        return PartitionSearch.among(partitions).besides(partition().map(Partition::name).orElse(null));
    }

    /**
     * Whether the job ran at all ({@link JobRecord#neverStarted()}): false for one that never left the queue
     * (cancelled or failed while pending: no node, no start, no elapsed time), true when unknown.
     */
    public boolean started() {
        return !job.neverStarted();
    }

    /** The value of a placeholder, when the job and cluster know it (names in knowledge/README.md). */
    public Optional<String> value(String name) {
        return switch (name) {
            case "job_id", "queued_job_id" -> Optional.of(job.id().toString());
            case "canceller_uid" -> UserNames.cancelledBy(job.status()).stream().mapToObj(Long::toString).findFirst();
            case "partition" -> Optional.ofNullable(job.partition()).map(p -> p.split(",")[0]);
            case "max_time" -> partition().map(p -> bindingQos().map(q -> q.maxWall() + ", the MaxWall of "
                    + (Qos.isOwnQos(q, p) ? "partition " + p.name() + "'s own QOS " : "QOS ") + q.name())
                    .orElse(p.maxTime().toString()));
            case "longer_partitions" -> partition().map(p -> {
                Optional<Qos> q = bindingQos();
                if (q.isPresent() && jobQosBinds()) {
                    return "none under QOS " + q.get().name() + ", which allows at most " + q.get().maxWall()
                            + " on every partition";
                }
                List<Partition> longer = longerPartitions();
                return longer.isEmpty() ? "none on this cluster" + (usesGpus() ? " with GPUs" : "")
                        : String.join(", ", longer.stream().map(Partition::describe).toList());
            });
            case "gpu_model" -> gpuModel();
            case "gpus_per_node" -> job.gpus() > 0 ? Optional.of(Integer.toString(Math.max(1, job.gpus() / job.nodes())))
                    : Optional.empty();
            case "gpu_partitions" -> gpuModel().map(m -> partitionsWhere(p -> p.hasGpuModel(m)));
            case "other_gpu_partitions" -> gpuModel().map(m -> partitionsWhere(p -> p.hasGpus() && !p.hasGpuModel(m)));
            case "peak_mem" -> job.memoryPeakText();
            case "mem_limit" -> job.memoryLimitText();
            case "suggested_mem" -> MemoryAdvice.perNode(job).map(MemoryAdvice::sbatchSize);
            case "suggested_mem_per_cpu" -> MemoryAdvice.perCpu(job).map(MemoryAdvice::sbatchSize);
            // the same, for advice that holds only under memory pressure (followed() leaves it out when the peak stayed
            // well below the limit)
            case "tight_mem" -> MemoryAdvice.perNode(job).map(MemoryAdvice::sbatchSize);
            case "tight_mem_per_cpu" -> MemoryAdvice.perCpu(job).map(MemoryAdvice::sbatchSize);
            case "node_mem" -> partition().map(Partition::memoryPerNode).map(DataSize::toString);
            case "java_heap" -> javaHeap();
            case "batch_example" -> batchExample();
            // the same heap, for the fix that raises -Xmx because the JVM's own heap was full: only a job whose deciding
            // evidence quotes that error has it (lacking() leaves the fix out of every other oom job's advice)
            case "raised_java_heap" -> io.slurmwise.classify.OwnMemoryError.javaHeap(logLines) ? javaHeap() : Optional.empty();
            case "workflow_task" -> io.slurmwise.classify.WorkflowTask.task(logLines).map(t -> "`" + t + "`");
            case "oversized_alloc" -> oversizedAllocation().map(a -> "the program asked for "
                    + io.slurmwise.classify.OwnMemoryError.describe(a) + " at once and a node of partition "
                    + partition().get().name() + " has " + partition().get().memoryPerNode());
            // what the time patch asks for when the logs show no progress: twice the limit the job reached (fitting
            // caps it at the MaxTime; the patch's own value replaces it where there is a patch)
            case "more_time" -> timeLimit().filter(t -> !t.isZero()).map(t -> SlurmTime.format(t.multipliedBy(2)));
            case "shorter_time" -> timeLimit().filter(t -> t.toMinutes() >= 2)
                    .map(t -> SlurmTime.format(Duration.ofMinutes(t.toMinutes() / 2)));
            case "step_timeout" -> timeLimit().filter(t -> t.toMinutes() >= 2).map(JobAdviceFacts::stepTimeout);
            case "more_nodes" -> moreNodes();
            case "shard_gpus" -> shardGpus();
            case "work_dir" -> Optional.ofNullable(job.workDir());
            case "bigger_gpu_partitions" -> biggerGpuPartitions().map(l -> l.isEmpty() ? "none on this cluster"
                    : String.join(", ", l));
            case "more_mem_partition" -> moreMemoryPartition().map(p -> "`#SBATCH --partition=" + p.name() + "` ("
                    + p.memoryPerNode() + " per node, MaxTime " + p.maxTime() + ")");
            default -> Optional.empty();
        };
    }

    /**
     * The placeholders naming a fact this job lacks, so a piece naming one is not about it: a fact of the run
     * ({@link Placeholders#OF_THE_RUN}) for a job that never started (1042, cancelled while pending, was told to put a
     * timeout around its steps), the id of a job still queued ({@code scontrol release}) for one that left the queue
     * (the real lab's NODE_FAIL job was told to release itself), and the uid of whoever else cancelled it for a job its
     * own user cancelled (1042 was told "if an admin cancelled it"; an outside audit). The advice for a program's own
     * memory error or a workflow's task ({@code oversized_alloc}, {@code raised_java_heap}, {@code workflow_task}) is
     * lacking unless the deciding evidence quotes such an error ({@link #withLogLines}).
     */
    public java.util.Set<String> lacking() {
        java.util.Set<String> out = new java.util.HashSet<>();
        if (!started()) {
            out.addAll(Placeholders.OF_THE_RUN);
        }
        if (job.state() != io.slurmwise.job.JobState.PENDING) {
            out.add("queued_job_id");
        }
        if (cancelledByItsUser()) {
            out.add("canceller_uid");
        }
        // more time for a job its own limit did not end (a step's srun --time ended it 2 minutes into 2 hours, and
        // the fix beside the time fixer's "more --time would not help" said --time=04:00:00; an outside audit)
        if (job.endedBeforeItsLimit()) {
            out.add("more_time");
        }
        // fewer tasks per node over more nodes, or fewer ranks, for a job of one process on one node: a script with no
        // MPI and no second task has none to spread (a single-process Java and numpy failure were told to; an outside
        // audit)
        if (script() != null && !script().isBlank() && job.nodes() <= 1 && !FixFitter.runsMpi(script())) {
            out.add("more_nodes");
        }
        // its --deadline ended it, not its --time: "more time" is no answer (the deadline kind's note says what is),
        // should a time-limit note be shown beside it; nor for a TIMEOUT whose script's --time slurmctld cut to end by
        // the deadline (a longer one is cut the same way, as the time patch says)
        if (job.state() == io.slurmwise.job.JobState.DEADLINE || timeCutToDeadline()) {
            out.add("more_time");
        }
        // a program's single allocation larger than a node: no --mem holds it (2021's numpy array of 1.16 TiB, peak 2G of
        // 64G, was told to ask for 96G; an outside audit); without such an allocation the piece that says so is not its
        boolean oversized = oversizedAllocation().isPresent();
        if (!oversized) {
            out.add("oversized_alloc");
        }
        out.addAll(lackingInLog(logLines));
        // a limit the job's --mem is not: the JVM's own heap (-Xmx) filled while the job's peak stayed below its limit
        // (2020's -Xmx8g under --mem=64G, peak 8.58G), or a task a workflow ran as a job of its own while the head job
        // stayed below its limit (2019's Nextflow head, 1.2G of 4G): more --mem for this job is no answer
        boolean belowLimit = MemoryAdvice.peakBelowLimit(job);
        boolean javaHeap = io.slurmwise.classify.OwnMemoryError.javaHeap(logLines) && belowLimit;
        boolean childTask = io.slurmwise.classify.WorkflowTask.in(logLines) && belowLimit;
        if (oversized || javaHeap || childTask) {
            out.addAll(List.of("suggested_mem", "suggested_mem_per_cpu", "tight_mem", "tight_mem_per_cpu"));
        }
        return out;
    }

    /** Whether slurmctld cut the script's {@code --time} to end by the job's {@code --deadline} (false without a script). */
    private boolean timeCutToDeadline() {
        return reading != null && reading.script().option("time").flatMap(o -> SlurmTime.parseDuration(o.value()))
                .map(job::timeLimitCutToDeadline).orElse(false);
    }

    /**
     * The placeholders whose advice needs an error the deciding log lines do not quote, with or without a job record: the
     * fixes for the JVM's own heap, a workflow's task and a single allocation are advice for a job whose deciding
     * evidence quotes such an error, not for every oom job (shown to all, they filled the explainer's budget for fixes
     * and 1001's prompt lost its "What to check" section, the revert of ece2ea9; a log read without a job got all nine).
     * Whether an allocation is more than a node has needs the record's partition: {@link #lacking()} asks that too.
     */
    public static java.util.Set<String> lackingInLog(List<String> logLines) {
        java.util.Set<String> out = new java.util.HashSet<>();
        if (!io.slurmwise.classify.OwnMemoryError.javaHeap(logLines)) {
            out.add("raised_java_heap");
        }
        if (!io.slurmwise.classify.WorkflowTask.in(logLines)) {
            out.add("workflow_task");
        }
        if (io.slurmwise.classify.OwnMemoryError.requested(logLines).isEmpty()) {
            out.add("oversized_alloc");
        }
        return out;
    }

    /**
     * The placeholders whose advice the job already follows, so a piece naming one has nothing to tell it: a
     * partition with more memory per node when the job's partition has the most there is, or its nodes hold the
     * memory the fix asks for.
     */
    public java.util.Set<String> followed() {
        Optional<Partition> p = partition().filter(x -> x.memoryPerNode() != null);
        boolean largest = p.isPresent() && moreMemoryPartition().isEmpty();
        // nor to one whose nodes already hold what the memory fix asks (1001's 48G on a 250G node was told to move, and
        // moving would have left its a100 request on an H100 partition; an outside audit)
        boolean fits = p.isPresent() && MemoryAdvice.perNode(job)
                .map(m -> m.bytes() <= p.get().memoryPerNode().bytes()).orElse(false);
        java.util.Set<String> out = new java.util.HashSet<>();
        if (largest || fits) {
            out.add("more_mem_partition");
        }
        // more memory "if memory was tight" for a job whose measured peak stayed below 90% of its limit (1023's Bus
        // error, peak 13.7G of 96G, was told --mem=144G; an outside audit)
        if (MemoryAdvice.peakBelowLimit(job)) {
            out.add("tight_mem");
            out.add("tight_mem_per_cpu");
        }
        // a GPU with more memory than the job's, on a cluster that has none (1008 ran out on 94 GB H100s and was sent
        // to the 40/80 GB A100s as "more memory"; an outside audit)
        if (biggerGpuPartitions().map(List::isEmpty).orElse(false)) {
            out.add("bigger_gpu_partitions");
        }
        // a smaller batch for a script that already passes a batch of one (nothing left to halve)
        if (batchSize().map(b -> b.value() <= 1).orElse(false)) {
            out.add("batch_example");
        }
        return out;
    }

    /**
     * The GPU partitions (up) with a GPU type of more memory per GPU than the job's (GpuModels), each with its sizes,
     * and those whose type's memory is not known here; empty when the job's memory per GPU is not known. The job's is
     * what its own CUDA error reported ({@code gpuGiB}), else the largest board of its type; another type counts only
     * when its smallest board is larger (1004's 40 GB A100s: the H100s are larger; an 80 GB A100 job is not sent to
     * H100s that may be 80 GB too, as "up to 94 GB" had; an outside audit).
     */
    private Optional<List<String>> biggerGpuPartitions() {
        // a board's label is its memory in GiB, of which the driver keeps about one: 79.11 GiB reported is an 80 GB board
        java.util.OptionalInt mine = gpuGiB != null ? java.util.OptionalInt.of((int) Math.ceil(gpuGiB))
                : gpuModel().flatMap(m -> io.slurmwise.job.GpuModels.bundled().of(m)).map(r -> java.util.OptionalInt.of(r.largestGb()))
                .orElse(java.util.OptionalInt.empty());
        if (mine.isEmpty()) {
            return Optional.empty();
        }
        List<String> out = new java.util.ArrayList<>();
        for (Partition p : partitions) {
            if (!p.up() || !p.hasGpus()) {
                continue;
            }
            for (String type : p.gpusByType().keySet()) {
                Optional<io.slurmwise.job.GpuModels.GpuModel> gb = type.isEmpty() ? Optional.empty()
                        : io.slurmwise.job.GpuModels.bundled().of(type);
                if (!type.isEmpty() && (gb.isEmpty() || gb.get().smallestGb() > mine.getAsInt())) {
                    out.add(p.name() + " (" + p.gres() + ", " + (gb.isEmpty() ? "memory not known here"
                            : gb.get().memory() + " per GPU") + ")");
                    break;
                }
            }
        }
        return Optional.of(out);
    }

    /** The partition with more memory per node than the job's (with GPUs when it uses them), the least that is more. */
    private Optional<Partition> moreMemoryPartition() {
        return partition().filter(p -> p.memoryPerNode() != null).flatMap(p -> search()
                .holding(new DataSize(p.memoryPerNode().bytes() + 1)).withGpus(usesGpus())
                .best(PartitionSearch.Rank.LEAST_MEMORY));
    }

    /** The batch size the job's script passes to its program, when the script is at hand and passes one. */
    private Optional<io.slurmwise.patch.BatchScript.ProgramOption> batchSize() {
        return reading == null ? Optional.empty() : reading.batchSize();
    }

    /**
     * The batch-size example of the GPU-memory fix made of the script's own option: its {@code --batch-size 8} halved,
     * with two steps of gradient accumulation (the note's generic "16 becomes 8" beside a script passing 8 read as
     * "go from 16 to the 8 you have"; an outside audit). An odd size is halved up, so the update stays about as large.
     */
    private Optional<String> batchExample() {
        return batchSize().filter(b -> b.value() >= 2).map(b -> {
            int half = (b.value() + 1) / 2;
            return "the script's `" + b + "` becomes `" + b.with(half) + "` with 2 steps of gradient accumulation: half"
                    + " the batch per step, " + (2 * half == b.value() ? "the same" : "about the same (" + 2 * half + ")")
                    + " per update";
        });
    }

    /**
     * The single allocation the program's own error asked for ({@link io.slurmwise.classify.OwnMemoryError}), when it is
     * more than one node of the job's partition has.
     */
    private Optional<Long> oversizedAllocation() {
        java.util.OptionalLong asked = io.slurmwise.classify.OwnMemoryError.requested(logLines);
        Optional<DataSize> node = partition().map(Partition::memoryPerNode);
        return asked.isPresent() && node.isPresent() && asked.getAsLong() > node.get().bytes()
                ? Optional.of(asked.getAsLong()) : Optional.empty();
    }

    /** A Java heap ({@code -Xmx}) that leaves a fifth of the job's memory per node to the JVM and the rest. */
    private Optional<String> javaHeap() {
        return job.memoryPerNode().filter(m -> m.bytes() >= 512 * DataSize.MIB).map(m -> {
            long heap = MemoryAdvice.roundDown((long) (m.bytes() * 0.8));
            return heap % DataSize.GIB == 0 ? heap / DataSize.GIB + "g" : heap / DataSize.MIB + "m";
        });
    }

    /**
     * A {@code timeout} for the work inside the job that ends it before the job's own limit, in GNU timeout's units:
     * 90% of the limit, in whole hours from two hours up ({@code 21h} for a day), else in minutes.
     */
    static String stepTimeout(Duration limit) {
        long minutes = limit.toMinutes() * 9 / 10;
        return minutes >= 120 ? minutes / 60 + "h" : Math.max(1, minutes) + "m";
    }

    /** "more nodes" with twice the job's nodes, within its partition; words that say so when the partition has no more. */
    private Optional<String> moreNodes() {
        int had = job.nodes();
        int total = partition().map(Partition::nodes).orElse(0);
        if (total > 0 && total <= had) {
            return Optional.of("more nodes than this partition's " + total + ", on another partition");
        }
        int more = total > 0 ? Math.min(total, 2 * had) : 2 * had;
        return Optional.of("more nodes (`#SBATCH --nodes=" + more + "`)");
    }

    /** The GPUs of one node of the job's partition, from its gres ({@code gpu:h100:8}); 0 when it does not say. */
    public int nodeGpus() {
        return partition().map(Partition::gpusPerNode).orElse(0);
    }

    /** The request that spreads a model over more GPUs than the job had: all of a node's, or more nodes of them. */
    private Optional<String> shardGpus() {
        int node = nodeGpus();
        int had = job.gpus() / Math.max(1, job.nodes());
        if (job.gpus() <= 0 || node <= 0) {
            return Optional.empty();
        }
        if (node > had) {
            return Optional.of("`#SBATCH --gpus-per-node=" + node + "`");
        }
        return moreNodes().map(n -> n + " with all " + node + " GPUs of each");
    }

    private String partitionsWhere(java.util.function.Predicate<Partition> p) {
        List<String> names = partitions.stream().filter(Partition::up).filter(p).map(Partition::describe).toList();
        return names.isEmpty() ? "none on this cluster" : String.join(", ", names);
    }
}
