package io.slurmwise.view;

import io.slurmwise.job.JobRecord;

/**
 * The STATE of a job in a list ({@code jobs} and {@code watch}'s tables, the text of the MCP tool list_jobs): SLURM's
 * own state, marked {@code COMPLETED*} when SLURM says COMPLETED but a step of the job failed (its batch script went
 * on and exited 0 after an {@code srun} step ran out of memory), which every command counts as failed
 * ({@link io.slurmwise.job.Outcome#of(JobRecord)}). The plain word beside a failure's KIND read as a contradiction;
 * the mark keeps SLURM's word and says it is not the whole story, and {@link #KEY} under the list says what it means.
 */
public final class StateCell {

    /** What the mark means, for a table's footer (only when a row carries it). */
    public static final String KEY = "COMPLETED* = the batch script exited 0, but a step failed";

    private StateCell() {
    }

    /** {@code text} (SLURM's state as the table words it), with the mark when the job completed with a failed step. */
    public static String text(JobRecord j, String text) {
        return marked(j) ? text + "*" : text;
    }

    /** Whether SLURM says COMPLETED while a step of the job failed. */
    public static boolean marked(JobRecord j) {
        return j.failedStepOfCompleted().isPresent();
    }
}
