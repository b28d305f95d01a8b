package io.slurmwise.diagnose;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
        try (InputStream in = GpuMemory.class.getResourceAsStream("gpu-memory.tsv")) {
            if (in == null) {
                throw new IllegalStateException("gpu-memory.tsv is missing from slurmwise-core; rebuild the jar");
            }
            Map<String, Integer> m = new LinkedHashMap<>();
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            int n = 0;
            for (String line; (line = r.readLine()) != null; ) {
                n++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t");
                if (f.length != 2) {
                    throw new IllegalStateException("gpu-memory.tsv:" + n + ": expected <type><TAB><GB>");
                }
                m.put(f[0].strip(), Integer.parseInt(f[1].strip()));
            }
            return new GpuMemory(m);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
