package io.slurmwise.job;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything slurmwise knows about one job, as SLURM's accounting recorded it. Values SLURM did not record
 * are {@code null} (unknown is not zero); the {@code opt*} methods wrap them.
 *
 * <pre>{@code
 * JobRecord job = JobRecord.builder(JobId.parse("1001")).name("train").status(JobStatus.parse("OUT_OF_MEMORY"))
 *         .exitCode(ExitCode.parse("0:125")).build();
 * }</pre>
 *
 * @param elapsed       how long the job ran: sacct's Elapsed, or from Start to End when accounting left Elapsed empty
 *                      or unreadable ({@code INVALID})
 * @param maxRss        peak resident memory over the job's steps (never on sacct's allocation row)
 * @param exitCodeView  exit code as scontrol/jobcomp print it ({@code 139:0}) when known, next to sacct's
 * @param pendingReason why a pending job waits, from squeue/scontrol (sacct says None)
 * @param cluster       the cluster that ran the job, when accounting says (sacct's Cluster column, {@code -M})
 * @param consumedEnergyJoules energy SLURM measured, only where the site enabled an energy plugin
 * @param reqTres       the requested TRES (sacct's ReqTRES), which a pending job has and AllocTRES not yet
 * @param allocNodes    the node count sacct's NNodes gave (0 when the export has no such column)
 * @param failedStep    the first step of it that failed (sacct's step rows), null when none did or no step was read
 * @param deadline      its {@code --deadline}, from scontrol while slurmctld remembers the job (sacct has no such field)
 * @param timeMin       its {@code --time-min}, likewise: with a deadline, slurmctld cuts TimeLimit to the time left
 *                      before it, down to this
 */
public record JobRecord(
        JobId id,
        String name,
        String user,
        String account,
        String partition,
        String qos,
        JobStatus status,
        ExitCode exitCode,
        ExitCode exitCodeView,
        LocalDateTime submit,
        LocalDateTime start,
        LocalDateTime end,
        Duration elapsed,
        TimeLimit timeLimit,
        MemoryRequest reqMem,
        DataSize maxRss,
        int allocCpus,
        Tres allocTres,
        String nodeList,
        Duration totalCpu,
        Long consumedEnergyJoules,
        String workDir,
        String stdoutPath,
        String stderrPath,
        String pendingReason,
        String cluster,
        Tres reqTres,
        int allocNodes,
        FailedStep failedStep,
        LocalDateTime deadline,
        Duration timeMin) {

    public JobRecord {
        Objects.requireNonNull(id, "id");
        status = status == null ? JobStatus.of(JobState.UNKNOWN) : status;
        timeLimit = timeLimit == null ? TimeLimit.UNKNOWN : timeLimit;
        allocTres = allocTres == null ? Tres.EMPTY : allocTres;
        reqTres = reqTres == null ? Tres.EMPTY : reqTres;
        name = name == null ? "" : name;
        if (elapsed == null && start != null && end != null) {
            // sacct prints wall-clock times of the zone it runs in: across a clock change (a night in October)
            // the hours between them are not the hours run
            java.time.ZoneId zone = java.time.ZoneId.systemDefault();
            Duration ran = Duration.between(start.atZone(zone), end.atZone(zone));
            elapsed = ran.isNegative() ? Duration.ZERO : ran;
        }
    }

    public static Builder builder(JobId id) {
        return new Builder(id);
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    public JobState state() {
        return status.state();
    }

    /** What became of the job: the one place that decides (see {@link Outcome#of(JobRecord)}). */
    public Outcome outcome() {
        return Outcome.of(this);
    }

    /**
     * The step that failed in a job SLURM calls {@code COMPLETED} (its batch script went on and exited 0, as a script
     * without {@code set -e} does after its {@code srun} step ran out of memory): what makes the job a failure
     * ({@link Outcome#of(JobRecord)}) and what it is classified from. Empty for any other job: a failed job's own state
     * and exit code already say how it ended.
     */
    public Optional<FailedStep> failedStepOfCompleted() {
        return failedStep != null && state() == JobState.COMPLETED ? Optional.of(failedStep) : Optional.empty();
    }

    /** Allocated CPUs: AllocCPUS (or its synonym NCPUS), else the TRES cpu count; 0 when nothing says. */
    public int cpus() {
        return allocCpus > 0 ? allocCpus : allocTres.cpus() > 0 ? allocTres.cpus() : reqTres.cpus();
    }

    /**
     * GPUs: the allocated ones (AllocTRES); for a job that has no allocation yet (pending, or cancelled before it
     * started) the requested ones (ReqTRES), as {@link #cpus()} does, so a pending GPU job is never shown as a CPU job.
     */
    public int gpus() {
        return allocated() ? allocTres.gpus() : reqTres.gpus();
    }

    /** {@link #gpus()} as whole GPUs, a MIG slice its share ({@link Tres#gpuEquivalents()}). */
    public double gpuEquivalents() {
        return (allocated() ? allocTres : reqTres).gpuEquivalents();
    }

    /** The GPU model of a typed GRES ({@code gres/gpu:a100=1} -> {@code a100}), from the same TRES as {@link #gpus()}. */
    public Optional<String> gpuModel() {
        return (allocated() ? allocTres : reqTres).gpuModel();
    }

    /** GPUs by model (typed GRES), from the same TRES as {@link #gpus()}: a job may hold two models. */
    public java.util.Map<String, Integer> gpusByModel() {
        return (allocated() ? allocTres : reqTres).gpusByModel();
    }

    private boolean allocated() {
        return !allocTres.values().isEmpty();
    }

    /** Whether sacct says the job never got a node: NodeList {@code None assigned}. */
    public boolean noNodeAssigned() {
        return noNodeAssigned(nodeList);
    }

    /**
     * Whether the record says the job never ran: no node was assigned ({@code None assigned}), or it has no start but
     * an end or an elapsed time of zero (cancelled or refused while queued, or still queued). A record that does not
     * say (no node list, start or elapsed time) is taken to have run.
     */
    public boolean neverStarted() {
        return noNodeAssigned() || (start == null && (end != null || (elapsed != null && elapsed.isZero())));
    }

    /**
     * Whether the job ended well before its own time limit, so that limit did not end it: its elapsed time more than
     * a minute (or 2% of the limit) short of it. SLURM checks a job's limit about every 30 seconds; a job that stopped
     * earlier was ended by something else (a step's {@code srun --time}, a {@code timeout}, a failure). False when
     * either is unknown.
     */
    public boolean endedBeforeItsLimit() {
        java.util.Optional<java.time.Duration> limit = timeLimit == null ? java.util.Optional.empty() : timeLimit.limit();
        if (elapsed == null || limit.isEmpty()) {
            return false;
        }
        java.time.Duration twoPercent = limit.get().dividedBy(50);
        java.time.Duration slack = twoPercent.compareTo(java.time.Duration.ofMinutes(1)) > 0 ? twoPercent
                : java.time.Duration.ofMinutes(1);
        return elapsed.plus(slack).compareTo(limit.get()) < 0;
    }

    /** Whether a NodeList says no node was assigned ({@code None assigned}, as sacct and squeue print it). */
    public static boolean noNodeAssigned(String nodeList) {
        return nodeList != null && nodeList.strip().equalsIgnoreCase("None assigned");
    }

    /** Nodes: the TRES node count, else NNodes; at least 1. */
    public int nodes() {
        int n = allocTres.nodes() > 0 ? allocTres.nodes() : allocNodes > 0 ? allocNodes : reqTres.nodes();
        return Math.max(1, n);
    }

    /** The CPUs one node of the job holds: its CPUs shared by its nodes, rounded up (as slurmctld must place them). */
    public int cpusPerNode() {
        return (cpus() + nodes() - 1) / nodes();
    }

    /** The GPUs one node of the job holds: its GPUs shared by its nodes, rounded up. */
    public int gpusPerNode() {
        return (gpus() + nodes() - 1) / nodes();
    }

    /**
     * The memory of the whole job: the TRES {@code mem=} (AllocTRES, else ReqTRES: always the job's total), else
     * ReqMem scaled by its unit ({@link MemoryRequest#total}). Zero means "no limit given" and is skipped.
     */
    public Optional<DataSize> memoryLimit() {
        Optional<DataSize> tres = allocTres.memory().filter(d -> d.bytes() > 0);
        if (tres.isEmpty()) {
            tres = reqTres.memory().filter(d -> d.bytes() > 0);
        }
        if (tres.isPresent()) {
            return tres;
        }
        if (reqMem != null && reqMem.size().bytes() > 0) {
            return Optional.of(reqMem.total(cpus(), gpus(), nodes()));
        }
        return Optional.empty();
    }

    /**
     * The memory one node of the job may use (the cgroup limit its tasks meet): the job's total shared by its nodes.
     * This, not the total, is what MaxRSS (the peak of one task) is measured against: a 3-node job of 192G peaking
     * at 60G is at its 64G-per-node limit, not at a third of its memory.
     */
    public Optional<DataSize> memoryPerNode() {
        int n = nodes();
        return memoryLimit().map(total -> n == 1 ? total : new DataSize(total.bytes() / n));
    }

    /**
     * The limit the peak is set against, for people, in the request's own unit first when it was per CPU or per GPU
     * of several (a ReqMem with SLURM's old {@code c} suffix): "8G", "64G per node, 192G in all", "4G per CPU (32G in
     * all)", "1G per CPU: 128G per node, 512G in all". The panel, the explanation and the notes all say this one
     * limit (an outside audit found 1024's "1023.6M of 512G" beside "128G per node" and "1G per CPU").
     */
    public Optional<String> memoryLimitText() {
        return memoryPerNode().map(per -> {
            String node = nodes() == 1 ? memoryLimit().orElseThrow().toString()
                    : per + " per node, " + memoryLimit().orElseThrow() + " in all";
            boolean shared = reqMem != null && (reqMem.per() == MemoryRequest.Per.CPU && cpus() > 1
                    || reqMem.per() == MemoryRequest.Per.GPU && gpus() > 1);
            if (!shared) {
                return node;
            }
            return reqMem + (nodes() == 1 ? " (" + node + " in all)" : ": " + node);
        });
    }

    /**
     * The measured peak, for people: MaxRSS is the peak of the largest task, which a job on several nodes says
     * ("1023.6M (largest task)": set against a node's 128G it is one of many tasks, not the node's use).
     */
    public Optional<String> memoryPeakText() {
        return optMaxRss().map(p -> nodes() > 1 ? p + " (largest task)" : p.toString());
    }

    /**
     * Whether slurmctld cut the job's time limit to end by its {@code --deadline}: the limit it ran with ends by the
     * deadline, while {@code asked} (its script's {@code --time}) would have run past it. With {@code --time-min},
     * slurmctld gives a job that starts close to its deadline the time left, in whole minutes (the real lab's
     * deadline_cut: 10 minutes asked, 107 s left, TimeLimit=00:01:00 TimeMin=00:01:00).
     */
    public boolean timeLimitCutToDeadline(Duration asked) {
        Optional<Duration> ran = timeLimit.limit();
        if (deadline == null || start == null || asked == null || ran.isEmpty() || ran.get().compareTo(asked) >= 0) {
            return false;
        }
        return !start.plus(ran.get()).isAfter(deadline) && start.plus(asked).isAfter(deadline);
    }

    public Optional<DataSize> optMaxRss() {
        return Optional.ofNullable(maxRss);
    }

    public Optional<Duration> optElapsed() {
        return Optional.ofNullable(elapsed);
    }

    public Optional<ExitCode> optExitCode() {
        return Optional.ofNullable(exitCode);
    }

    public Optional<String> optPendingReason() {
        return Optional.ofNullable(pendingReason).filter(r -> !r.isBlank() && !r.equals("None"));
    }

    /** Mutable builder; every setter accepts null for "unknown". */
    public static final class Builder {
        private JobId id;
        private String name;
        private String user;
        private String account;
        private String partition;
        private String qos;
        private JobStatus status;
        private ExitCode exitCode;
        private ExitCode exitCodeView;
        private LocalDateTime submit;
        private LocalDateTime start;
        private LocalDateTime end;
        private Duration elapsed;
        private TimeLimit timeLimit;
        private MemoryRequest reqMem;
        private DataSize maxRss;
        private int allocCpus;
        private Tres allocTres;
        private String nodeList;
        private Duration totalCpu;
        private Long consumedEnergyJoules;
        private String workDir;
        private String stdoutPath;
        private String stderrPath;
        private String pendingReason;
        private String cluster;
        private Tres reqTres;
        private int allocNodes;
        private FailedStep failedStep;
        private LocalDateTime deadline;
        private Duration timeMin;

        private Builder(JobId id) {
            this.id = id;
        }

        private Builder(JobRecord r) {
            id = r.id; name = r.name; user = r.user; account = r.account; partition = r.partition; qos = r.qos;
            status = r.status; exitCode = r.exitCode; exitCodeView = r.exitCodeView; submit = r.submit;
            start = r.start; end = r.end; elapsed = r.elapsed; timeLimit = r.timeLimit; reqMem = r.reqMem;
            maxRss = r.maxRss; allocCpus = r.allocCpus; allocTres = r.allocTres; nodeList = r.nodeList;
            totalCpu = r.totalCpu; consumedEnergyJoules = r.consumedEnergyJoules; workDir = r.workDir;
            stdoutPath = r.stdoutPath; stderrPath = r.stderrPath; pendingReason = r.pendingReason;
            cluster = r.cluster; reqTres = r.reqTres; allocNodes = r.allocNodes; failedStep = r.failedStep;
            deadline = r.deadline; timeMin = r.timeMin;
        }

        public Builder id(JobId v) { id = v; return this; }
        public Builder name(String v) { name = v; return this; }
        public Builder user(String v) { user = v; return this; }
        public Builder account(String v) { account = v; return this; }
        public Builder partition(String v) { partition = v; return this; }
        public Builder qos(String v) { qos = v; return this; }
        public Builder status(JobStatus v) { status = v; return this; }
        public Builder exitCode(ExitCode v) { exitCode = v; return this; }
        public Builder exitCodeView(ExitCode v) { exitCodeView = v; return this; }
        public Builder submit(LocalDateTime v) { submit = v; return this; }
        public Builder start(LocalDateTime v) { start = v; return this; }
        public Builder end(LocalDateTime v) { end = v; return this; }
        public Builder elapsed(Duration v) { elapsed = v; return this; }
        public Builder timeLimit(TimeLimit v) { timeLimit = v; return this; }
        public Builder reqMem(MemoryRequest v) { reqMem = v; return this; }
        public Builder maxRss(DataSize v) { maxRss = v; return this; }
        public Builder allocCpus(int v) { allocCpus = v; return this; }
        public Builder allocTres(Tres v) { allocTres = v; return this; }
        public Builder nodeList(String v) { nodeList = v; return this; }
        public Builder totalCpu(Duration v) { totalCpu = v; return this; }
        public Builder consumedEnergyJoules(Long v) { consumedEnergyJoules = v; return this; }
        public Builder workDir(String v) { workDir = v; return this; }
        public Builder stdoutPath(String v) { stdoutPath = v; return this; }
        public Builder stderrPath(String v) { stderrPath = v; return this; }
        public Builder pendingReason(String v) { pendingReason = v; return this; }
        public Builder cluster(String v) { cluster = v; return this; }
        public Builder reqTres(Tres v) { reqTres = v; return this; }
        public Builder allocNodes(int v) { allocNodes = v; return this; }
        public Builder failedStep(FailedStep v) { failedStep = v; return this; }
        public Builder deadline(LocalDateTime v) { deadline = v; return this; }
        public Builder timeMin(Duration v) { timeMin = v; return this; }

        public DataSize maxRss() { return maxRss; }
        public FailedStep failedStep() { return failedStep; }

        public JobRecord build() {
            return new JobRecord(id, name, user, account, partition, qos, status, exitCode, exitCodeView, submit,
                    start, end, elapsed, timeLimit, reqMem, maxRss, allocCpus, allocTres, nodeList, totalCpu,
                    consumedEnergyJoules, workDir, stdoutPath, stderrPath, pendingReason, cluster, reqTres, allocNodes,
                    failedStep, deadline, timeMin);
        }
    }
}
