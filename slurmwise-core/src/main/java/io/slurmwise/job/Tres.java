package io.slurmwise.job;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Trackable resources as SLURM prints them: {@code cpu=16,mem=64G,node=1,billing=16,gres/gpu=1,gres/gpu:a100=1}.
 * Unknown keys are kept; malformed pairs, and pairs whose value is SLURM's NO_VAL or INFINITE, are skipped.
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
            if (eq <= 0 || eq == pair.length() - 1 || NoVal.is(pair.substring(eq + 1))) {
                continue; // a sentinel (NO_VAL, INFINITE) is no value: as if the pair were not there
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

    /**
     * A MIG slice in a GRES type ({@code nvidia_a100_1g.5gb}, {@code 3g.40gb}): its compute slices, of the 7 an A100
     * or H100 has.
     */
    private static final java.util.regex.Pattern MIG = java.util.regex.Pattern.compile(
            "(?<![\\d.])([1-7])g\\.\\d{1,3}gb\\b", java.util.regex.Pattern.CASE_INSENSITIVE);

    /**
     * The share of one GPU a GRES type stands for: a MIG slice its compute slices of 7 ({@code 1g.5gb} is 1/7, {@code
     * 7g.80gb} the whole GPU), any other type 1.
     */
    public static double gpuShare(String type) {
        java.util.regex.Matcher m = type == null ? null : MIG.matcher(type);
        return m != null && m.find() ? Integer.parseInt(m.group(1)) / 7.0 : 1.0;
    }

    /**
     * Allocated GPUs as whole GPUs: a MIG slice counts its share ({@link #gpuShare}), so seven {@code 1g.5gb} slices
     * are one A100, not seven (an outside audit: 70 GPU-hours and 28 kWh for 10 hours of one board).
     */
    public double gpuEquivalents() {
        int all = gpus();
        double eq = 0;
        int typed = 0;
        for (Map.Entry<String, Integer> e : gpusByModel().entrySet()) {
            int n = Math.min(e.getValue(), all - typed);
            eq += n * gpuShare(e.getKey());
            typed += n;
        }
        return eq + Math.max(0, all - typed);
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
