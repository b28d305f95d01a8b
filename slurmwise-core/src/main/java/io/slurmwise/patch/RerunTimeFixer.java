package io.slurmwise.patch;

import io.slurmwise.job.JobRecord;
import io.slurmwise.job.Partition;
import io.slurmwise.job.SlurmTime;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The time a rerun needs, for a job another failure ended part-way: when the progress its logs show (the {@code time}
 * fixer's reading) says the whole run needs more than its time limit, the rerun would end at the limit once the
 * failure is fixed, so the script gets the {@code time} fixer's {@code --time} when the partition allows it, else
 * advice to make the run resumable or move it (a move and its GPU type are the user's call beside another failure).
 * 1015's node failure came in epoch 22 of 90 after 4:51: resubmitted as it was, with its 10-hour limit, it would
 * time out (an outside audit). Without a reading of progress
 * (at least {@link TimeFixer#MIN_PROGRESS}), or when the estimate fits the limit, nothing changes.
 */
final class RerunTimeFixer implements Fixer {

    private final TimeFixer time;

    RerunTimeFixer(TimeFixer time) {
        this.time = time;
    }

    @Override
    public String name() {
        return "rerun_time";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        JobRecord job = cx.job();
        Duration elapsed = job.elapsed();
        Optional<Duration> limit = job.timeLimit().limit()
                .or(() -> s.option("time").flatMap(o -> SlurmTime.parseDuration(o.value())));
        if (elapsed == null || elapsed.isZero() || limit.isEmpty()) {
            return Step.none(s);
        }
        TimeFixer.Progress progress = time.progress(cx, s.text(), elapsed);
        if (!progress.usable()) {
            return Step.none(s);
        }
        Duration need = TimeFixer.need(elapsed, progress);
        if (need.compareTo(limit.get()) <= 0) {
            return Step.none(s);
        }
        Optional<Partition> part = cx.partition(s);
        Optional<Duration> max = part.flatMap(Partition::maxTimeLimit);
        if (max.isEmpty() || need.compareTo(max.get()) <= 0) {
            return time.apply(cx, s, progress); // a longer --time within the partition: as mechanical as the failure's own fix
        }
        // more than the partition gives: moving the job (and its GPU type) is the user's call beside another failure
        // under a QOS that does not allow the need, another partition gives no more: the QOS is named instead
        // the partition's own QOS, else the job's; only the job's caps the time on the partitions it could move to
        Optional<io.slurmwise.job.Qos> qos = cx.timeQos(part).filter(q -> !q.allows(need));
        List<String> longer = cx.jobQos().filter(q -> !q.allows(need)).isPresent() ? List.of()
                : TimeFixer.longer(cx, part.get().name(), need, cx.usesGpus(s));
        return Step.none(s).warn(String.format(Locale.ROOT, "Even with this fixed, the rerun would reach its time"
                + " limit: it did %s of the work in %s (%s), so the whole run needs about %s with 20%% headroom"
                + " (%s at its rate so far), more than partition %s allows (%s MaxTime). Make it resumable (save a"
                + " checkpoint and continue in a second job, `--dependency=afterany:<jobid>`)%s.",
                TimeFixer.share(progress), progress.took(elapsed), progress.said(), SlurmTime.format(need),
                SlurmTime.format(TimeFixer.atRate(elapsed, progress)), part.get().name(), part.get().maxTime(),
                qos.map(q -> "; " + QosWallFixer.cap(q, part.get())).orElse("")
                        + (longer.isEmpty() ? "" : ", or move it to a partition that allows it: "
                                + String.join(", ", longer))));
    }
}
