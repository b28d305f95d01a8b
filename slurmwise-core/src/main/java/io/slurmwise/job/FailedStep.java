package io.slurmwise.job;

/**
 * A step of a job that failed, as sacct's step row records it ({@code 198.0 OUT_OF_MEMORY 0:125}): kept because a job
 * whose batch script went on and exited 0 is {@code COMPLETED} while a step of it ran out of memory or failed (the
 * real lab: an {@code srun} step killed for memory inside a job that completed, which read "nothing to diagnose").
 *
 * @param id       the step's id as sacct prints it ({@code 198.0}, {@code 198.batch})
 * @param status   its state
 * @param exitCode its exit code, null when not recorded
 */
public record FailedStep(String id, JobStatus status, ExitCode exitCode) {

    /** How a sentence names it: {@code step 198.0 ended OUT_OF_MEMORY (exit 0:125)}. */
    public String describe() {
        return "step " + id + " ended " + status.state().name() + (exitCode == null ? "" : " (exit " + exitCode + ")");
    }
}
