package io.slurmwise.job;

import io.slurmwise.config.TsvResource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the vendors' data sheets say of a GPU type SLURM's GRES names (gpu-models.tsv): the memory of one GPU (a range:
 * A100s come with 40 and 80 GB, H100s with 80 and 94) and the CUDA compute capability a build names it by (sm_80). A
 * type whose name carries its size ({@code a100_40gb}) is that size; else the longest known type that starts the
 * name ({@code a100} for {@code a100_sxm4}); empty for a type the table does not know.
 *
 * <pre>{@code
 * GpuModels.bundled().of("h100");  // Optional[GpuModel[type=h100, smallestGb=80, largestGb=94, sm=90]]
 * GpuModels.bundled().of("a100_40gb").orElseThrow().memory();  // "40 GB"
 * }</pre>
 */
public final class GpuModels {

    private static final Pattern SIZE = Pattern.compile("(\\d{2,3})\\s*g(?:b|ib)?\\b");
    /** PyTorch's CUDA out-of-memory message: "GPU 0 has a total capacity of 79.11 GiB of which 2.48 GiB is free". */
    private static final Pattern CAPACITY = Pattern.compile("(?i)total capacity of ([\\d.]+) GiB");
    private static final GpuModels BUNDLED = load();

    /**
     * One type: its smallest and largest board in GB and its compute capability without "sm_" (80), when one
     * capability is the type's.
     */
    public record GpuModel(String type, int smallestGb, int largestGb, OptionalInt sm) {

        /** "80 GB", or "80-94 GB" for a type of several sizes. */
        public String memory() {
            return (smallestGb == largestGb ? "" + largestGb : smallestGb + "-" + largestGb) + " GB";
        }
    }

    private final Map<String, GpuModel> byType;

    private GpuModels(Map<String, GpuModel> byType) {
        this.byType = byType;
    }

    public static GpuModels bundled() {
        return BUNDLED;
    }

    private static GpuModels load() {
        Map<String, GpuModel> m = new LinkedHashMap<>();
        for (GpuModel g : TsvResource.read(GpuModels.class, "gpu-models.tsv", "<type><TAB><largest GB><TAB><smallest GB><TAB><sm>",
                4, f -> {
                    int largest = Integer.parseInt(f[1].strip());
                    int smallest = Integer.parseInt(f[2].strip());
                    if (smallest > largest) {
                        throw new IllegalArgumentException("the smallest board is larger than the largest");
                    }
                    String sm = f[3].strip();
                    return new GpuModel(f[0].strip(), smallest, largest,
                            sm.equals("-") ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(sm)));
                })) {
            m.put(g.type(), g);
        }
        return new GpuModels(m);
    }

    /** The type a GRES type name is, when its name or the table says. */
    public Optional<GpuModel> of(String gresType) {
        if (gresType == null) {
            return Optional.empty();
        }
        String t = gresType.toLowerCase(Locale.ROOT);
        String name = t.replaceAll("[^a-z0-9]", "");
        String best = null;
        for (String known : byType.keySet()) {
            if (name.startsWith(known) && (best == null || known.length() > best.length())) {
                best = known;
            }
        }
        Matcher size = SIZE.matcher(t);
        if (size.find()) {
            int gb = Integer.parseInt(size.group(1));
            OptionalInt sm = best == null ? OptionalInt.empty() : byType.get(best).sm();
            return Optional.of(new GpuModel(best == null ? t : best, gb, gb, sm));
        }
        return best == null ? Optional.empty() : Optional.of(byType.get(best));
    }

    /**
     * The capacity of the job's GPU as its own CUDA error reported it, in GiB (PyTorch's "total capacity of 39.39
     * GiB": an A100 of 40 GB, not 80), from the first line that says.
     */
    public static OptionalDouble reported(List<String> lines) {
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
