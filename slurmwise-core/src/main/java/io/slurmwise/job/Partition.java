package io.slurmwise.job;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A partition and its limits, as sinfo reports them.
 *
 * @param maxTime    the partition's MaxTime ({@code UNLIMITED} when none)
 * @param cpusPerNode CPUs of its nodes (0 when unknown)
 * @param memoryPerNode memory of its nodes (null when unknown)
 * @param gres       generic resources of its nodes, e.g. {@code gpu:a100:4} ("" when none)
 */
public record Partition(String name, boolean isDefault, TimeLimit maxTime, int nodes, int cpusPerNode,
                        DataSize memoryPerNode, String gres, boolean up) {

    /** A GPU entry of a GRES column: {@code gpu:a100:4(S:0-1)}, {@code gpu:4}, {@code gpu} (one). */
    private static final Pattern GRES_GPU = Pattern.compile("(?:^|,)gpu(?::([A-Za-z][\\w.-]*))?(?::(\\d+))?(?=$|,|\\()");

    public Partition {
        gres = gres == null ? "" : gres;
    }

    /** Its MaxTime when it has one (empty for UNLIMITED or unknown). */
    public Optional<Duration> maxTimeLimit() {
        return maxTime.kind() == TimeLimit.Kind.LIMITED ? maxTime.limit() : Optional.empty();
    }

    /** Whether its MaxTime allows a run of {@code need}. */
    public boolean allows(Duration need) {
        return maxTime.kind() == TimeLimit.Kind.UNLIMITED || maxTime.limit().map(m -> m.compareTo(need) >= 0).orElse(false);
    }

    /** Whether its nodes have GPUs. */
    public boolean hasGpus() {
        return gres.contains("gpu");
    }

    /** Whether its nodes have GPUs of {@code model} ({@code a100}, any case). */
    public boolean hasGpuModel(String model) {
        return gpusByType().containsKey(model.toLowerCase(Locale.ROOT));
    }

    /** The GPUs of one node by type, lower case ("" for untyped): {@code gpu:a100:4} is {a100=4}. */
    public Map<String, Integer> gpusByType() {
        return gpus(gres);
    }

    /**
     * The GPUs of a GRES string (sinfo's column, or a job's {@code --gres}) by type, lower case, in its order ("" for
     * untyped; a bare {@code gpu} is one): {@code gpu:a100:2,gpu:v100:2,shard:8} is {a100=2, v100=2}.
     */
    public static Map<String, Integer> gpus(String gres) {
        Map<String, Integer> out = new LinkedHashMap<>();
        if (gres == null) {
            return out;
        }
        Matcher m = GRES_GPU.matcher(gres.strip());
        while (m.find()) {
            String type = m.group(1) == null ? "" : m.group(1).toLowerCase(Locale.ROOT);
            out.merge(type, m.group(2) == null ? 1 : Integer.parseInt(m.group(2)), Integer::sum);
        }
        return out;
    }

    /** The GPUs of one node, of any type; 0 without GPUs. */
    public int gpusPerNode() {
        return gpusByType().values().stream().mapToInt(Integer::intValue).sum();
    }

    /** How advice names it: {@code gpuH100x8 (MaxTime 2-00:00:00, gpu:h100:8)}. */
    public String describe() {
        return name + " (MaxTime " + maxTime + (gres.isBlank() ? "" : ", " + gres) + ")";
    }
}
