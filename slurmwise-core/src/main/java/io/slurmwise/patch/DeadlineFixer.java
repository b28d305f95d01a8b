package io.slurmwise.patch;

import io.slurmwise.job.JobRecord;

/**
 * {@code later_deadline}: a job its {@code --deadline} ended, or never let start, gets no mechanical change: its
 * {@code --time} did not end it, and more time would only make it miss the deadline sooner (an outside audit: such
 * jobs were given the time-limit patch). The advice names the two ways that change when it can run: a later
 * deadline, or a shorter minimum time so it can start in a gap that ends by it.
 */
final class DeadlineFixer implements Fixer {

    @Override
    public String name() {
        return "later_deadline";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        JobRecord job = cx.job();
        String deadline = s.option("deadline").map(o -> " (" + o.value() + ")").orElse("");
        return Step.none(s).advise("Job " + job.id() + "'s --deadline" + deadline + " came before it could "
                + (job.neverStarted() ? "start and finish" : "finish") + ", so no --time is changed: give a later"
                + " --deadline, or a shorter --time-min so it can start early enough to end by it.");
    }
}
