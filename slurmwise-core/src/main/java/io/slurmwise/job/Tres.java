package io.slurmwise.job;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Trackable resources as SLURM prints them: {@code cpu=16,mem=64G,node=1,billing=16,gres/gpu=1,gres/gpu:a100=1}.
 * Unknown keys are kept; malformed pairs are skipped.
 */
public record Tres(Map<String, String> values) {

    public static final Tres EMPTY = new Tres(Map.of());

    public Tres {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public static Tres parse(String text) {
        if (text == null || text.isBlank()) {
            return EMPTY;
        }
        Map<String, String> map = new LinkedHashMap<>();
        int count = 0;
        for (String pair : text.strip().split(",")) {
            if (++count > 256) {
                break;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0 || eq == pair.length() - 1) {
                continue;
            }
            map.put(pair.substring(0, eq).strip().toLowerCase(Locale.ROOT), pair.substring(eq + 1).strip());
        }
        return new Tres(map);
    }

    public Optional<String> get(String key) {
        return Optional.ofNullable(values.get(key.toLowerCase(Locale.ROOT)));
    }

    public int cpus() {
        return intValue("cpu");
    }

    public int nodes() {
        return intValue("node");
    }

    public Optional<DataSize> memory() {
        return get("mem").flatMap(DataSize::tryParse);
    }

    /** Allocated GPUs: {@code gres/gpu=N}, else the sum over typed {@code gres/gpu:model=N}. */
    public int gpus() {
        if (values.containsKey("gres/gpu")) {
            return intValue("gres/gpu");
        }
        long sum = 0;
        for (Map.Entry<String, String> e : values.entrySet()) {
            if (e.getKey().startsWith("gres/gpu:")) {
                sum += parseInt(e.getValue());
            }
        }
        return (int) Math.min(Integer.MAX_VALUE, sum); // typed counts near 2^31 must not wrap negative
    }

    /**
     * GPUs by model, from the typed entries ({@code gres/gpu:a100=2,gres/gpu:v100=2} -> a100=2, v100=2), in the
     * order the TRES lists them; empty when no entry is typed.
     */
    public Map<String, Integer> gpusByModel() {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            if (e.getKey().startsWith("gres/gpu:")) {
                out.merge(e.getKey().substring("gres/gpu:".length()), parseInt(e.getValue()),
                        (a, b) -> (int) Math.min(Integer.MAX_VALUE, (long) a + b));
            }
        }
        return out;
    }

    /** The GPU model named by a typed entry ({@code gres/gpu:a100=1} -> {@code a100}), if any. */
    public Optional<String> gpuModel() {
        return gpusByModel().keySet().stream().findFirst();
    }

    private int intValue(String key) {
        String v = values.get(key);
        return v == null ? 0 : parseInt(v);
    }

    private static int parseInt(String v) {
        try {
            long n = Long.parseLong(v);
            return (int) Math.min(Integer.MAX_VALUE, Math.max(0, n));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        values.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ",").append(k).append('=').append(v));
        return sb.toString();
    }
}
