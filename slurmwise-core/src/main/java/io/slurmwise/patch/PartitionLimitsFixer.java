package io.slurmwise.patch;

import io.slurmwise.job.DataSize;
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
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code partition_limits}: the nearest request its partition can run, for a job asking for more than the partition
 * or one of its nodes has (it is refused, or pends with PartitionTimeLimit or PartitionConfig for ever): a {@code
 * --time} above the MaxTime moves to the partition that allows it and holds the rest of the request (a typed --gres
 * changes to its GPU type), else down to the MaxTime; a {@code --mem} above a node moves to the partition whose nodes
 * hold it, else down to what one node has, tasks per node down to what one node's CPUs
 * hold (with more nodes, so the job keeps its tasks); GPUs per node above what a node has, or a GPU type or GPUs the
 * partition does not have, are said with the partitions that have them (a multi-node GPU job needs its launch line
 * changed too, so that is no mechanical edit). The advice names the partitions that allow the original request.
 */
final class PartitionLimitsFixer implements Fixer {

    private static final Pattern GPUS_PER_NODE = Pattern.compile("^(?:([A-Za-z][\\w.-]*):)?(\\d+)$");
    private static final Pattern COUNT = Pattern.compile("^\\d+$");

    @Override
    public String name() {
        return "partition_limits";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        Step step = Step.none(s);
        Optional<Partition> part = cx.partition(s);
        if (part.isEmpty()) {
            return step.advise("The partition's limits are unknown here: compare the request with `sinfo -o \"%P %l %c %m %G\"`"
                    + " and `scontrol show partition <name>`.");
        }
        Partition p = part.get();
        Partition target = p; // the partition the rest of the request is checked against: the one the job moves to
        JobRecord job = cx.job();
        Optional<Duration> asked = job.timeLimit().limit()
                .or(() -> s.option("time").flatMap(o -> SlurmTime.parseDuration(o.value())));
        Optional<Duration> max = p.maxTimeLimit();
        if (asked.isPresent() && max.isPresent() && asked.get().compareTo(max.get()) > 0) {
            String cap = SlurmTime.format(max.get());
            String want = SlurmTime.format(asked.get());
            boolean gpus = cx.usesGpus(s);
            // only with the script at hand (the rest of the request is checked against the new partition), and a job
            // on a GPU partition stays on GPUs
            Optional<Partition> longer = s.options().isEmpty() ? Optional.empty()
                    : longerFitting(cx, p, asked.get(), gpus || p.hasGpus(), s);
            // the job's QOS caps the time on the new partition too (unless that partition's own QOS comes first, which
            // longerFitting takes only when it allows the time): the move needs a QOS that allows it (the QOS named
            // like that partition), else the longest run it can have is on this partition within both limits
            Optional<Qos> there = longer.flatMap(o -> cx.timeQos(Optional.of(o))).filter(q -> !q.allows(asked.get()));
            boolean thereShort = there.isPresent();
            // a partition that does not admit the job's QOS (AllowQos/DenyQos) takes the job only with another QOS
            boolean refused = longer.isPresent() && cx.refusesJobQos(longer.get());
            if (refused && there.isEmpty()) {
                there = cx.jobQos();
                if (there.isEmpty()) {
                    longer = Optional.empty(); // the job's QOS is not in the table: no QOS to name in its place
                }
            }
            Optional<Qos> moveQos = there.isPresent() && longer.isPresent()
                    ? cx.qosFor(asked.get(), longer.get().name(), there.get().name()) : Optional.empty();
            if (there.isPresent() && moveQos.isEmpty()) {
                longer = Optional.empty();
            }
            Optional<Qos> qos = longer.isPresent() ? there : cx.timeQos(part).filter(q -> !q.allows(asked.get()));
            if (longer.isEmpty() && qos.isPresent()) {
                Duration wall = qos.get().maxWallLimit().orElseThrow();
                if (wall.compareTo(max.get()) < 0) {
                    return QosWallFixer.capped(step, s, qos.get(), cx, null, " (was " + want + ")",
                            "partition " + p.name() + " allows at most " + cap + " (MaxTime) and "
                                    + QosWallFixer.cap(qos.get(), p) + ", so the job's " + want + " can never start",
                            asked.get(), p);
                }
            }
            if (longer.isPresent()) {
                // the job asked for the time it needs: the partition that allows it, not a cut that times out (an
                // outside audit: 1055 asked 24h "because 22542799 needed more than 12h" and was cut to 12h)
                Partition o = longer.get();
                BatchScript next = s.withOption("partition", o.name());
                String what = "--partition=" + o.name() + " (was " + p.name() + ")";
                String why = "partition " + p.name() + " allows at most " + cap + " (MaxTime), so the job's " + want
                        + " can never start there; " + o.name() + " allows " + o.maxTime();
                Optional<String[]> gres = gresFor(s, o);
                if (gres.isPresent()) {
                    next = next.withOption("gres", gres.get()[1]);
                    what += ", --gres=" + gres.get()[1] + " (was " + gres.get()[0] + ")";
                    why += ", and its nodes have " + o.gres() + ": the GPU type changes with it";
                }
                if (moveQos.isPresent()) {
                    next = next.withOption("qos", moveQos.get().name());
                    what += ", --qos=" + moveQos.get().name() + " (was " + qos.get().name() + ")";
                    why += "; " + (thereShort ? QosWallFixer.cap(qos.get(), null) : QosWallFixer.refusal(o, qos.get()))
                            + ", " + QosWallFixer.allowance(moveQos.get());
                }
                target = o;
                step = step.change(next, what, why).advise("To stay on " + p.name() + ", ask for at most " + cap
                        + " and checkpoint, continuing in a second job (`--dependency=afterany:<jobid>`).");
                if (moveQos.isPresent()) {
                    step = QosWallFixer.access(step, cx, moveQos.get(), qos.get(), o.name());
                }
            } else {
                List<String> named = TimeFixer.longer(cx, p.name(), asked.get(), gpus);
                step = step.change(s.withOption("time", cap), "--time=" + cap + " (was " + want + ")",
                        "partition " + p.name() + " allows at most " + cap + " (MaxTime), so the job can never start as"
                                + " submitted; this is the longest run it can have there");
                step = qos.isPresent() && !Qos.isOwnQos(qos.get(), p)
                        // another partition would not help: the QOS caps the time there too
                        ? step.advise("As " + QosWallFixer.cap(qos.get(), p) + ", no partition gives it " + want
                                + ": checkpoint and continue in a second job"
                                + " (`--dependency=afterany:<jobid>`), or use a QOS that allows it if your account may"
                                + " (`sacctmgr show assoc where user=$USER format=Account,QOS` lists yours).")
                        : step.advise("To keep " + want + ", submit to a partition that allows it"
                                + (named.isEmpty() ? " (none of this cluster's partitions does" + (gpus ? " with GPUs" : "") + ")"
                                : ": " + String.join(", ", named) + (gpus ? "; adjust --gres to that partition's GPU type" : ""))
                                + ", or checkpoint and continue in a second job (`--dependency=afterany:<jobid>`).");
            }
        }
        Optional<DataSize> mem = s.option("mem").flatMap(o -> DataSize.tryParse(o.value()));
        if (target == p && mem.isPresent() && p.memoryPerNode() != null && mem.get().bytes() > p.memoryPerNode().bytes()) {
            String written = s.option("mem").map(o -> o.value()).orElse(mem.get().toString());
            Optional<Partition> bigger = step.changes().isEmpty() ? larger(cx, p, mem.get(), asked, cx.usesGpus(s))
                    : Optional.empty();
            if (bigger.isPresent()) {
                // the job asked for what it needs: the partition whose nodes hold it, not a request cut to fail later
                Partition b = bigger.get();
                step = step.change(step.script().withOption("partition", b.name()), "--partition=" + b.name()
                                + " (was " + p.name() + ")", "a " + p.name() + " node has " + p.memoryPerNode()
                                + ", so --mem=" + written + " per node can never be met there; a " + b.name() + " node has "
                                + b.memoryPerNode());
            } else {
                String cap = MemoryFixer.size(MemoryFixer.roundDown(p.memoryPerNode().bytes()));
                step = step.change(step.script().withOption("mem", cap), "--mem=" + cap + " (was " + written + ")",
                        "a " + p.name() + " node has " + p.memoryPerNode() + ", so a larger --mem per node can never be"
                                + " met there, and no partition of this cluster has larger nodes");
            }
        }
        step = cpusPerNode(cx, step, target);
        return gpusPerNode(cx, step, target);
    }

    /** The partition whose nodes hold {@code need} per node and whose MaxTime allows the job's time: least memory first. */
    private static Optional<Partition> larger(FixContext cx, Partition p, DataSize need, Optional<Duration> time,
                                              boolean gpus) {
        return cx.search().besides(p.name()).holding(need).allowing(time.orElse(null)).withGpus(gpus)
                .best(PartitionSearch.Rank.LEAST_MEMORY);
    }

    /**
     * The partition whose MaxTime allows {@code time} and whose nodes hold the rest of the request as written (memory
     * per node, GPUs per node): shortest MaxTime first. Empty when the request says GPUs in a form this fixer does not
     * rewrite (--gpus-per-node with a type) and the partition lacks that type. A partition known to refuse the job's
     * QOS (AllowQos/DenyQos) is one only when it admits another QOS of the user's that allows the time: else the next
     * one is taken (the best alone left the job with no move where the second would do).
     */
    static Optional<Partition> longerFitting(FixContext cx, Partition p, Duration time, boolean gpus, BatchScript s) {
        Optional<DataSize> mem = s.option("mem").flatMap(o -> DataSize.tryParse(o.value()));
        Optional<GpuAsk> ask = GpuAsk.of(s);
        return cx.search().besides(p.name()).allowing(time).withGpus(gpus).where(o -> cx.ownQosAllows(o, time))
                .where(o -> !cx.refusesJobQos(o)
                        || cx.jobQos().flatMap(q -> cx.qosFor(time, o.name(), q.name())).isPresent())
                .where(o -> mem.isEmpty() || o.memoryPerNode() == null || mem.get().bytes() <= o.memoryPerNode().bytes())
                .where(o -> ask.isEmpty() || fitsGpus(ask.get(), o))
                .best(PartitionSearch.Rank.SHORTEST_MAXTIME);
    }

    /** Whether partition {@code o}'s nodes hold the GPUs asked per node, with the type rewritten only in --gres. */
    private static boolean fitsGpus(GpuAsk ask, Partition o) {
        Map<String, Integer> has = o.gpusByType();
        int total = has.values().stream().mapToInt(Integer::intValue).sum();
        if (ask.type() == null || has.containsKey(ask.type().toLowerCase(Locale.ROOT))) {
            return ask.type() == null ? total >= ask.count() : has.get(ask.type().toLowerCase(Locale.ROOT)) >= ask.count();
        }
        // another type: only a --gres request is rewritten to the partition's type
        return ask.option().startsWith("--gres=") && has.size() == 1 && total >= ask.count();
    }

    /** {was, now} of a typed --gres request whose type partition {@code o} lacks, rewritten to its one GPU type. */
    static Optional<String[]> gresFor(BatchScript s, Partition o) {
        Optional<GpuAsk> ask = GpuAsk.of(s);
        Map<String, Integer> has = o.gpusByType();
        Optional<BatchScript.Option> gres = s.option("gres");
        if (ask.isEmpty() || ask.get().type() == null || !ask.get().option().startsWith("--gres=") || gres.isEmpty()
                || gres.get().value() == null || has.size() != 1
                || has.containsKey(ask.get().type().toLowerCase(Locale.ROOT))) {
            return Optional.empty();
        }
        String was = gres.get().value().strip();
        String type = has.keySet().iterator().next();
        String now = was.replaceFirst("(?i)(gpu:)" + Pattern.quote(ask.get().type()) + "(?=:|$|,)", "$1" + type);
        return now.equals(was) ? Optional.empty() : Optional.of(new String[] {was, now});
    }

    /** Tasks per node times CPUs per task above a node's CPUs: fewer tasks per node on more nodes. */
    private static Step cpusPerNode(FixContext cx, Step step, Partition p) {
        BatchScript s = step.script();
        int cpus = p.cpusPerNode();
        if (cpus <= 0) {
            return step;
        }
        if (cx.job() != null && !s.has("cpus-per-task") && !s.has("ntasks-per-node") && !s.has("ntasks")) {
            // the CPUs the record asks that the script does not: sbatch's command line, which no patch edits (the real
            // lab's -c 16 on a 2-CPU node was told only "no mechanical change"; an outside audit)
            Optional<String> over = p.tooManyCpus(cx.job());
            if (over.isPresent()) {
                return step.advise("Job " + cx.job().id() + " asks " + over.get() + "; its script sets no"
                        + " --cpus-per-task, --ntasks or --ntasks-per-node, so they came from the sbatch command line"
                        + " (-c, -n) or an SBATCH_* variable, which override #SBATCH lines: resubmit asking at most "
                        + cpus + " per node there (`sbatch -c " + cpus + " ...` for one task), or to a partition with"
                        + " larger nodes (`sinfo -o \"%P %c %m\"`).");
            }
        }
        int perTask = count(s, "cpus-per-task").orElse(1);
        OptionalInt perNode = count(s, "ntasks-per-node");
        if (perTask > cpus) {
            return step.advise("A " + p.name() + " node has " + cpus + " CPUs, so one task with --cpus-per-task=" + perTask
                    + " can never be placed there (a task runs on one node): ask for at most " + cpus
                    + " CPUs per task and more tasks, or a partition with larger nodes (`sinfo -o \"%P %c %m\"`).");
        }
        if (perNode.isEmpty() || perNode.getAsInt() * perTask <= cpus) {
            return step;
        }
        int was = perNode.getAsInt();
        int fit = cpus / perTask;
        String per = perTask == 1 ? "" : " of " + perTask + " CPUs";
        BatchScript next = s.withOption("ntasks-per-node", Integer.toString(fit));
        String why = "a " + p.name() + " node has " + cpus + " CPUs, so " + was + " tasks" + per + " per node can never"
                + " be placed there";
        OptionalInt nodes = count(s, "nodes");
        if (nodes.isPresent()) {
            int tasks = nodes.getAsInt() * was;
            int more = (tasks + fit - 1) / fit;
            if (p.nodes() > 0 && more > p.nodes()) {
                return step.advise(capitalised(why) + "; its " + tasks + " tasks would need " + more + " nodes at "
                        + fit + " per node, and the partition has " + p.nodes() + ": ask for fewer tasks, or a"
                        + " partition with more or larger nodes (`sinfo -o \"%P %D %c\"`).");
            }
            next = next.withOption("nodes", Integer.toString(more));
            return step.change(next, "--ntasks-per-node=" + fit + " (was " + was + "), --nodes=" + more
                    + " (was " + nodes.getAsInt() + ")", why + "; " + more + " nodes of " + fit + " keep its "
                    + tasks + " tasks");
        }
        return step.change(next, "--ntasks-per-node=" + fit + " (was " + was + ")", why);
    }

    /** GPUs per node above what a node has, a GPU type it does not have, or GPUs in a partition without any. */
    private static Step gpusPerNode(FixContext cx, Step step, Partition p) {
        BatchScript s = step.script();
        Optional<GpuAsk> asked = GpuAsk.of(s);
        if (asked.isEmpty()) {
            return step;
        }
        GpuAsk ask = asked.get();
        Map<String, Integer> has = p.gpusByType();
        String request = ask.option();
        if (has.isEmpty()) {
            return step.advise("Partition " + p.name() + " has no GPUs, so " + request + " can never be met there: submit"
                    + " to a partition with GPUs" + others(cx, p, ask.type(), 1) + ".");
        }
        int count = ask.type() == null ? has.values().stream().mapToInt(Integer::intValue).sum()
                : has.getOrDefault(ask.type().toLowerCase(Locale.ROOT), 0);
        if (count == 0) {
            return step.advise("A " + p.name() + " node has " + p.gres() + " and no " + ask.type() + " GPUs, so " + request
                    + " can never be met there: ask for a GPU type it has, or submit to a partition that has "
                    + ask.type() + others(cx, p, ask.type(), ask.count()) + ".");
        }
        if (ask.count() <= count) {
            return step;
        }
        String type = ask.type() == null ? "" : ask.type() + ":";
        int nodes = (ask.count() + count - 1) / count;
        return step.advise("A " + p.name() + " node has " + count + " GPUs (" + p.gres() + "), so " + ask.count()
                + " per node (" + request + ") can never be met there: ask for at most " + count + " per node (the "
                + ask.count() + " GPUs as `--nodes=" + nodes + "` with `--gres=gpu:" + type + count + "`, and one process"
                + " per GPU on each node: `srun`, or torchrun with `--nnodes=" + nodes + "`), or submit to a partition"
                + " whose nodes have " + ask.count() + others(cx, p, ask.type(), ask.count()) + ".");
    }

    /** ": name (gres), ..." for the other up partitions whose nodes have {@code n} GPUs ({@code type} or any). */
    private static String others(FixContext cx, Partition p, String type, int n) {
        List<String> fit = cx.search().besides(p.name()).withGpus(true).where(o -> o.gpusPerNode() >= n)
                .ranked(PartitionSearch.Rank.SHORTEST_MAXTIME).stream()
                .map(o -> o.name() + " (" + o.gres() + (type != null && !o.hasGpuModel(type)
                        ? "; adjust the GPU type" : "") + ")")
                .toList();
        return fit.isEmpty() ? " (none of this cluster's partitions has one)" : ": " + String.join(", ", fit);
    }

    private static OptionalInt count(BatchScript s, String option) {
        return s.option(option).map(BatchScript.Option::value).filter(v -> v != null && COUNT.matcher(v.strip()).matches())
                .map(v -> OptionalInt.of(Integer.parseInt(v.strip()))).orElse(OptionalInt.empty());
    }

    private static String capitalised(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** The GPUs one node is asked for, from {@code --gres=gpu[:type][:n]} or {@code --gpus-per-node=[type:]n}. */
    record GpuAsk(String type, int count, String option) {

        static Optional<GpuAsk> of(BatchScript s) {
            Optional<BatchScript.Option> perNode = s.option("gpus-per-node");
            if (perNode.isPresent() && perNode.get().value() != null) {
                Matcher m = GPUS_PER_NODE.matcher(perNode.get().value().strip());
                if (m.matches()) {
                    return Optional.of(new GpuAsk(m.group(1), Integer.parseInt(m.group(2)),
                            "--gpus-per-node=" + perNode.get().value().strip()));
                }
            }
            Optional<BatchScript.Option> gres = s.option("gres");
            if (gres.isPresent() && gres.get().value() != null) {
                Map<String, Integer> asked = Partition.gpus(gres.get().value());
                if (!asked.isEmpty()) {
                    Map.Entry<String, Integer> first = asked.entrySet().iterator().next();
                    return Optional.of(new GpuAsk(first.getKey().isEmpty() ? null : first.getKey(), first.getValue(),
                            "--gres=" + gres.get().value().strip()));
                }
            }
            return Optional.empty();
        }
    }
}
