package io.slurmwise.patch;

import io.slurmwise.job.Partition;
import io.slurmwise.job.Qos;
import io.slurmwise.job.SlurmTime;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code qos_wall}: a job whose --time is over its QOS's MaxWall is refused or pends for ever
 * ({@code QOSMaxWallDurationPerJobLimit}; a partition's MaxTime that allows it does not help: the QOS caps the time on
 * every partition). With the cluster's QOSes known: the QOS named like its partition when that one allows the time (a
 * site's QOS for the partition), or, with the user's associations known, the one of theirs that does (the real lab's
 * user, capped to 10 minutes by QOS short, may use normal); else the time down to the MaxWall, with the QOSes that
 * would allow it named for the user to check. The {@code time} fixer uses the same reading for a run that needs more time.
 */
final class QosWallFixer implements Fixer {

    @Override
    public String name() {
        return "qos_wall";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        Step step = Step.none(s);
        Optional<Partition> part = cx.partition(s);
        Optional<Qos> qos = cx.timeQos(part);
        Optional<Duration> asked = cx.job().timeLimit().limit()
                .or(() -> s.option("time").flatMap(o -> SlurmTime.parseDuration(o.value())));
        if (qos.isEmpty() || asked.isEmpty() || qos.get().allows(asked.get())) {
            return step; // nothing known to be over a QOS limit of time: the note's fixes say what to check
        }
        Duration need = asked.get();
        String partition = part.map(Partition::name).orElse("");
        String why = "it asks for " + SlurmTime.format(need) + "; " + cap(qos.get(), part.orElse(null));
        // a partition's own QOS comes before the job's: another --qos would not lift it
        Optional<Qos> other = Qos.isOwnQos(qos.get(), part.orElse(null)) ? Optional.empty()
                : cx.qosFor(need, partition, qos.get().name());
        if (other.isPresent()) {
            Step moved = step.change(s.withOption("qos", other.get().name()), "--qos=" + other.get().name() + " (was "
                    + qos.get().name() + ")", why + ", " + allowance(other.get()) + (cx.knowsOwnQos()
                    ? " and is one your account may use (sacctmgr show assoc)" : ""));
            return access(moved, cx, other.get(), qos.get(), partition);
        }
        return capped(step, s, qos.get(), cx, null, " (was " + SlurmTime.format(need) + ")", why, need,
                part.orElse(null));
    }

    /**
     * A QOS as the cap it is on partition {@code p}, in the words of a why: {@code its QOS normal allows at most
     * 2-00:00:00 (MaxWall) on every partition}, or {@code partition long's own QOS part_long allows at most ...} when
     * it is the partition's.
     */
    static String cap(Qos q, Partition p) {
        return Qos.isOwnQos(q, p) ? "partition " + p.name() + "'s own QOS " + q.name() + " allows at most " + q.maxWall()
                + " (MaxWall)" : "its QOS " + q.name() + " allows at most " + q.maxWall() + " (MaxWall) on every partition";
    }

    /** A partition that does not admit a QOS, in the words of a why: {@code partition long admits AllowQos=long, not QOS normal}. */
    static String refusal(Partition p, Qos q) {
        return "partition " + p.name() + " admits " + p.qosAccess().describe() + ", not QOS " + q.name();
    }

    /** What a QOS allows, in the words of a why: {@code QOS long has no MaxWall}, {@code QOS x allows 3-00:00:00}. */
    static String allowance(Qos q) {
        return "QOS " + q.name() + (q.maxWallLimit().isEmpty() ? " has no MaxWall" : " allows " + q.maxWall());
    }

    /**
     * {@code step}, which moves the job to QOS {@code to} on partition {@code on}, with what is left to check: that the
     * QOS is open to the account, unless the user's associations are known (the patch then named one of theirs), and
     * that the partition admits it, unless the QOS is named like the partition (the site's for it) or the partition's
     * AllowQos/DenyQos were read (scontrol show partition; the patch then named one it admits).
     */
    static Step access(Step step, FixContext cx, Qos to, Qos from, String on) {
        Step out = cx.knowsOwnQos() ? step : step.advise(access(to, from));
        // a partition whose AllowQos/DenyQos were read admits the QOS (the patch picks only one it admits)
        boolean known = cx.partitions().stream().anyMatch(p -> p.name().equals(on) && p.qosAccess().known());
        return on == null || on.isBlank() || to.name().equalsIgnoreCase(on) || known ? out : out.advise("Partition "
                + on + " must admit QOS " + to.name() + ": `scontrol show partition " + on + "` shows AllowQos (ALL,"
                + " or a list naming it) and DenyQos.");
    }

    /** A QOS a patch names may be closed to the job's account: how to check, and what to do if it is. */
    static String access(Qos to, Qos from) {
        return "QOS " + to.name() + " must be open to your account: `sacctmgr show assoc where user=$USER"
                + " format=Account,QOS` lists yours; if it is not there, stay on " + from.name() + " with at most "
                + from.maxWall() + " and make the run resumable.";
    }

    /**
     * The time cut to the QOS's MaxWall (unless the job already asked for no more, {@code limit}), with the advice to
     * resume, and the QOSes that would allow the whole run for the user to check.
     */
    static Step capped(Step step, BatchScript s, Qos qos, FixContext cx, Duration limit, String was, String why,
                       Duration need, Partition on) {
        Duration wall = qos.maxWallLimit().orElseThrow();
        String cap = SlurmTime.format(wall);
        boolean stays = limit != null && wall.compareTo(limit) <= 0;
        boolean own = Qos.isOwnQos(qos, on);
        if (!stays) {
            step = step.change(s.withOption("time", cap), "--time=" + cap + was + ", capped by " + (own ? "partition "
                    + on.name() + "'s QOS " : "QOS ") + qos.name(), why);
        }
        String resumable = ": make the run resumable (save a checkpoint and continue in a second job,"
                + " `--dependency=afterany:<jobid>`)";
        if (own) {
            // the partition's QOS comes before the job's: another --qos does not lift it, another partition may
            return step.advise("Partition " + on.name() + "'s own QOS " + qos.name() + " allows at most " + cap
                    + (stays ? ", which the job already asked for (so --time stays)" : "") + resumable
                    + ", or use a partition whose limits allow the whole run (`scontrol show partition` shows each"
                    + " one's MaxTime and QoS).");
        }
        List<String> longer = cx.qosAllowing(need, qos.name()).stream().map(Qos::describe).toList();
        boolean mine = cx.knowsOwnQos();
        return step.advise("QOS " + qos.name() + " allows at most " + cap + " on every partition" + (stays ? ", which"
                + " the job already asked for (so --time stays)" : "") + resumable + (longer.isEmpty()
                ? ", since no other QOS " + (mine ? "your account may use" : "of this cluster") + " allows the whole run."
                : mine ? ", or use a QOS of yours that allows it: " + String.join(", ", longer) + "."
                : ", or use a QOS that allows it if your account and partition may: " + String.join(", ", longer)
                + " (`sacctmgr show assoc where user=$USER format=Account,QOS` lists yours)."));
    }
}
