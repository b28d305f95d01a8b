package io.slurmwise.diagnose;

import io.slurmwise.backend.BackendException;
import io.slurmwise.backend.JobLookup;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.Outcome;
import io.slurmwise.job.Partition;
import io.slurmwise.job.Qos;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.job.UserNames;
import io.slurmwise.patch.Patch;
import io.slurmwise.patch.PatchSuggester;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The diagnosis of one job, step by step. This class owns the order of the steps and the one branch:
 *
 * <pre>
 * job id -> record        (not found: NotFound)
 *        -> status only   (running, pending with its reason, completed)
 *        -> log tails -> finding (rules) -> fix notes (retriever) -> explanation (explainer)
 *        -> sbatch patch (a unified diff of the batch script, never applied) -> Failed
 * </pre>
 *
 * Each step is a plain function of what the previous ones produced; nothing here touches the cluster except
 * through the read-only {@link SlurmBackend}.
 */
public final class DiagnosisWorkflow {

    private final SlurmBackend backend;
    private final Classifier classifier;
    private final Retriever retriever;
    private final Explainer explainer;
    private final PatchSuggester patcher;
    private final FixFitter fitter;
    /** Notes retrieved beyond the ones shown, to stand in for notes that fitting to the job leaves out. */
    private static final int SPARE_FIXES = 3;
    private final PendingReasons pendingReasons;
    private final PendingNotices pendingNotices;
    private final WaitingOn waitingOn;
    private final int tailLines;
    private final int fixCount;

    public DiagnosisWorkflow(SlurmBackend backend, Classifier classifier, Retriever retriever, Explainer explainer,
                             int tailLines, int fixCount) {
        this(backend, classifier, retriever, explainer, new PatchSuggester(classifier.taxonomy()), tailLines, fixCount);
    }

    public DiagnosisWorkflow(SlurmBackend backend, Classifier classifier, Retriever retriever, Explainer explainer,
                             PatchSuggester patcher, int tailLines, int fixCount) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.patcher = Objects.requireNonNull(patcher, "patcher");
        this.classifier = Objects.requireNonNull(classifier, "classifier");
        this.retriever = Objects.requireNonNull(retriever, "retriever");
        this.explainer = Objects.requireNonNull(explainer, "explainer");
        this.pendingReasons = PendingReasons.bundled();
        this.pendingNotices = new PendingNotices(backend);
        this.waitingOn = new WaitingOn(backend);
        this.fitter = new FixFitter(classifier.taxonomy());
        this.tailLines = tailLines;
        this.fixCount = fixCount;
    }

    public Diagnosis diagnose(JobId id) {
        List<String> notices = new ArrayList<>();
        return backend.lookup(id).fold(
                found -> {
                    // 3000088_50 answered by 3000088_[50-99]: say the task waits in that row, first in the summary
                    // and among the pending notes (what the CLI's panel shows)
                    Optional<String> range = JobLookup.pendingRangeNote(id, found.job());
                    range.ifPresent(notices::add);
                    Diagnosis d = diagnose(withRuns(found, notices), true, notices);
                    return range.isPresent() && d instanceof Diagnosis.StatusOnly so && so.pending() != null
                            ? new Diagnosis.StatusOnly(so.job(), so.summary(), withNote(so.pending(), range.get())) : d;
                },
                array -> diagnose(pickArrayTask(array, notices), true, notices),
                missing -> new Diagnosis.NotFound(id, "job " + id + " is not known to " + backend.name()
                        + " accounting; check the id with `sacct -j " + id + "` (on a site of several clusters, `sacct"
                        + " -M <cluster> -j " + id + "`): accounting may also have purged an old job"));
    }

    /**
     * Diagnoses a job record already at hand (no accounting lookup).
     *
     * @param suggestPatch false skips the patch step, and with it reading the batch script: for watchers that must
     *                     stay gentle on a shared slurmdbd (the partitions, from slurmctld, still fit the advice)
     */
    public Diagnosis diagnose(JobRecord job, boolean suggestPatch) {
        return diagnose(job, suggestPatch, new ArrayList<>());
    }

    private Diagnosis diagnose(JobRecord job, boolean suggestPatch, List<String> notices) {
        // a job whose batch script went on and exited 0 is COMPLETED while a step of it failed: diagnosed from that
        // step (the real lab: an srun step killed for memory, and one whose program failed, read "nothing to
        // diagnose"); its record stays as SLURM wrote it
        io.slurmwise.job.FailedStep step = job.failedStepOfCompleted().orElse(null);
        if (hasNoFailure(job)) {
            Diagnosis.StatusOnly so = statusOnly(job, suggestPatch, notices);
            if (!notices.isEmpty()) {
                return new Diagnosis.StatusOnly(so.job(), notices.get(0) + ". " + so.summary(), so.pending());
            }
            return so;
        }
        // only a failure is retrieved for: its model loads while the logs are read and the rules run (a status-only
        // job started none, so its process never exits in the middle of loading one: an outside audit's exit 134)
        retriever.prewarm();
        List<LogTail> logs = readLogs(job, notices);
        JobFacts facts = JobFacts.of(job); // a failed step's state and exit code, where it decided
        if (step != null) {
            notices.add("the job COMPLETED (its batch script exited 0), but " + step.describe()
                    + ": diagnosed from that step");
        }
        Finding finding = classifier.classify(facts, logs);
        // the partitions fit the advice to the job's limits, patch or not (sinfo asks slurmctld, not slurmdbd)
        List<Partition> partitions = partitions(notices);
        Optional<String> script = suggestPatch ? batchScript(job, notices) : Optional.empty();
        Supplier<List<Qos>> qos = qosOnce(notices);
        Supplier<List<io.slurmwise.job.Association>> associations = associationsOnce(job);
        Supplier<Optional<java.util.Set<String>>> allowedQos = allowedQos(job, associations);
        Patch patch = suggestPatch ? patcher.suggest(job, finding, logs, script, partitions, qos, allowedQos)
                : new Patch.NotSuggested("no patch was asked for (it reads the batch script); run `slurmwise diagnose "
                + job.id() + "` for it", List.of(), List.of());
        // what a refused request asked beyond its partition decides a refusal: evidence ahead of "never got a node",
        // so the panel's first lines and the explanation say it; beside another kind it stays a note
        Optional<String> refused = refusedRequest(job, partitions, patch);
        if (refused.isPresent() && classifier.taxonomy().isA(finding.kindId(), REFUSED)) {
            finding = finding.withCheck(refused.get(), REFUSED_WEIGHT);
        } else {
            refused.ifPresent(notices::add);
        }
        List<FixNote> fixes = fittedFixes(finding, job, partitions, qos, allowedQos, patch, script);
        pendingNotices.spentAllocation(job, associations).ifPresent(notices::add);
        Explanation explanation = explainer.explain(job, finding, fixes, patch);
        String method = "rules" + (retriever instanceof NoteLookupRetriever ? "" : " + " + retriever.name())
                + ("template".equals(explanation.source()) ? "" : " + " + explanation.source());
        return new Diagnosis.Failed(job, finding, logs, fixes, explanation, method, notices, patch);
    }

    /** The job's batch script, best effort: without it the patch says why and the fixes are not checked against it. */
    private Optional<String> batchScript(JobRecord job, List<String> notices) {
        try {
            return backend.batchScript(job);
        } catch (BackendException e) {
            // slurmctld gives a job's script only to its user and admins: said as that, not as a command that failed
            // (the real lab: another user's job read "`scontrol write batch_script 206 -` failed with exit code 0: job
            // script retrieval failed: Invalid user id")
            String you = System.getProperty("user.name", "");
            boolean theirs = e.getMessage() != null && e.getMessage().contains("Invalid user id") && job.user() != null
                    && !job.user().equals(you);
            notices.add("batch script: " + (theirs ? "job " + job.id() + " is " + job.user() + "'s, and slurmctld gives a"
                    + " job's script only to its user and admins (`Invalid user id` for " + you + ")" : e.getMessage()));
            return Optional.empty();
        }
    }

    /** The cluster's partitions (their limits fit the fixes and cap the patch), best effort. */
    private List<Partition> partitions(List<String> notices) {
        try {
            return backend.partitions();
        } catch (BackendException e) {
            notices.add("partitions: " + e.getMessage() + " (the --time fix is not capped by a MaxTime)");
            return List.of();
        }
    }

    /**
     * The cluster's QOSes (a job's QOS MaxWall caps the time fix and the time advice), best effort: asked once, and only
     * when a fixer or a piece of advice about time needs them.
     */
    private Supplier<List<Qos>> qosOnce(List<String> notices) {
        return Qos.once(() -> {
            try {
                return backend.qos();
            } catch (BackendException e) {
                notices.add("QOS limits: " + e.getMessage() + " (the --time advice is not checked against the QOS MaxWall)");
                return List.of();
            }
        });
    }

    /**
     * What of a queued job's request its partition or QOS cannot give, from the record (a request given on sbatch's
     * command line is in no script for the patch to read: the real lab's -c 16 on a 2-CPU node; an outside audit):
     * {@code 16 CPUs per node (a cpu node has 2)}, {@code time 00:30:00 (QOS short MaxWall 00:10:00)}; or, waiting on an
     * account's TRES minutes, what sshare says of them.
     */
    private List<String> beyond(JobRecord job, String reason, List<Partition> partitions, Supplier<List<Qos>> qos) {
        Optional<Partition> partition = new JobAdviceFacts(job, partitions).partition();
        List<String> out = new java.util.ArrayList<>(partition.map(p -> p.exceededBy(job)).orElse(List.of()));
        if (reason.startsWith("QOSMaxWall")) {
            // the QOS whose MaxWall caps the time, as the patch reads it (a partition's own QOS before the job's)
            job.timeLimit().limit().ifPresent(t -> Qos.timeCap(qos, Qos.named(qos.get(), job.qos()),
                    partition.orElse(null)).flatMap(q -> q.tooShortFor(t)).ifPresent(out::add));
        }
        if (reason.startsWith("AssocGrp") && reason.contains("Minutes") && job.account() != null) {
            // "used up" to an account that never had any (the real lab's GrpTRESMins=cpu=0; an outside audit)
            try {
                backend.accountUsage(job.account()).flatMap(u -> u.describeSpent(reason)).ifPresent(out::add);
            } catch (BackendException e) {
                // the reason stands without it
            }
        }
        return out;
    }

    /**
     * What of a refused job's request its partition cannot give, from the record, when no patch change says it (the
     * real lab's submissions of 6000M to a 4000M node and of 8 GPUs to a 4-GPU node read only "the job never got a
     * node": a refused job's script is rarely kept, so the patch had nothing to read).
     */
    /** The kind of a request SLURM refused, whose evidence the partition's exceeded limit joins. */
    private static final String REFUSED = "resources_unavailable";
    /** Above the classifier's "the job never got a node" check (0.6): the partition's limit is why it never got one. */
    private static final double REFUSED_WEIGHT = 0.9;

    static Optional<String> refusedRequest(JobRecord job, List<Partition> partitions, Patch patch) {
        if (!job.neverStarted()) {
            return Optional.empty();
        }
        java.util.Map<String, String> sets = new java.util.HashMap<>();
        patch.changes().forEach(c -> sets.putAll(c.sets()));
        if (sets.containsKey("partition")) {
            return Optional.empty(); // the move says why
        }
        Optional<Partition> p = new JobAdviceFacts(job, partitions).partition();
        // each excess the patch or its advice does not already say (any advice at all hid a GPU count it never named)
        List<String> over = p.map(x -> x.exceeded(job)).orElse(java.util.Map.of()).entrySet().stream()
                .filter(e -> sets.keySet().stream().noneMatch(e.getKey()::changedBy)
                        && patch.advice().stream().noneMatch(a -> says(a, p.get(), e.getKey())))
                .map(java.util.Map.Entry::getValue).toList();
        return over.isEmpty() ? Optional.empty() : Optional.of("it asks for more than partition " + p.get().name()
                + " gives, so SLURM refused it: " + String.join(", ", over));
    }

    /** Whether a piece of advice speaks of partition {@code p}'s limit on what {@code ask} asks for. */
    private static boolean says(String advice, Partition p, Partition.Ask ask) {
        String limit = switch (ask) {
            case MEMORY -> String.valueOf(p.memoryPerNode());
            case GPUS -> "GPU";
            case CPUS -> "CPU";
            case TIME -> "MaxTime";
            case NODES -> "nodes";
        };
        return advice.contains(p.name()) && advice.contains(limit);
    }

    /**
     * A reason's meaning with the job's own facts after what it says and before what to do ("it asks for more than
     * any node of the partition has (...): 16 CPUs per node (a cpu node has 2); resubmit with ..."): read as advice
     * when they came last (an outside audit).
     */
    static String withFacts(String meaning, List<String> facts) {
        if (facts.isEmpty()) {
            return meaning;
        }
        int cut = meaning.indexOf("; ");
        String fact = ": " + String.join(", ", facts);
        return cut < 0 ? meaning + fact : meaning.substring(0, cut) + fact + meaning.substring(cut);
    }

    /**
     * The job's user's associations ({@code sacctmgr show assoc}), best effort: asked once, and only when a piece of
     * advice names a QOS or an account; empty (nothing checked) when the backend cannot say.
     */
    private Supplier<List<io.slurmwise.job.Association>> associationsOnce(JobRecord job) {
        return io.slurmwise.backend.Lazy.of(() -> {
            try {
                return job.user() == null ? List.<io.slurmwise.job.Association>of() : backend.associations(job.user());
            } catch (BackendException e) {
                return List.<io.slurmwise.job.Association>of();
            }
        });
    }

    /** The QOSes the job's user may use with its account on its partition, from its associations; unknown when they are. */
    private static Supplier<Optional<java.util.Set<String>>> allowedQos(JobRecord job,
                                                                        Supplier<List<io.slurmwise.job.Association>> rows) {
        String partition = job.partition() == null ? "" : job.partition().split(",")[0];
        return io.slurmwise.backend.Lazy.of(() -> io.slurmwise.job.Association.allowedQos(rows.get(), job.user(),
                job.account(), partition));
    }

    /** A job with several records (a requeued job's runs): the last is diagnosed, and the notice says so. */
    /** {@code p} with {@code note} first among its notes. */
    private static PendingInfo withNote(PendingInfo p, String note) {
        List<String> notes = new ArrayList<>();
        notes.add(note);
        notes.addAll(p.notices());
        return new PendingInfo(p.reason(), p.startability(), p.meaning(), p.finding(), p.fixes(), p.patch(), notes);
    }

    private static JobRecord withRuns(JobLookup.Found found, List<String> notices) {
        List<JobRecord> earlier = found.earlierRuns();
        if (!earlier.isEmpty()) {
            StringBuilder sb = new StringBuilder("job " + found.job().id() + " has " + (earlier.size() + 1)
                    + " records in accounting (requeued runs, as sacct -D lists them): showing the last; earlier: ");
            earlier.forEach(r -> sb.append(r.status()).append(", "));
            sb.setLength(sb.length() - 2);
            notices.add(sb.toString());
        }
        return found.job();
    }

    /**
     * An array id without a task, or a het job's leader id: diagnose its first failed task or component (else its
     * first) and say so, with the count per state.
     */
    private JobRecord pickArrayTask(JobLookup.Array array, List<String> notices) {
        List<JobRecord> tasks = array.tasks();
        boolean het = array.heterogeneous();
        Map<JobState, Long> byState = new TreeMap<>();
        tasks.forEach(t -> byState.merge(t.state(), 1L, Long::sum));
        JobRecord pick = tasks.stream().filter(t -> !hasNoFailure(t) && (t.id().isArrayTask() || het)).findFirst()
                .orElse(tasks.get(0));
        String member = het ? "component" : "task";
        StringBuilder sb = new StringBuilder((het ? "heterogeneous job " : "array job ") + array.arrayJobId() + " has "
                + tasks.size() + " " + member + "s (");
        byState.forEach((st, n) -> sb.append(n).append(' ').append(st).append(", "));
        sb.setLength(sb.length() - 2);
        sb.append("); showing ").append(member).append(' ').append(pick.id()).append(" (slurmwise diagnose <id>")
                .append(het ? "+<offset>" : "_<task>").append(" for another)");
        notices.add(sb.toString());
        // the task's own record, with what the backend adds to single jobs (log paths, pending reason)
        return array.open(pick);
    }

    /** Running, pending, completed and unknown jobs get their status: {@link Outcome#diagnose()} decides. */
    static boolean hasNoFailure(JobRecord job) {
        return !job.outcome().diagnose();
    }

    private Diagnosis.StatusOnly statusOnly(JobRecord job, boolean suggestPatch, List<String> notices) {
        JobState s = job.state();
        if (s == JobState.PENDING) {
            String reason = job.optPendingReason().orElse("None");
            PendingReasons.Meaning m = pendingReasons.explain(reason);
            // the table's commands name "<jobid>": this job's id where the job is known
            // a requeued job's BeginTime is SLURM's hold, not the user's --begin: its own meaning
            String meaning = (suggestPatch ? waitingOn.instead(job, reason) : Optional.<String>empty())
                    .orElseGet(() -> m.text().replace("<jobid>", job.id().toString())
                            + (suggestPatch ? waitingOn.of(job, reason) : ""));
            Finding finding = classifier.classify(JobFacts.of(job), List.of());
            // the DefaultTime notice names the partition's value, so a job that asks no --time reads them
            List<Partition> partitions = finding.isUnknown() && !PendingNotices.asksNoTime(job) ? List.of()
                    : partitions(notices);
            Supplier<List<Qos>> qos = qosOnce(notices);
            Supplier<List<io.slurmwise.job.Association>> associations = associationsOnce(job);
            Supplier<Optional<java.util.Set<String>>> allowedQos = allowedQos(job, associations);
            if (m.startability() == PendingReasons.Startability.NEVER) {
                meaning = withFacts(meaning, beyond(job, reason, partitions, qos));
            }
            // a job that can never start as submitted gets the nearest request that can, as a patch
            boolean patchIt = suggestPatch && m.startability() == PendingReasons.Startability.NEVER && !finding.isUnknown();
            Optional<String> script = patchIt ? batchScript(job, notices) : Optional.empty();
            Patch patch = patchIt ? patcher.suggest(job, finding, List.of(), script, partitions, qos, allowedQos)
                    : null;
            List<FixNote> fixes = finding.isUnknown() ? List.of() : fittedFixes(finding, job, partitions, qos, allowedQos, patch, script);
            if (m.startability() == PendingReasons.Startability.WILL) {
                fixes = FixOrder.forWaiting(fixes); // it needs no change: waiting is the first advice
            }
            String summary = "job " + job.id() + " " + job.name() + " is PENDING (" + reason + "): " + meaning
                    + switch (m.startability()) {
                        case WILL -> "; it will start without changes.";
                        case MAY -> "; it may start if the cluster changes.";
                        case NEVER -> "; it can never start as submitted.";
                        case HELD -> "; it starts once released, with nothing else changed.";
                    };
            List<String> held = pendingNotices.of(job, reason, partitions, associations, notices);
            return new Diagnosis.StatusOnly(job, summary, new PendingInfo(reason, m.startability(), meaning,
                    finding.isUnknown() ? null : finding, fixes, patch, held));
        }
        String time = job.elapsed() == null ? "" : " after " + SlurmTime.format(job.elapsed());
        String summary = switch (s) {
            case COMPLETED -> "job " + job.id() + " " + job.name() + " COMPLETED" + time + " with exit "
                    + (job.exitCode() == null ? "0:0" : job.exitCode()) + "; nothing to diagnose.";
            case UNKNOWN -> "job " + job.id() + " " + job.name() + " has a state slurmwise does not know ("
                    + job.status() + "); nothing to diagnose.";
            default -> "job " + job.id() + " " + job.name() + " is " + job.status() + time
                    + "; diagnose it when it has ended.";
        };
        return new Diagnosis.StatusOnly(job, summary, null);
    }

    private List<LogTail> readLogs(JobRecord job, List<String> notices) {
        List<LogTail> logs = new ArrayList<>();
        LogTail out = backend.logTail(job, LogStream.STDOUT, tailLines);
        logs.add(out);
        boolean merged = job.stderrPath() != null && job.stderrPath().equals(job.stdoutPath());
        if (!merged) {
            logs.add(backend.logTail(job, LogStream.STDERR, tailLines));
        }
        // a job that never started wrote no log: "moved, deleted, or not mounted" would send the user looking for it
        boolean neverStarted = job.neverStarted();
        for (int i = 0; i < logs.size(); i++) {
            LogTail t = logs.get(i);
            if (neverStarted && t.content().length > 0 && !submissionRefusal(t.lines())) {
                // text at the path of a job that never ran is another job's (a fixed --output name every run reuses):
                // its error would be said as this job's cause
                notices.add(t.stream().label() + ": the job never started, so the text at its " + t.stream().label()
                        + " path (" + t.path() + ") was written by another job that uses the same name: not read");
                logs.set(i, LogTail.unavailable(t.stream(), t.path(), "written by another job: not read"));
                continue;
            }
            if (neverStarted && t.content().length > 0) {
                notices.add(t.stream().label() + ": the job never started; its file holds only the submission's"
                        + " refusal, kept there by what submitted the job");
            }
            t.optProblem().ifPresent(p -> notices.add(t.stream().label() + ": " + (neverStarted && t.content().length == 0
                    ? "the job never started, so it wrote no " + t.stream().label() + " file" + (t.path() == null ? ""
                    : " (" + t.path() + ")") : p)));
        }
        return logs;
    }

    /**
     * Whether every line of a never-started job's log is a submission command's refusal ({@code sbatch: error: ...}):
     * a wrapper that submits keeps sbatch's stderr there, the only words SLURM gave (the mock's 1034 and 1040).
     */
    static boolean submissionRefusal(List<String> lines) {
        List<String> said = lines.stream().map(String::strip).filter(l -> !l.isEmpty()).toList();
        return !said.isEmpty() && said.stream().allMatch(l -> l.matches("(?:sbatch|salloc|srun): error: .*"));
    }

    /**
     * The retrieved notes fitted to the job and agreeing with its patch; a note that fitting leaves out (every item contradicts the job) gives
     * its place to the next best, so a diagnosis still shows {@code fixCount} notes.
     */
    private List<FixNote> fittedFixes(Finding finding, JobRecord job, List<Partition> partitions,
                                      Supplier<List<Qos>> qos, Supplier<Optional<java.util.Set<String>>> allowedQos,
                                      Patch patch, Optional<String> script) {
        JobAdviceFacts facts = new JobAdviceFacts(job, partitions).withScript(script.map(patcher::read).orElse(null))
                .withQos(qos).withAllowedQos(allowedQos)
                .withCanceller(UserNames.cancelledBy(job.status()).stream().boxed().findFirst()
                        .flatMap(backend::userName).orElse(null))
                .withLogLines(finding.evidence().stream().map(io.slurmwise.classify.Evidence::text).toList());
        // bash's "line N: PATH: Permission denied" of a redirect reads as an exec failure; the script says which, as
        // the exec_permission fixer reads it, so chmod u+x does not lead beside its "no execute permission is missing"
        java.util.Set<String> misworded = facts.deniedPath().filter(io.slurmwise.patch.DeniedPath::written)
                .map(d -> java.util.Set.of(d.evidence())).orElse(java.util.Set.of());
        List<FixNote> fitted = FixOrder.byEvidence(fitter.fit(retriever.retrieve(finding, job, fixCount + SPARE_FIXES),
                facts, patch), finding, List.of("State=" + job.status()), misworded);
        if (fitted.size() <= fixCount) {
            return fitted;
        }
        List<FixNote> top = new java.util.ArrayList<>(fitted.subList(0, fixCount));
        // a diagnosis must say what to change: the finding's own Fixes section stays among those shown
        if (top.stream().noneMatch(n -> isOwnFixes(n, finding)) && !top.isEmpty()) {
            fitted.stream().filter(n -> isOwnFixes(n, finding)).findFirst().ifPresent(n -> top.set(top.size() - 1, n));
        }
        return List.copyOf(top);
    }

    private static boolean isOwnFixes(FixNote n, Finding finding) {
        return n.kindId().equals(finding.kindId()) && "Fixes".equals(n.section());
    }

}
