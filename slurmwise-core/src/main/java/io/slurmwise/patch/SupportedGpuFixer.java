package io.slurmwise.patch;

import io.slurmwise.job.GpuModels;
import io.slurmwise.job.Partition;
import io.slurmwise.job.PartitionSearch;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;

/**
 * {@code supported_gpu}: a job whose framework has no kernels for its GPU moves to a partition whose GPUs the
 * framework was built for, as its own warning lists them (PyTorch's "The current PyTorch install supports CUDA
 * capabilities sm_37 sm_50 ... sm_86." after "NVIDIA H100 80GB HBM3 with CUDA capability sm_90 is not compatible");
 * each partition's GPU type is read against NVIDIA's compute capabilities ({@link GpuModels}). 1038's patch said "no
 * mechanical change" while the cluster has A100s (sm_80) its PyTorch runs on (an outside audit). The lasting fix, a
 * build for the job's GPU, stays the note's first; the move is said as the way to run now. Nothing moves without the
 * list, without a partition whose one GPU type is in it, or when the job's own GPU type is in it.
 */
final class SupportedGpuFixer implements Fixer {

    private final Patterns patterns;

    SupportedGpuFixer(Patterns patterns) {
        this.patterns = patterns;
    }

    /** The compute capability of a GRES GPU type, as a build names it without "sm_" (80), when one is the type's. */
    static OptionalInt capability(String type) {
        return GpuModels.bundled().of(type).map(GpuModels.GpuModel::sm).orElse(OptionalInt.empty());
    }

    @Override
    public String name() {
        return "supported_gpu";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        Optional<Matcher> list = patterns.first("gpu.supported", cx.logLines());
        if (list.isEmpty()) {
            return Step.none(s);
        }
        Set<Integer> supported = new TreeSet<>();
        Matcher sm = java.util.regex.Pattern.compile("sm_(\\d{1,4})\\b").matcher(list.get().group(1));
        while (sm.find()) {
            supported.add(Integer.parseInt(sm.group(1)));
        }
        Optional<Partition> own = cx.partition(s);
        if (supported.isEmpty() || own.isEmpty() || !own.get().hasGpus()) {
            return Step.none(s);
        }
        Optional<Integer> mine = typeOf(own.get()).flatMap(t -> box(capability(t)));
        if (mine.isPresent() && supported.contains(mine.get())) {
            return Step.none(s); // the job's GPU is in the list: another cause
        }
        // the rest of the request must fit there as it is: its time and its memory per node
        PartitionSearch search = cx.search().besides(own.get().name()).withGpus(true)
                .where(p -> typeOf(p).flatMap(t -> box(capability(t))).map(supported::contains).orElse(false));
        Optional<java.time.Duration> time = cx.job().timeLimit().limit();
        if (time.isPresent()) {
            search = search.allowing(time.get());
        }
        Optional<io.slurmwise.job.DataSize> perNode = cx.job().memoryPerNode();
        if (perNode.isPresent()) {
            search = search.holding(perNode.get());
        }
        Optional<Partition> to = search.best(PartitionSearch.Rank.LEAST_MEMORY);
        if (to.isEmpty()) {
            return Step.none(s);
        }
        Partition o = to.get();
        String type = typeOf(o).orElseThrow();
        BatchScript next = s.withOption("partition", o.name());
        String what = "--partition=" + o.name() + " (was " + own.get().name() + ")";
        Optional<String[]> gres = PartitionLimitsFixer.gresFor(s, o);
        if (gres.isPresent()) {
            next = next.withOption("gres", gres.get()[1]);
            what += ", --gres=" + gres.get()[1] + " (was " + gres.get()[0] + ")";
        }
        String built = String.join(" ", supported.stream().map(n -> "sm_" + n).toList());
        String gpu = typeOf(own.get()).orElse("job's GPU");
        String why = mine.map(m -> "no kernels for the " + gpu + "'s sm_" + m + "; ").orElse("") + o.name() + "'s " + type
                + " (sm_" + capability(type).getAsInt() + ") is among the GPUs the framework was built for (" + built
                + "), so it runs there now; the lasting fix is a build for the " + gpu + " (the first fix)";
        Step step = Step.none(s).change(next, what, why);
        Optional<BatchScript.Option> qos = s.option("qos");
        if (qos.isPresent() && qos.get().value() != null) {
            // the job ran with its QOS, so its association has it; what is left is whether the partition admits it
            // (AllowQos/DenyQos), said when scontrol said it (an outside audit: 1038 was told to check what was known)
            String q = qos.get().value().strip();
            if (o.qosAccess().refuses(q)) {
                step = step.warn("Partition " + o.name() + " admits " + o.qosAccess().describe() + ", not the script's"
                        + " --qos=" + q + ": change --qos to one of those that your account may use (`sacctmgr show"
                        + " assoc user=$USER format=account,qos` lists yours).");
            } else if (!o.qosAccess().known()) {
                step = step.advise("The script's --qos=" + q + " must be allowed on " + o.name() + " too: `scontrol"
                        + " show partition " + o.name() + "` shows its AllowQos and DenyQos.");
            }
        }
        return step;
    }

    /** A partition's GPU type, when it has one type only. */
    private static Optional<String> typeOf(Partition p) {
        Map<String, Integer> types = p.gpusByType();
        return types.size() == 1 ? Optional.of(types.keySet().iterator().next()).filter(t -> !t.isEmpty())
                : Optional.empty();
    }

    private static Optional<Integer> box(OptionalInt i) {
        return i.isPresent() ? Optional.of(i.getAsInt()) : Optional.empty();
    }
}
