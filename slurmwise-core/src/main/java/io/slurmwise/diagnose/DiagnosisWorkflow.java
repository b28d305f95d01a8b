package io.slurmwise.diagnose;

import io.slurmwise.backend.BackendException;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.Partition;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.patch.Patch;
import io.slurmwise.patch.PatchSuggester;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.Optional;

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
        this.fitter = new FixFitter(classifier.taxonomy());
        this.tailLines = tailLines;
        this.fixCount = fixCount;
    }

    public Diagnosis diagnose(JobId id) {
        Optional<JobRecord> found = backend.job(id);
        List<String> notices = new ArrayList<>();
        if (found.isEmpty() && !id.isArrayTask() && id.arraySpec() == null && !id.isStep()) {
            found = pickArrayTask(id, notices);
        }
        if (found.isEmpty()) {
            return new Diagnosis.NotFound(id, "job " + id + " is not known to " + backend.name()
                    + " accounting; check the id with `sacct -j " + id + "` or widen the window");
        }
        return diagnose(found.get(), true, notices);
    }

    /**
     * Diagnoses a job record already at hand (no accounting lookup).
     *
     * @param suggestPatch false skips the patch step, and with it reading the batch script and the partitions:
     *                     for watchers that must stay gentle on a shared slurmdbd
     */
    public Diagnosis diagnose(JobRecord job, boolean suggestPatch) {
        return diagnose(job, suggestPatch, new ArrayList<>());
    }

    private Diagnosis diagnose(JobRecord job, boolean suggestPatch, List<String> notices) {
        if (hasNoFailure(job)) {
            Diagnosis d = statusOnly(job, suggestPatch, notices);
            if (!notices.isEmpty() && d instanceof Diagnosis.StatusOnly so) {
                return new Diagnosis.StatusOnly(so.job(), notices.get(0) + ". " + so.summary(), so.pending());
            }
            return d;
        }
        List<LogTail> logs = readLogs(job, notices);
        Finding finding = classifier.classify(JobFacts.of(job), logs);
        List<Partition> partitions = suggestPatch ? partitions(notices) : List.of();
        List<FixNote> fixes = fittedFixes(finding, job, partitions);
        Explanation explanation = explainer.explain(job, finding, fixes);
        String method = "rules" + (retriever instanceof NoteLookupRetriever ? "" : " + " + retriever.name())
                + ("template".equals(explanation.source()) ? "" : " + " + explanation.source());
        Patch patch = suggestPatch ? patch(job, finding, logs, partitions, notices)
                : new Patch.NotSuggested("no patch was asked for (it reads the batch script); run `slurmwise diagnose "
                + job.id() + "` for it", List.of(), List.of());
        return new Diagnosis.Failed(job, finding, logs, fixes, explanation, method, notices, patch);
    }

    /** The sbatch patch step: the script is best effort; without it the patch says why. */
    private Patch patch(JobRecord job, Finding finding, List<LogTail> logs, List<Partition> partitions,
                        List<String> notices) {
        Optional<String> script;
        try {
            script = backend.batchScript(job);
        } catch (BackendException e) {
            notices.add("batch script: " + e.getMessage());
            script = Optional.empty();
        }
        return patcher.suggest(job, finding, logs, script, partitions);
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
     * An array id without a task: diagnose its first failed task (else its first task) and say so, with the
     * count of tasks per state.
     */
    private Optional<JobRecord> pickArrayTask(JobId id, List<String> notices) {
        List<JobRecord> tasks = backend.arrayTasks(id);
        if (tasks.isEmpty()) {
            return Optional.empty();
        }
        Map<JobState, Long> byState = new TreeMap<>();
        tasks.forEach(t -> byState.merge(t.state(), 1L, Long::sum));
        JobRecord pick = tasks.stream().filter(t -> !hasNoFailure(t) && t.id().isArrayTask()).findFirst()
                .orElse(tasks.get(0));
        StringBuilder sb = new StringBuilder("array job " + id + " has " + tasks.size() + " tasks (");
        byState.forEach((st, n) -> sb.append(n).append(' ').append(st).append(", "));
        sb.setLength(sb.length() - 2);
        sb.append("); showing task ").append(pick.id()).append(" (slurmwise diagnose <id>_<task> for another)");
        notices.add(sb.toString());
        // the task's own record, with what the backend adds to single jobs (log paths, pending reason)
        return Optional.of(backend.job(pick.id()).orElse(pick));
    }

    /** Running, pending and successfully completed jobs have nothing to diagnose. */
    static boolean hasNoFailure(JobRecord job) {
        JobState s = job.state();
        return s.isActive() || s == JobState.COMPLETED || s == JobState.UNKNOWN;
    }

    private Diagnosis statusOnly(JobRecord job, boolean suggestPatch, List<String> notices) {
        JobState s = job.state();
        if (s == JobState.PENDING) {
            String reason = job.optPendingReason().orElse("None");
            PendingReasons.Meaning m = pendingReasons.explain(reason);
            Finding finding = classifier.classify(JobFacts.of(job), List.of());
            List<Partition> partitions = suggestPatch && !finding.isUnknown() ? partitions(notices) : List.of();
            List<FixNote> fixes = finding.isUnknown() ? List.of()
                    : fittedFixes(finding, job, partitions);
            String summary = "job " + job.id() + " " + job.name() + " is PENDING (" + reason + "): " + m.text()
                    + switch (m.startability()) {
                        case WILL -> "; it will start without changes.";
                        case MAY -> "; it may start if the cluster changes.";
                        case NEVER -> "; it can never start as submitted.";
                    };
            // a job that can never start as submitted gets the nearest request that can, as a patch
            Patch patch = suggestPatch && m.startability() == PendingReasons.Startability.NEVER && !finding.isUnknown()
                    ? patch(job, finding, List.of(), partitions, notices) : null;
            return new Diagnosis.StatusOnly(job, summary, new PendingInfo(reason, m.startability(), m.text(),
                    finding.isUnknown() ? null : finding, fixes, patch));
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
        for (LogTail t : logs) {
            t.optProblem().ifPresent(p -> notices.add(t.stream().label() + ": " + p));
        }
        return logs;
    }

    /**
     * The retrieved notes fitted to the job; a note that fitting leaves out (every item contradicts the job) gives
     * its place to the next best, so a diagnosis still shows {@code fixCount} notes.
     */
    private List<FixNote> fittedFixes(Finding finding, JobRecord job, List<Partition> partitions) {
        List<FixNote> fitted = fitter.fit(retriever.retrieve(finding, job, fixCount + SPARE_FIXES),
                new JobAdviceFacts(job, partitions));
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
