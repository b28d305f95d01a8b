package io.slurmwise.patch;

import io.slurmwise.config.TsvResource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * How far along the human genome a position is: the bases of the chromosomes before it, in the order aligners and
 * variant callers walk them, plus its own, over the whole (genome.tsv). A job that timed out while logging
 * {@code chr7:79500000} had done about 42% of a whole-genome run.
 *
 * <pre>{@code
 * GenomePosition.bundled().fraction("chr7", 79_500_000);   // OptionalDouble[0.4247]
 * }</pre>
 */
final class GenomePosition {

    private final Map<String, long[]> startAndLength;
    private final long total;

    private GenomePosition(Map<String, long[]> startAndLength, long total) {
        this.startAndLength = startAndLength;
        this.total = total;
    }

    static GenomePosition bundled() {
        List<Map.Entry<String, Long>> contigs = TsvResource.read(GenomePosition.class, "genome.tsv",
                "<contig><TAB><length>", 2,
                f -> Map.entry(f[0].strip().toUpperCase(Locale.ROOT), Long.parseLong(f[1].strip())));
        Map<String, long[]> m = new LinkedHashMap<>();
        long at = 0;
        for (Map.Entry<String, Long> c : contigs) {
            m.put(c.getKey(), new long[] {at, c.getValue()});
            at += c.getValue();
        }
        return new GenomePosition(m, at);
    }

    /**
     * The fraction of the genome before {@code position} on {@code contig} ({@code chr7} or {@code 7}); empty for a
     * contig the table does not have or a position beyond its end.
     */
    OptionalDouble fraction(String contig, long position) {
        String name = contig.toUpperCase(Locale.ROOT);
        long[] c = startAndLength.get(name.startsWith("CHR") ? name.substring(3) : name);
        if (c == null || position < 0 || position > c[1]) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of((c[0] + position) / (double) total);
    }
}
