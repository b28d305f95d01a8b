package io.slurmwise.patch;

import io.slurmwise.job.JobState;

import java.util.regex.Pattern;

/**
 * {@code requeue}: {@code --requeue}, so that a job SLURM ends for a reason not its own (a failed node, a preemption)
 * goes back in the queue instead of ending. SLURM requeues for those, never for a time limit or the program's own
 * failure, so the time-limit note does not list this fixer. No {@code --signal} is added: a signal the batch script
 * does not trap ends the batch shell ({@code B:USR1} kills bash at once, 5 minutes before the limit; an outside audit
 * found the patch doing that to seven jobs), so the advice says how to trap it, with the work in the background.
 */
final class RequeueFixer implements Fixer {

    /** The signal and lead time the advice names: USR1 to the batch shell 5 minutes before the time limit. */
    static final String SIGNAL = "B:USR1@300";
    /** A trap of TERM in the script: a preemption's signal is caught. */
    private static final Pattern TRAPS_TERM = Pattern.compile("(?m)^\\s*trap\\s+.*\\b(?:SIG)?TERM\\b");

    @Override
    public String name() {
        return "requeue";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        Step step = Step.none(s);
        if (!s.has("requeue") || lastIs(s, "no-requeue", "requeue")) {
            // the event this job had, named once (an outside audit read "a node failure or a preemption (node failure)")
            JobState state = cx.job().state();
            String events = state == JobState.NODE_FAIL ? "a node failure, as this job had, or a preemption"
                    : state == JobState.PREEMPTED ? "a preemption, as this job had, or a node failure"
                    : "a node failure or a preemption";
            // a preemption requeues only under PreemptMode=REQUEUE (the cluster's, or its partition's or QOS's own):
            // under CANCEL the job ends whatever it asks (an outside audit: 1039 under the mock's scavenger QOS)
            step = state == JobState.PREEMPTED
                    ? step.change(s.insertDirective("#SBATCH --requeue"), "--requeue", "Where preempted jobs are"
                    + " requeued (PreemptMode=REQUEUE), SLURM puts a job with --requeue back in the queue after a"
                    + " preemption, as this job had, or a node failure, where it starts again from the top of the"
                    + " script; without it the job just ends").advise("Under PreemptMode=CANCEL a preempted job ends"
                    + " whatever it asks: `scontrol show config | grep -i PreemptMode` and `sacctmgr show qos"
                    + " format=Name,PreemptMode` show which applies; if it is CANCEL, run under a QOS that is not"
                    + " preempted.")
                    : step.change(s.insertDirective("#SBATCH --requeue"), "--requeue", "SLURM puts a job with --requeue"
                    + " back in the queue after " + events + ", where it starts again from the top of the script;"
                    + " without it the job just ends");
        }
        boolean preempted = cx.job().state() == JobState.PREEMPTED;
        if (!preempted || TRAPS_TERM.matcher(s.text()).find()) {
            return step.advise("On restart, resume from the newest checkpoint (SLURM_RESTART_COUNT is set from the"
                    + " second start on), or the work starts over.");
        }
        // a preemption sends SIGTERM, then SIGKILL after the partition's GraceTime (an outside audit: 1039, 1033)
        return step.advise("A preemption sends SIGTERM, then SIGKILL after the partition's GraceTime: to save state,"
                + " run the work in the background and trap TERM (`srun ./prog & PID=$!; trap 'kill -TERM $PID; wait"
                + " $PID' TERM; wait $PID`), and on restart resume from the newest checkpoint (SLURM_RESTART_COUNT is set"
                + " from the second start on). A warning before the time limit is `#SBATCH --signal=" + SIGNAL + "` with"
                + " a trap of USR1 the same way; a signal the script does not trap ends it at once.");
    }

    private static boolean lastIs(BatchScript s, String a, String b) {
        int ia = s.option(a).map(BatchScript.Option::line).orElse(-1);
        int ib = s.option(b).map(BatchScript.Option::line).orElse(-1);
        return ia > ib;
    }
}
