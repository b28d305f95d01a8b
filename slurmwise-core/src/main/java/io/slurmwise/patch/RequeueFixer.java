package io.slurmwise.patch;

import io.slurmwise.job.JobState;
import io.slurmwise.job.Partition;
import io.slurmwise.job.Qos;
import io.slurmwise.job.SlurmTime;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import java.util.regex.Pattern;

/**
 * {@code requeue}: {@code --requeue}, so that a job SLURM ends for a reason not its own (a failed node, a preemption)
 * goes back in the queue instead of ending. SLURM requeues for those, never for a time limit or the program's own
 * failure, so the time-limit note does not list this fixer. No {@code --signal} is added: a signal the batch script
 * does not trap ends the batch shell ({@code B:USR1} kills bash at once, 5 minutes before the limit; an outside audit
 * found the patch doing that to seven jobs), so the advice says how to trap it, with the work in the background.
 * A job preempted under a QOS that others preempt (a scavenger QOS, by the QOSes' {@code Preempt} column) is moved
 * first to a QOS no other preempts, that allows its time and that the partition and the user's association admit:
 * --requeue alone would bring it back to be preempted again.
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
        JobState state = cx.job().state();
        boolean preempted = state == JobState.PREEMPTED;
        // under a QOS others preempt (a scavenger QOS), the fix is a QOS no other preempts: --requeue only brings the
        // job back to be preempted again, and under PreemptMode=CANCEL not even that (an outside audit: 1039, 1033)
        Optional<Qos> from = preempted ? cx.jobQos() : Optional.empty();
        List<String> by = from.map(q -> Qos.preemptorsOf(cx.qos().get(), q.name())).orElse(List.of());
        boolean moved = false;
        if (!by.isEmpty()) {
            Optional<Partition> part = cx.partition(s);
            String partition = part.map(Partition::name).orElse("");
            Duration need = cx.job().timeLimit().limit()
                    .or(() -> s.option("time").flatMap(o -> SlurmTime.parseDuration(o.value()))).orElse(Duration.ZERO);
            String why = "its QOS " + from.get().name() + " is preempted by the jobs of QOS " + String.join(", ", by)
                    + " (sacctmgr show qos format=Name,Preempt)";
            Optional<Qos> to = cx.qosFor(need, partition, from.get().name());
            if (to.isPresent()) {
                step = QosWallFixer.access(step.change(s.withOption("qos", to.get().name()), "--qos=" + to.get().name()
                        + " (was " + from.get().name() + ")", why + "; no QOS preempts " + to.get().name() + ", which " + (to.get().maxWallLimit().isEmpty()
                        ? "has no MaxWall" : "allows " + to.get().maxWall()) + (cx.knowsOwnQos()
                        ? " and is open to your account (sacctmgr show assoc)" : "")), cx, to.get(), from.get(),
                        partition);
                moved = true;
            } else {
                List<String> calm = cx.qosAllowing(need, from.get().name()).stream().map(Qos::name).toList();
                step = step.advise(why + (calm.isEmpty() ? ", and no QOS " + (cx.knowsOwnQos() ? "your account may use"
                        : "of this cluster") + " that allows its time is free of preemption: make the run resumable."
                        : ": under a QOS no other preempts (" + String.join(", ", calm) + ") it would not be, if your"
                        + " account and partition may use it (`sacctmgr show assoc where user=$USER format=Account,QOS`)."));
            }
        }
        BatchScript now = step.script();
        if (!now.has("requeue") || lastIs(now, "no-requeue", "requeue")) {
            // the event this job had, named once (an outside audit read "a node failure or a preemption (node failure)")
            String events = state == JobState.NODE_FAIL ? "a node failure, as this job had, or a preemption"
                    : preempted && !moved ? "a preemption, as this job had, or a node failure"
                    : "a node failure or a preemption";
            // a preemption requeues only under PreemptMode=REQUEUE (the cluster's, or its partition's or QOS's own):
            // under CANCEL the job ends whatever it asks (an outside audit: 1039 under the mock's scavenger QOS)
            step = preempted && !moved
                    ? step.change(now.insertDirective("#SBATCH --requeue"), "--requeue", "Where preempted jobs are"
                    + " requeued (PreemptMode=REQUEUE), SLURM puts a job with --requeue back in the queue after a"
                    + " preemption, as this job had, or a node failure, where it starts again from the top of the"
                    + " script; without it the job just ends").advise("Under PreemptMode=CANCEL a preempted job ends"
                    + " whatever it asks: `scontrol show config | grep -i PreemptMode` and `sacctmgr show qos"
                    + " format=Name,PreemptMode` show which applies; if it is CANCEL, run under a QOS that is not"
                    + " preempted.")
                    : step.change(now.insertDirective("#SBATCH --requeue"), "--requeue", "SLURM puts a job with --requeue"
                    + " back in the queue after " + events + ", where it starts again from the top of the script;"
                    + " without it the job just ends");
        }
        if (!preempted || moved || TRAPS_TERM.matcher(s.text()).find()) {
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
