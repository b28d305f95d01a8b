package io.slurmwise.diagnose;

import io.slurmwise.config.TsvResource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory of one GPU of a GRES type (gpu-memory.tsv, from the vendors' data sheets): what "a GPU with more memory"
 * can name. A type comes in one size or several (A100: 40 and 80 GB; H100: 80 GB SXM and PCIe, 94 GB NVL), so it has
 * a range; a type whose name carries its size ({@code a100_40gb}) is that size; else the longest known type that
 * starts the name ({@code a100} for {@code a100_sxm4}); empty for a type the table does not know.
 *
 * <pre>{@code
 * GpuMemory.bundled().of("h100");       // Optional[Range[smallest=80, largest=94]]
 * GpuMemory.bundled().of("a100_40gb");  // Optional[Range[smallest=40, largest=40]]
 * }</pre>
 */
final class GpuMemory {

    private static final Pattern SIZE = Pattern.compile("(\\d{2,3})\\s*g(?:b|ib)?\\b");
    /** PyTorch's CUDA out-of-memory message: "GPU 0 has a total capacity of 79.11 GiB of which 2.48 GiB is free". */
    private static final Pattern CAPACITY = Pattern.compile("(?i)total capacity of ([\\d.]+) GiB");
    private static final GpuMemory BUNDLED = load();

    /** The smallest and largest board of a type, in GB. */
    record Range(int smallest, int largest) {

        /** "80 GB", or "80-94 GB" for a type of several sizes. */
        @Override
        public String toString() {
            return (smallest == largest ? "" + largest : smallest + "-" + largest) + " GB";
        }
    }

    private final Map<String, Range> byType;

    private GpuMemory(Map<String, Range> byType) {
        this.byType = byType;
    }

    static GpuMemory bundled() {
        return BUNDLED;
    }

    private static GpuMemory load() {
        Map<String, Range> m = new LinkedHashMap<>();
        for (Map.Entry<String, Range> row : TsvResource.read(GpuMemory.class, "gpu-memory.tsv",
                "<type><TAB><largest GB><TAB><smallest GB>", 3, f -> Map.entry(f[0].strip(),
                        new Range(Integer.parseInt(f[2].strip()), Integer.parseInt(f[1].strip()))))) {
            if (row.getValue().smallest() > row.getValue().largest()) {
                throw new IllegalStateException("gpu-memory.tsv: " + row.getKey() + ": the smallest board is larger");
            }
            m.put(row.getKey(), row.getValue());
        }
        return new GpuMemory(m);
    }

    /** The sizes of one GPU of {@code type}, when its name says or the table knows it. */
    Optional<Range> of(String type) {
        String t = type.toLowerCase(Locale.ROOT);
        Matcher size = SIZE.matcher(t);
        if (size.find()) {
            int gb = Integer.parseInt(size.group(1));
            return Optional.of(new Range(gb, gb));
        }
        String name = t.replaceAll("[^a-z0-9]", "");
        String best = null;
        for (String known : byType.keySet()) {
            if (name.startsWith(known) && (best == null || known.length() > best.length())) {
                best = known;
            }
        }
        return best == null ? Optional.empty() : Optional.of(byType.get(best));
    }

    /**
     * The capacity of the job's GPU as its own CUDA error reported it, in GiB (PyTorch's "total capacity of 39.39
     * GiB": an A100 of 40 GB, not 80), from the first line that says.
     */
    static OptionalDouble reported(List<String> lines) {
        for (String l : lines) {
            Matcher m = CAPACITY.matcher(l);
            if (m.find()) {
                try {
                    double gib = Double.parseDouble(m.group(1));
                    if (gib > 0 && gib < 10_000) {
                        return OptionalDouble.of(gib);
                    }
                } catch (NumberFormatException e) {
                    // not a number: no capacity
                }
            }
        }
        return OptionalDouble.empty();
    }
}
