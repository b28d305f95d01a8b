package io.slurmwise.stats;

import io.slurmwise.job.JobState;

/**
 * How a job counts in fleet statistics. Cancelled and preempted jobs are kept apart from failures: a person or
 * the scheduler ended them, the job itself did not fail.
 */
public enum Outcome {
    COMPLETED, FAILED, CANCELLED, PREEMPTED, PENDING, RUNNING, UNKNOWN;

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

    /** Has a final outcome: the jobs a failure rate is taken over. */
    public boolean isEnded() {
        return this == COMPLETED || this == FAILED || this == CANCELLED || this == PREEMPTED;
    }

    /** Cancelled or preempted: ended by a person or the scheduler, reported apart from failures. */
    public boolean isInterrupted() {
        return this == CANCELLED || this == PREEMPTED;
    }

    public String id() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
