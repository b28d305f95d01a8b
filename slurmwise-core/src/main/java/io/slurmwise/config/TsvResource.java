package io.slurmwise.config;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A tab-separated table bundled in slurmwise-core beside the class that reads it (patterns.tsv, pending-reasons.tsv,
 * gpu-models.tsv, genome.tsv): blank lines and {@code #} comments skipped, every other line split into its fields
 * (the last keeps any further tabs), and a line that does not parse named by file and line number.
 *
 * <pre>{@code
 * List<Integer> largest = TsvResource.read(GpuModels.class, "gpu-models.tsv", "<type><TAB><largest GB><TAB><smallest GB><TAB><sm>",
 *         4, f -> Integer.parseInt(f[1].strip()));
 * }</pre>
 */
public final class TsvResource {

    private TsvResource() {
    }

    /**
     * Each row of the table {@code name} (a resource beside {@code owner}) made into a value.
     *
     * @param shape  the row's form, for the error ({@code <name><TAB><regex>})
     * @param fields how many tab-separated fields a row has
     * @param row    makes a row's fields into a value; what it throws is reported with the file and line
     * @throws IllegalStateException when the table is not in the jar or one of its lines does not parse
     */
    public static <T> List<T> read(Class<?> owner, String name, String shape, int fields, Function<String[], T> row) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from slurmwise-core; rebuild the jar");
            }
            List<T> rows = new ArrayList<>();
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            int n = 0;
            for (String line; (line = r.readLine()) != null; ) {
                n++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t", fields);
                if (f.length != fields) {
                    throw new IllegalStateException(name + ":" + n + ": expected " + shape);
                }
                try {
                    rows.add(row.apply(f));
                } catch (RuntimeException e) {
                    throw new IllegalStateException(name + ":" + n + ": expected " + shape + " (" + e.getMessage() + ")", e);
                }
            }
            return List.copyOf(rows);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
