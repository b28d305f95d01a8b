package io.slurmwise.diagnose;

import io.slurmwise.config.TsvResource;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory of one GPU of a GRES type (gpu-memory.tsv, from the vendors' data sheets): what "a GPU with more memory"
 * can name. A type whose name carries its size ({@code a100_40gb}) is read by it; else the longest known type that
 * starts the name ({@code a100} for {@code a100_sxm4}); empty for a type the table does not know.
 *
 * <pre>{@code
 * GpuMemory.bundled().gigabytes("h100");       // OptionalInt[94]
 * GpuMemory.bundled().gigabytes("a100_40gb");  // OptionalInt[40]
 * }</pre>
 */
final class GpuMemory {

    private static final Pattern SIZE = Pattern.compile("(\\d{2,3})\\s*g(?:b|ib)?\\b");
    private static final GpuMemory BUNDLED = load();

    private final Map<String, Integer> byType;

    private GpuMemory(Map<String, Integer> byType) {
        this.byType = byType;
    }

    static GpuMemory bundled() {
        return BUNDLED;
    }

    private static GpuMemory load() {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> row : TsvResource.read(GpuMemory.class, "gpu-memory.tsv", "<type><TAB><GB>", 2,
                f -> Map.entry(f[0].strip(), Integer.parseInt(f[1].strip())))) {
            m.put(row.getKey(), row.getValue());
        }
        return new GpuMemory(m);
    }

    /** The GB of one GPU of {@code type}, when its name says or the table knows it. */
    OptionalInt gigabytes(String type) {
        String t = type.toLowerCase(Locale.ROOT);
        Matcher size = SIZE.matcher(t);
        if (size.find()) {
            return OptionalInt.of(Integer.parseInt(size.group(1)));
        }
        String name = t.replaceAll("[^a-z0-9]", "");
        String best = null;
        for (String known : byType.keySet()) {
            if (name.startsWith(known) && (best == null || known.length() > best.length())) {
                best = known;
            }
        }
        return best == null ? OptionalInt.empty() : OptionalInt.of(byType.get(best));
    }
}
