package io.slurmwise.patch;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code requeue}: {@code --requeue} and a warning signal before the end, so a job that SLURM ends (time limit, a
 * failed node, preemption) goes back in the queue and can save its state first.
 */
final class RequeueFixer implements Fixer {

    static final String SIGNAL = "B:USR1@300";

    @Override
    public String name() {
        return "requeue";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        Step step = Step.none(s);
        List<String> added = new ArrayList<>();
        BatchScript next = s;
        if (!next.has("requeue") || lastIs(next, "no-requeue", "requeue")) {
            next = next.insertDirective("#SBATCH --requeue");
            added.add("--requeue");
        }
        if (!next.has("signal")) {
            next = next.insertDirective("#SBATCH --signal=" + SIGNAL);
            added.add("--signal=" + SIGNAL);
        }
        if (!added.isEmpty()) {
            String how = cx.finding().isUnknown() ? "" : " (" + lower(cx.finding().kind().title()) + ")";
            step = step.change(next, String.join(" and ", added), "a job that ends this way" + how + " then goes back"
                    + " in the queue instead of ending; USR1 5 minutes before its time limit, and SIGTERM at a"
                    + " preemption, let it save state first");
        }
        // USR1 of --signal comes only before the time limit: a preemption (or a cancel) sends SIGTERM, then SIGKILL
        // after the partition's GraceTime, so a trap on USR1 alone never runs there (an outside audit: 1039, 1033)
        return step.advise("With --signal=" + SIGNAL + " SLURM sends USR1 to the batch shell 5 minutes before the time"
                + " limit; at a preemption it sends SIGTERM instead, then SIGKILL after the partition's GraceTime. Trap"
                + " both to save a checkpoint: `trap 'kill -USR1 $PID; wait $PID; scontrol requeue $SLURM_JOB_ID' USR1`"
                + " and `trap 'kill -TERM $PID; wait $PID' TERM`, and run the work in the background (`srun python"
                + " train.py & PID=$!; wait $PID`) so the traps run in time. A preempted job with --requeue goes back"
                + " in the queue by itself; on restart, resume from the newest checkpoint (SLURM_RESTART_COUNT says it"
                + " is a restart).");
    }

    private static String lower(String title) {
        return title.isEmpty() ? title : title.substring(0, 1).toLowerCase(Locale.ROOT) + title.substring(1);
    }

    private static boolean lastIs(BatchScript s, String a, String b) {
        int ia = s.option(a).map(BatchScript.Option::line).orElse(-1);
        int ib = s.option(b).map(BatchScript.Option::line).orElse(-1);
        return ia > ib;
    }
}
