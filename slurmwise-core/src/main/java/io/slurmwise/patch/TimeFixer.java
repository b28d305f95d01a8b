package io.slurmwise.patch;

import io.slurmwise.job.JobRecord;
import io.slurmwise.job.Partition;
import io.slurmwise.job.PartitionSearch;
import io.slurmwise.job.Qos;
import io.slurmwise.job.SlurmTime;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;

/**
 * {@code time}: more time from the elapsed time and the progress the logs show, within the partition's MaxTime.
 * When the partition cannot give the run what it needs, the limit goes to the MaxTime if that is more, and the
 * advice names the partitions that allow longer; a limit already at the MaxTime is left alone (no change is shown).
 * The job's QOS MaxWall caps the time on every partition ({@link QosWallFixer} words it): a need over it takes the QOS
 * named like the partition it runs on or moves to, else the time is capped at the MaxWall.
 */
final class TimeFixer implements Fixer {

    /** Extra time over the estimated need, for slower nodes and I/O. */
    static final double TIME_HEADROOM = 1.2;
    /** Below this fraction of the work done, a progress estimate is too rough to extrapolate from. */
    static final double MIN_PROGRESS = 0.05;
    /** A rate that leaves more than this many seconds (about 30 years) is no reading of a run (a broken or hostile log). */
    static final double MAX_LEFT_SECONDS = 1e9;

    private final Patterns patterns;

    TimeFixer(Patterns patterns) {
        this.patterns = patterns;
    }

    @Override
    public String name() {
        return "time";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        JobRecord job = cx.job();
        Duration elapsed = job.elapsed();
        if (elapsed == null || elapsed.isZero()) {
            return Step.none(s).advise("The elapsed time is unknown, so no new --time can be computed: check it with"
                    + " `sacct -j " + job.id() + " -o JobID,Elapsed,Timelimit`.");
        }
        Progress progress = progress(cx, s.text(), elapsed);
        Optional<Duration> limit = job.timeLimit().limit()
                .or(() -> s.option("time").flatMap(o -> SlurmTime.parseDuration(o.value())));
        if (limit.isPresent()) {
            Optional<Step> other = notTheJobsLimit(cx, s, progress, elapsed, limit.get());
            if (other.isPresent()) {
                return other.get();
            }
        }
        return apply(cx, s, progress);
    }

    /** The line of {@code text} that starts at {@code start}, stripped. */
    private static String lineAt(String text, int start) {
        int end = text.indexOf('\n', start);
        return text.substring(start, end < 0 ? text.length() : end).strip();
    }

    /** {@code srun ... --time=2} or {@code srun -t 30} in a script's commands: a step's own limit. */
    private static final java.util.regex.Pattern STEP_TIME = java.util.regex.Pattern.compile(
            "(?m)^(?![ \\t]*#)[^\\n]*\\bsrun\\b[^\\n]*?(?:--time[= ]|\\s-t\\s?)([\\w:-]+)");
    /** {@code timeout 30m ./prog}: coreutils' timeout around a command. */
    private static final java.util.regex.Pattern TIMEOUT_COMMAND = java.util.regex.Pattern.compile(
            "(?m)^(?![ \\t]*#)[^\\n]*?\\btimeout\\s+(?:-[-\\w=]+\\s+)*(\\d+(?:\\.\\d+)?[smhd]?)\\s");

    /**
     * A time-limit failure that more {@code --time} would not fix, said instead of a time patch: a job that ended well
     * before its own limit (a step's {@code srun --time}, a {@code timeout} or a program's own limit ended it), a run
     * whose log says the work was done and that still ran to the limit (it hung after), and one whose rate so far
     * would have fit the limit but whose progress stops long before the end (it stalled). Each came from an outside
     * audit, where the time patch's silent floor of half again the limit was printed as "the 00:02:05 it ran is
     * doubled: 03:00:00" and "the whole run needs about 18:00:00" of a rate that needed 7.6 hours.
     */
    private Optional<Step> notTheJobsLimit(FixContext cx, BatchScript s, Progress progress, Duration elapsed,
                                           Duration limit) {
        Step none = Step.none(s);
        String ran = "It ran " + SlurmTime.format(elapsed) + " of its " + SlurmTime.format(limit) + " limit";
        if (cx.job().endedBeforeItsLimit()) {
            Matcher step = STEP_TIME.matcher(s.text());
            Matcher timeout = TIMEOUT_COMMAND.matcher(s.text());
            String which = step.find() ? "a step's own limit did: `" + lineAt(s.text(), step.start()) + "` in the script (srun's"
                    + " --time counts minutes when it is a bare number); raise or drop that"
                    : timeout.find() ? "the `timeout " + timeout.group(1) + "` in the script did: raise or drop that"
                    : "a step's own limit (`srun --time`), a `timeout` around a command or the program's own time"
                    + " limit did: find which and raise that";
            return Optional.of(none.advise(ran + ", so the job's own limit did not end it; " + which + ". More"
                    + " `#SBATCH --time` would not help."));
        }
        if (progress.line() != null && progress.fraction() >= 1.0) {
            Optional<Duration> at = progress.lineIndex() < 0 ? Optional.empty()
                    : cx.clock().runTimeAt(cx.logLines().get(progress.lineIndex()), elapsed);
            return Optional.of(none.advise("The log says the work was done (" + progress.line() + at.map(a -> ", "
                    + SlurmTime.format(a) + " into the run").orElse("") + "), yet the job ran on to its "
                    + SlurmTime.format(limit) + " limit: the time went after that line (writing the final output, or a"
                    + " process that did not exit: a data-loader worker, an MPI rank, a background command the script"
                    + " waits for). More time would not help: find what it was doing after the work ended and make the"
                    + " script end with it."));
        }
        if (progress.usable() && progress.at() != null && need(elapsed, progress).compareTo(limit) <= 0) {
            Duration quiet = elapsed.minus(progress.at());
            return Optional.of(none.advise("The log's last progress is " + progress.said() + ", " + progress.took(elapsed)
                    + " into the run: " + share(progress) + " of the work, a rate at which the whole run needed about "
                    + SlurmTime.format(atRate(elapsed, progress)) + ", less than the " + SlurmTime.format(limit)
                    + " it had. It made no progress the log shows in its last " + SlurmTime.format(quiet) + ": it"
                    + " stalled or slowed down (a hung read, a deadlock, a node that slowed); find what it did then (its"
                    + " last lines) before asking for more time."));
        }
        return Optional.empty();
    }

    /**
     * A job whose script's {@code --time} slurmctld cut to end by its {@code --deadline}
     * ({@link JobRecord#timeLimitCutToDeadline}) gets no longer {@code --time}: it would be cut the same way, so the
     * advice says what gives the run its time (the real lab's deadline_cut, 10 minutes asked and 1 given, was patched to
     * 00:15:00 beside the advice that a longer --time is cut the same way). {@code need}: the run's measured need, else
     * null.
     */
    private static Optional<Step> cutToDeadline(JobRecord job, Step step, BatchScript s, Duration asked, Duration need) {
        if (!job.timeLimitCutToDeadline(asked)) {
            return Optional.empty();
        }
        String script = s.option("time").map(BatchScript.Option::value).orElse(SlurmTime.format(asked)).strip();
        String more = need == null || need.compareTo(asked) <= 0 ? ""
                : " (at the rate its log shows, the whole run needs about " + SlurmTime.format(need) + ", more than"
                + " its script's " + script + ": raise --time too then)";
        return Optional.of(step.advise("Job " + job.id() + " ran with --time " + job.timeLimit().human() + ", not its"
                + " script's " + script + ", because slurmctld cut the limit to the time left before its --deadline "
                + SlurmTime.iso(job.deadline()) + (job.timeMin() == null ? "" : " (its --time-min "
                + SlurmTime.format(job.timeMin()) + " lets it start with less than its --time)") + "; no command line"
                + " overrode it. A longer --time is cut the same way, so none is proposed: give a later --deadline (or"
                + " none), or submit it earlier, for the run to get its " + script + more + "."));
    }

    /** The same with the progress already read from the logs (the rerun_time fixer reads it first). */
    Step apply(FixContext cx, BatchScript s, Progress progress) {
        JobRecord job = cx.job();
        Step step = Step.none(s);
        Duration elapsed = job.elapsed();
        Optional<Duration> scriptLimit = s.option("time").flatMap(o -> SlurmTime.parseDuration(o.value()));
        Duration limit = job.timeLimit().limit().orElse(scriptLimit.orElse(null));
        boolean measured = progress.usable();
        Duration need = measured ? need(elapsed, progress) : roundUp(elapsed.multipliedBy(2));
        Duration estimate = need;
        Optional<Step> cut = scriptLimit.isEmpty() ? Optional.empty()
                : cutToDeadline(job, step, s, scriptLimit.get(), measured ? need : null);
        if (cut.isPresent()) {
            return cut.get();
        }
        if (limit != null && need.compareTo(limit) <= 0) {
            need = roundUp(limit.plus(limit.dividedBy(2)));
        }
        // the estimate as it was made, and the floor said as one when it was raised to it (it read "the 00:02:05 it
        // ran is doubled: 03:00:00"; an outside audit)
        String floor = need.equals(estimate) ? "" : ", less than the " + SlurmTime.format(limit) + " it had, so half"
                + " again that limit: " + SlurmTime.format(need);
        String why = measured
                ? String.format(Locale.ROOT, "it did %s of the work in %s (%s), so the whole run needs"
                + " about %s with 20%% headroom", share(progress), progress.took(elapsed), progress.said(),
                SlurmTime.format(estimate)) + floor
                : "no progress could be read from the logs, so the " + SlurmTime.format(elapsed) + " it ran is doubled: "
                + SlurmTime.format(estimate) + floor;
        Optional<Partition> part = cx.partition(s);
        Duration max = part.flatMap(Partition::maxTimeLimit).orElse(null);
        String was = limit == null ? "" : " (was " + SlurmTime.format(limit) + ")";
        // the job's QOS caps its time on every partition (QOSMaxWallDurationPerJobLimit), unless the partition has a
        // QOS of its own, which comes first: a QOS that does not allow the need sends the job to one that does, named,
        // or caps the time at its MaxWall
        Optional<Qos> qos = cx.timeQos(part);
        boolean qosShort = qos.isPresent() && !qos.get().allows(need);
        boolean ownQos = qos.isPresent() && Qos.isOwnQos(qos.get(), part.orElse(null));
        String qosWhy = qos.map(q -> qosShort ? "; " + QosWallFixer.cap(q, part.orElse(null)) : "").orElse("");
        if (max == null || need.compareTo(max) <= 0) {
            String within = part.isEmpty() ? " (the partition's MaxTime is unknown)"
                    : ", within the " + part.get().maxTime() + " MaxTime of partition " + part.get().name();
            if (!qosShort) {
                Step fits = step.change(s.withOption("time", SlurmTime.format(need)), "--time=" + SlurmTime.format(need)
                        + was, why + within);
                // with the QOS unknown, the check is said only where no partition MaxTime caps the time (UNLIMITED or
                // unknown): a QOS is then the only limit that could refuse it; not a line on every time fix
                return max == null ? qosChecked(fits, qos) : fits;
            }
            Optional<Qos> other = ownQos ? Optional.empty()
                    : cx.qosFor(need, part.map(Partition::name).orElse(""), qos.get().name());
            if (other.isPresent()) {
                return QosWallFixer.access(step.change(s.withOption("time", SlurmTime.format(need))
                        .withOption("qos", other.get().name()), "--qos=" + other.get().name() + " (was " + qos.get().name()
                        + "), --time=" + SlurmTime.format(need) + was, why + within + qosWhy + ", "
                        + QosWallFixer.allowance(other.get())), cx, other.get(), qos.get(),
                        part.map(Partition::name).orElse(""));
            }
            return QosWallFixer.capped(step, s, qos.get(), cx, limit, was, why + within + qosWhy, need,
                    part.orElse(null));
        }
        // capped: the partition cannot give this run the time it needs
        String pname = part.get().name();
        String cap = SlurmTime.format(max);
        boolean gpus = cx.usesGpus(s);
        // the partition that allows the run and holds the rest of the request, as a pending job's PartitionTimeLimit
        // moves there: the change that lets it finish, not a requeue of a program that cannot resume (an outside
        // audit: 1016's GATK run and 22542799's training were given --requeue and left the move to prose)
        Optional<Partition> move = s.options().isEmpty() ? Optional.empty()
                : PartitionLimitsFixer.longerFitting(cx, part.get(), need, gpus || part.get().hasGpus(), s);
        // on the new partition a QOS still caps the time: its own (longerFitting takes only one that allows the need),
        // else the job's, and then the move needs a QOS that allows it too
        Optional<Qos> there = move.isPresent() ? cx.timeQos(move) : Optional.empty();
        boolean thereOwn = there.isPresent() && Qos.isOwnQos(there.get(), move.get());
        boolean thereShort = there.isPresent() && !there.get().allows(need);
        // a partition that does not admit the job's QOS (AllowQos/DenyQos) takes the job only with another QOS
        Optional<Qos> refused = move.isPresent() && cx.refusesJobQos(move.get()) ? cx.jobQos() : Optional.empty();
        boolean unmovable = move.isPresent() && cx.refusesJobQos(move.get()) && refused.isEmpty();
        if (refused.isPresent() && !thereShort) {
            there = refused;
        }
        Optional<Qos> moveQos = move.isPresent() && ((thereShort && !thereOwn) || refused.isPresent())
                ? cx.qosFor(need, move.get().name(), there.get().name()) : Optional.empty();
        if (move.isPresent() && !unmovable && (!thereShort || moveQos.isPresent())
                && (refused.isEmpty() || moveQos.isPresent())) {
            Partition o = move.get();
            BatchScript next = s.withOption("partition", o.name()).withOption("time", SlurmTime.format(need));
            String what = "--partition=" + o.name() + " (was " + pname + "), --time=" + SlurmTime.format(need) + was;
            String whyMove = why + "; partition " + pname + " allows at most " + cap + " (MaxTime), " + o.name()
                    + " allows " + o.maxTime();
            Optional<String[]> gres = PartitionLimitsFixer.gresFor(s, o);
            if (gres.isPresent()) {
                next = next.withOption("gres", gres.get()[1]);
                what += ", --gres=" + gres.get()[1] + " (was " + gres.get()[0] + ")";
                whyMove += ", and its nodes have " + o.gres() + ": the GPU type changes with it";
            }
            if (moveQos.isPresent()) {
                next = next.withOption("qos", moveQos.get().name());
                what += ", --qos=" + moveQos.get().name() + " (was " + there.get().name() + ")";
                whyMove += "; " + (thereShort ? QosWallFixer.cap(there.get(), null) : QosWallFixer.refusal(o,
                        there.get())) + ", " + QosWallFixer.allowance(moveQos.get());
            } else if (thereOwn) {
                whyMove += ", and its own QOS " + there.get().name() + " allows " + there.get().maxWall() + " (it comes"
                        + " before the job's QOS there)";
            }
            Step moved = step.change(next, what, whyMove).advise("To stay on " + pname + ", ask for at most " + cap
                    + " and make the run resumable: save a checkpoint and continue in a second job"
                    + " (`--dependency=afterany:<jobid>`).");
            return moveQos.isPresent() ? QosWallFixer.access(moved, cx, moveQos.get(), there.get(), move.get().name())
                    : thereOwn ? moved : qosChecked(moved, qos);
        }
        if (qosShort && qos.get().maxWallLimit().get().compareTo(max) <= 0) {
            // the QOS caps the time at or below the partition, on every partition: another partition would not help,
            // and no QOS named like one that allows the need is listed
            return QosWallFixer.capped(step, s, qos.get(), cx, limit, was, why + "; partition " + pname
                    + " allows at most " + cap + " (MaxTime)" + qosWhy, need, part.get());
        }
        if (limit == null || max.compareTo(limit) > 0) {
            step = step.change(s.withOption("time", cap), "--time=" + cap + was + ", capped by partition " + pname,
                    why + "; partition " + pname + " allows at most " + cap + " (MaxTime)");
        }
        List<String> longer = longer(cx, pname, need, gpus);
        // the action first: the compact view shows the first two lines of this
        return step.advise("Partition " + pname + " allows at most " + cap + (limit != null && max.compareTo(limit) <= 0
                ? ", which the job already asked for (so --time stays)" : "") + ": move it to a partition with a longer"
                + " MaxTime" + (longer.isEmpty() ? " (none of this cluster's partitions has one" + (gpus ? " with GPUs" : "")
                + ")" : ", " + String.join(", ", longer) + (gpus ? " (adjust --gres to that partition's GPU type)" : ""))
                + ", or make it resumable (save a checkpoint and continue in a second job,"
                + " `--dependency=afterany:<jobid>`), since " + why
                + (qos.isPresent() ? qosWhy + "." : ". " + QOS_TOO));
    }

    /** The step as it is when the job's QOS allows it (nothing to add), else with the advice to check the QOS. */
    private static Step qosChecked(Step step, Optional<Qos> qos) {
        return qos.isPresent() ? step : step.advise(QOS_TOO);
    }

    /**
     * A partition's MaxTime is not the only cap: the job's QOS may refuse the time (1016 moved to long with QOS normal,
     * which refused 1020's 3 days with QOSMaxWallDurationPerJobLimit; an outside audit). Said only when the cluster's
     * QOSes are unknown (a backend without them, sacctmgr refused); with them the fix itself follows the QOS.
     */
    static final String QOS_TOO = "A QOS may limit the time too: check it allows this with `sacctmgr show qos"
            + " format=Name,MaxWall` (a refusal says QOSMaxWallDurationPerJobLimit).";

    /** The time the whole run needs at the rate it went, with {@link #TIME_HEADROOM}, rounded up. */
    static Duration need(Duration elapsed, Progress progress) {
        return roundUp(Duration.ofSeconds((long) (progress.ranFor(elapsed).toSeconds() / progress.fraction()
                * TIME_HEADROOM)));
    }

    /** The whole run at the rate so far, without headroom, to the minute: what the headroom is added to. */
    static Duration atRate(Duration elapsed, Progress progress) {
        return Duration.ofMinutes((long) Math.ceil(progress.ranFor(elapsed).toSeconds() / progress.fraction() / 60));
    }

    /** The partitions other than {@code pname} that allow {@code need}, described, as {@link PartitionSearch} ranks them. */
    static List<String> longer(FixContext cx, String pname, Duration need, boolean gpus) {
        return cx.search().besides(pname).allowing(need).withGpus(gpus).where(o -> cx.ownQosAllows(o, need))
                .ranked(PartitionSearch.Rank.SHORTEST_MAXTIME).stream().map(Partition::describe).toList();
    }

    /** Rounds up to 15 minutes below 2 hours, else to the hour; less than 1% over a step is not worth another. */
    static Duration roundUp(Duration d) {
        long step = d.compareTo(Duration.ofHours(2)) < 0 ? 900 : 3600;
        long s = d.toSeconds();
        long rem = s % step;
        if (rem > 0 && rem < step / 100 && s > step) {
            s -= rem;
        }
        return Duration.ofSeconds((s + step - 1) / step * step);
    }

    /**
     * How far the run got: a fraction in [0, 1], or 0 when no line says, and the line that says it, in words
     * ({@code line}) and by its index in the log lines read ({@code lineIndex}, -1 when no line says: the logs' clock
     * dates it by that line). {@code timed}: the program measured the time left itself (its rate over the steps left,
     * its eta), so the fraction is a reading however small; otherwise the share of the work done, too rough to
     * extrapolate below {@link #MIN_PROGRESS}.
     */
    record Progress(double fraction, String line, int lineIndex, boolean timed, Duration at) {
        /** No line of the logs says how far the run got. */
        static final Progress NONE = new Progress(0, null, -1);

        Progress(double fraction, String line, int lineIndex) {
            this(fraction, line, lineIndex, false, null);
        }

        Progress(double fraction, String line, int lineIndex, boolean timed) {
            this(fraction, line, lineIndex, timed, null);
        }

        /** The same progress, reached {@code at} into the run by the logs' clock (when known). */
        Progress at(Optional<Duration> when) {
            return when.map(w -> new Progress(fraction, line, lineIndex, timed, w)).orElse(this);
        }

        /** How long the run took to get this far: the time by the logs' clock when known, else all it ran. */
        Duration ranFor(Duration elapsed) {
            return at != null ? at : elapsed;
        }

        /** The time it took, in the words of a why: {@code 08:00:27}, or {@code its first 05:56:58}. */
        String took(Duration elapsed) {
            return (at != null ? "its first " : "") + SlurmTime.format(ranFor(elapsed));
        }

        /** The line it was read from, with how it was dated when the logs' clock dated it. */
        String said() {
            return line + (at != null ? ", by the log's timestamps" : "");
        }

        /** Whether the whole run's time can be told from it. */
        boolean usable() {
            return fraction < 1.0 && (fraction >= MIN_PROGRESS || timed && fraction > 0);
        }
    }

    /** The share of the work a run did, in words: "about 24%", or "less than 1%" (a rate's reading of a long run). */
    static String share(Progress progress) {
        double pct = progress.fraction() * 100;
        return pct < 0.5 ? "less than 1%" : String.format(Locale.ROOT, "about %.0f%%", pct);
    }

    /**
     * Seconds a step takes at a rate printed as {@code 0.49 s/it}, {@code 1.93 s/step}, {@code 12.5 it/s} or
     * {@code 3 steps/s}; 0 when it says nothing.
     */
    private static double secondsPerStep(String number, String unit) {
        double v;
        try {
            v = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            return 0;
        }
        if (!(v > 0) || Double.isInfinite(v)) {
            return 0;
        }
        return unit.toLowerCase(Locale.ROOT).startsWith("s/") ? v : 1 / v;
    }

    /**
     * How far the run got, from the newest line of the logs that says. A step count on a line that names its epoch
     * without a total ({@code epoch 22 | step 900/2502}) is progress within that epoch, read against the script's
     * {@code --epochs 90} (1015: 23.7% of the run, not 36%; an outside audit), and no reading at all without it. With
     * the time the job ran ({@code elapsed}, may be null), a trainer's own estimate of the time left
     * ({@code eta: 1 day, 8:43:00}, Python's timedelta as detectron2 prints it) is progress too, the time it ran over
     * the time it ran and had left (1028: 1:58 run, 1 day 8:43 left; an outside audit).
     */
    Progress progress(FixContext cx, String script, Duration elapsed) {
        Progress p = progress(cx.logLines(), script, elapsed);
        // a share of the work (not a trainer's own estimate of the time left) is dated by its line's timestamp
        return p.usable() && !p.timed() && p.lineIndex() >= 0
                ? p.at(cx.clock().runTimeAt(cx.logLines().get(p.lineIndex()), elapsed)) : p;
    }

    /** As above, without the logs' clock: the progress carries the index of its line in {@code lines}. */
    Progress progress(List<String> lines, String script, Duration elapsed) {
        Boolean whole = null;
        Map<String, Long> totals = null;
        long epochs = -2; // the script's total of epochs, read once when a line needs it (-1: it names none)
        for (int i = lines.size() - 1; i >= 0; i--) {
            String l = lines.get(i);
            Optional<Matcher> bare = patterns.find("progress.epoch_bare", l);
            Optional<Matcher> inEpoch = bare.flatMap(b -> patterns.find("progress.step", l.substring(b.end())));
            if (inEpoch.isPresent()) {
                if (epochs == -2) { // line by line: a long script's --epochs lies past what one find reads
                    epochs = patterns.first("progress.epochs_total", script == null ? List.of() : script.lines().toList())
                            .map(m -> count(m.group(1))).orElse(-1L);
                }
                Matcher st = inEpoch.get();
                long n = count(bare.get().group(1));
                long a = count(st.group(1));
                long b = count(st.group(2));
                if (epochs > 0 && n >= 1 && n <= epochs && b > 0 && a >= 0 && a <= b) {
                    return new Progress((n - 1 + a / (double) b) / epochs, quote(l, bare.get().start())
                            + " of the script's " + epochs + " epochs", i);
                }
                continue; // a step within an epoch of an unknown number: not the run's progress
            }
            Optional<Matcher> eta = elapsed == null || elapsed.isZero() ? Optional.empty() : patterns.find("progress.eta", l);
            if (eta.isPresent()) {
                long days = eta.get().group(1) == null ? 0 : count(eta.get().group(1));
                long left = days * 86_400 + count(eta.get().group(2)) * 3600 + count(eta.get().group(3)) * 60
                        + count(eta.get().group(4));
                if (days >= 0 && left >= 0 && left < MAX_LEFT_SECONDS) {
                    return new Progress(elapsed.toSeconds() / (double) (elapsed.toSeconds() + left),
                            quote(l, eta.get().start()), i, true);
                }
            }
            Optional<Matcher> epoch = patterns.find("progress.epoch", l);
            if (epoch.isPresent()) {
                long n = count(epoch.get().group(1));
                long m = count(epoch.get().group(2));
                if (m <= 0 || n < 0 || n > m) {
                    continue;
                }
                double within = 0;
                Optional<Matcher> st = patterns.find("progress.step", l.substring(epoch.get().end()));
                if (patterns.matches("progress.done", l)) {
                    within = 1;
                } else if (st.isPresent()) {
                    long a = count(st.get().group(1));
                    long b = count(st.get().group(2));
                    within = b > 0 && a >= 0 && a <= b ? a / (double) b : 0;
                }
                return new Progress((n - 1 + within) / m, quote(l, epoch.get().start()), i);
            }
            Optional<Matcher> st = patterns.find("progress.step", l);
            if (st.isPresent()) {
                long a = count(st.get().group(1));
                long b = count(st.get().group(2));
                if (b > 0 && a >= 0 && a <= b) {
                    // the program's own rate on the line: the steps left at that rate are the time the rest takes,
                    // a reading of the run however little of it is done (1023: 1,050 of 160,000 at 0.49 s each)
                    Optional<Matcher> rate = elapsed == null || elapsed.isZero() ? Optional.empty()
                            : patterns.find("progress.rate", l.substring(st.get().end()));
                    double perStep = rate.map(r -> secondsPerStep(r.group(1), r.group(2))).orElse(0.0);
                    double left = (b - a) * perStep;
                    if (perStep > 0 && a < b && left < MAX_LEFT_SECONDS) {
                        return new Progress(elapsed.toSeconds() / (elapsed.toSeconds() + left),
                                "\"" + st.get().group().strip().replaceAll("\\s+", " ") + "\" at " + rate.get().group(1) + " " + rate.get().group(2),
                                i, true);
                    }
                    return new Progress(a / (double) b, quote(l, st.get().start()), i);
                }
            }
            if (totals == null && patterns.matches("progress.unit_done", l)) {
                totals = totals(lines); // once, however many units the log says are done
            }
            Optional<Progress> units = units(totals == null ? Map.of() : totals, l, i);
            if (units.isPresent()) {
                return units.get();
            }
            Optional<Matcher> at = patterns.find("progress.genome", l);
            if (at.isPresent() && whole == null) {
                whole = wholeHumanGenome(lines); // once: a mouse run's thousand ProgressMeter lines ask once
            }
            if (at.isPresent() && whole) {
                String contig = at.get().group(1);
                String position = at.get().group(2);
                java.util.OptionalDouble f = GENOME.fraction(contig, count(position.replace(",", "")));
                if (f.isPresent()) {
                    return new Progress(f.getAsDouble(), "\"" + contig + ":" + position + "\" along the human genome",
                            i);
                }
            }
        }
        return Progress.NONE;
    }

    /** A count a log printed, or -1 when it is too long to be one (a hostile or broken log). */
    private static long count(String digits) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The chromosomes in the order a whole-genome run walks them, for a position's progress. */
    private static final GenomePosition GENOME = GenomePosition.bundled();

    /** Whether a genome position can stand for progress: no other organism's reference, no one region asked for. */
    private boolean wholeHumanGenome(List<String> lines) {
        return lines.stream().noneMatch(l -> patterns.matches("progress.other_genome", l)
                || patterns.matches("progress.one_region", l));
    }

    /**
     * How far a run of units got, from {@code line}: "sample 3 of 10" (two done, or three when the line says done),
     * or "member 03 done" counted against the total the log announced ("5 members", in {@code totals}); empty when
     * the line says neither or the numbers do not fit. {@code index}: the line's index in the log lines.
     */
    private Optional<Progress> units(Map<String, Long> totals, String line, int index) {
        Optional<Matcher> of = patterns.find("progress.unit_of", line);
        if (of.isPresent()) {
            long n = Long.parseLong(of.get().group(1));
            long m = Long.parseLong(of.get().group(2));
            if (m > 0 && n >= 1 && n <= m) {
                long done = patterns.matches("progress.done", line.substring(of.get().end())) ? n : n - 1;
                return Optional.of(new Progress(done / (double) m, quote(line, of.get().start()), index));
            }
        }
        Optional<Matcher> done = patterns.find("progress.unit_done", line);
        if (done.isEmpty()) {
            return Optional.empty();
        }
        String unit = done.get().group(1).toLowerCase(Locale.ROOT);
        long n = Long.parseLong(done.get().group(2));
        Long m = totals.get(unit);
        if (m == null || m <= 0 || n < 0 || n > m) {
            return Optional.empty();
        }
        return Optional.of(new Progress(n / (double) m, quote(line, done.get().start()) + " of " + m + " " + unit + "s", index));
    }

    /** The totals of units the log announced ("5 members"), by unit, the first of each. */
    private Map<String, Long> totals(List<String> lines) {
        Map<String, Long> out = new java.util.HashMap<>();
        for (String l : lines) {
            patterns.find("progress.total", l).ifPresent(m -> {
                out.putIfAbsent(m.group(2).toLowerCase(Locale.ROOT), count(m.group(1)));
            });
        }
        return out;
    }

    private static String quote(String line, int from) {
        String s = line.substring(Math.max(0, Math.min(from, line.length()))).strip();
        return "\"" + (s.length() > 40 ? s.substring(0, 40).strip() + "..." : s) + "\"";
    }
}
