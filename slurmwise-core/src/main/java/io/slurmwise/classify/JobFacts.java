package io.slurmwise.classify;

import io.slurmwise.job.DataSize;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;

import java.time.Duration;

/**
 * What the classifier may know about a job besides its logs; every field may be null (unknown). Built from a
 * {@link JobRecord}, from CLI flags, or from a benchmark case. {@code memoryLimit} is what one node may use
 * ({@link JobRecord#memoryPerNode()}), since {@code maxRss} is the peak of one task.
 *
 * @param pendingReason why the job waits, or, for one cancelled before it started, what it waited on then
 * @param stateDetail   what SLURM wrote after the state ({@code by 1001} of {@code CANCELLED by 1001}); "" when
 *                      nothing (a job slurmctld itself cancelled names no one), null when unknown
 */
public record JobFacts(JobState state, ExitCode exitCode, DataSize maxRss, DataSize memoryLimit, Duration elapsed,
                       Duration timeLimit, String pendingReason, String nodeList, String stateDetail) {

    public static final JobFacts NONE = new JobFacts(null, null, null, null, null, null, null, null);

    /** Without the state's detail (unknown). */
    public JobFacts(JobState state, ExitCode exitCode, DataSize maxRss, DataSize memoryLimit, Duration elapsed,
                    Duration timeLimit, String pendingReason, String nodeList) {
        this(state, exitCode, maxRss, memoryLimit, elapsed, timeLimit, pendingReason, nodeList, null);
    }

    /**
     * The record's facts; a COMPLETED job whose step failed ({@link JobRecord#failedStepOfCompleted()}) with that
     * step's state and exit code, so every command that classifies it (diagnose, stats, jobs, watch) reads the failure.
     */
    public static JobFacts of(JobRecord r) {
        io.slurmwise.job.FailedStep step = r.failedStepOfCompleted().orElse(null);
        io.slurmwise.job.JobStatus status = step == null ? r.status() : step.status();
        ExitCode exit = step == null ? r.exitCode() : step.exitCode(); // a step's unrecorded code is unknown, not 0:0
        return new JobFacts(status.state(), exit, r.maxRss(), r.memoryPerNode().orElse(null), r.elapsed(),
                r.timeLimit().limit().orElse(null), r.optPendingReason().orElse(null), r.nodeList(), status.detail());
    }

    public JobFacts withState(JobState s) {
        return new JobFacts(s, exitCode, maxRss, memoryLimit, elapsed, timeLimit, pendingReason, nodeList, stateDetail);
    }

    public JobFacts withPendingReason(String reason) {
        return new JobFacts(state, exitCode, maxRss, memoryLimit, elapsed, timeLimit, reason, nodeList, stateDetail);
    }

    public JobFacts withExitCode(ExitCode e) {
        return new JobFacts(state, e, maxRss, memoryLimit, elapsed, timeLimit, pendingReason, nodeList, stateDetail);
    }
}
