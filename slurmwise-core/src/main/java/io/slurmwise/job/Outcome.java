package io.slurmwise.job;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What became of a job, decided once for every command: {@code stats} counts by it, {@code watch} and
 * {@code diagnose} explain the jobs it says to diagnose, {@code jobs} colours and reports it. Cancelled and preempted
 * jobs are kept apart from failures (a person or the scheduler ended them, the job itself did not fail) but are
 * diagnosed: the user still wants to know what happened.
 *
 * <p>The edges, decided here: {@code SPECIAL_EXIT} is a job requeued and held after it exited with a site's special
 * exit code: it is waiting to run again (pending), not ended. {@code REVOKED} (a federated sibling removed because
 * another cluster started the job) counts as cancelled. {@code REQUEUED} and the hold states are pending, except
 * that a {@code REQUEUED} record with a start and an end is an earlier run of a requeued job ({@link #of(JobRecord)});
 * a {@code COMPLETED} record with a failed step is a failure ({@link JobRecord#failedStepOfCompleted()});
 * {@code SUSPENDED}, {@code STOPPED} and the transitional states are running. {@code DEADLINE}, {@code BOOT_FAIL}
 * and {@code NODE_FAIL} are failures.
 *
 * <pre>{@code
 * Outcome o = job.outcome(); // Outcome.of(job)
 * if (o.diagnose()) { ... }
 * }</pre>
 */
public enum Outcome {
    COMPLETED, FAILED, CANCELLED, PREEMPTED, PENDING, RUNNING, UNKNOWN;

    /**
     * What became of this record: {@link #of(JobState)} of its state, except for an earlier run. {@code sacct -D}
     * keeps every run of a requeued job, each earlier one as a {@code REQUEUED} record with its start and end: that run
     * ended before it finished because the scheduler or an admin requeued it, so it is cancelled (its time interrupted
     * time), not a job still waiting. A {@code REQUEUED} record without both times is the job between runs: pending.
     */
    public static Outcome of(JobRecord job) {
        if (job.state() == JobState.REQUEUED && job.start() != null && job.end() != null) {
            return CANCELLED;
        }
        // a COMPLETED job whose step failed (the batch script went on and exited 0): failed, as its DerivedExitCode
        // says, for every command (diagnose explained it while stats, watch and jobs counted it a success)
        if (job.failedStepOfCompleted().isPresent()) {
            return FAILED;
        }
        return of(job.state());
    }

    /** What became of a job in this state; {@link #of(JobRecord)} where the record is at hand. */
    public static Outcome of(JobState state) {
        return switch (state) {
            case COMPLETED -> COMPLETED;
            case FAILED, TIMEOUT, OUT_OF_MEMORY, NODE_FAIL, BOOT_FAIL, DEADLINE -> FAILED;
            case CANCELLED, REVOKED -> CANCELLED;
            case PREEMPTED -> PREEMPTED;
            case PENDING, REQUEUED, REQUEUE_HOLD, REQUEUE_FED, RESV_DEL_HOLD, SPECIAL_EXIT -> PENDING;
            case RUNNING, SUSPENDED, COMPLETING, CONFIGURING, RESIZING, SIGNALING, STAGE_OUT, STOPPED -> RUNNING;
            case UNKNOWN -> UNKNOWN;
        };
    }

    /** The states whose outcome satisfies {@code test}, e.g. the states to ask accounting for. */
    public static Set<JobState> states(java.util.function.Predicate<Outcome> test) {
        Set<JobState> out = EnumSet.noneOf(JobState.class);
        for (JobState s : JobState.values()) {
            if (test.test(of(s))) {
                out.add(s);
            }
        }
        return out;
    }

    /**
     * The states whose records may be diagnosed, as accounting is asked for them ({@code watch}): every state whose
     * outcome says to diagnose it, and {@code COMPLETED}, whose record may carry a failed step; {@link #of(JobRecord)}
     * then decides each record.
     */
    public static Set<JobState> mayDiagnose() {
        Set<JobState> out = states(Outcome::diagnose);
        out.add(JobState.COMPLETED);
        return out;
    }

    /** Has a final outcome: the jobs a failure rate is taken over. */
    public boolean isEnded() {
        return this == COMPLETED || this == FAILED || this == CANCELLED || this == PREEMPTED;
    }

    /** Still queued or running: no final outcome yet. */
    public boolean isActive() {
        return this == PENDING || this == RUNNING;
    }

    /** Cancelled or preempted: ended by a person or the scheduler, reported apart from failures. */
    public boolean isInterrupted() {
        return this == CANCELLED || this == PREEMPTED;
    }

    /**
     * Ended without success, so a diagnosis explains it (cause, evidence, fixes) and {@code watch} reports it; every
     * other job gets its status (why it waits, that it runs or completed).
     */
    public boolean diagnose() {
        return this == FAILED || isInterrupted();
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
