package io.slurmwise.stats;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Board power of GPU models, looked up by the GRES type name SLURM prints in AllocTRES
 * ({@code gres/gpu:a100=1} names {@code a100}). The bundled figures are datasheet board powers in
 * {@code io/slurmwise/stats/gpu-power.tsv}; a site file adds or replaces rows.
 *
 * <pre>{@code
 * GpuPowerTable t = GpuPowerTable.bundled();
 * t.watts("nvidia_a100-pcie-80gb");   // Optional[300.0]
 * t.watts("mystery9000");             // Optional.empty
 * }</pre>
 */
public final class GpuPowerTable {

    /** One row: every token must appear in the GRES type name. */
    public record Entry(Set<String> tokens, double watts, String description) {
        public Entry {
            tokens = Collections.unmodifiableSet(new LinkedHashSet<>(tokens));
            if (tokens.isEmpty()) {
                throw new IllegalArgumentException("a GPU power row needs at least one model token");
            }
            if (!(watts >= 0) || Double.isInfinite(watts)) {
                throw new IllegalArgumentException("GPU watts must be a non-negative number, got " + watts);
            }
        }

        public String key() {
            return String.join(" ", tokens);
        }
    }

    public static final String BUNDLED = "io/slurmwise/stats/gpu-power.tsv";

    private final List<Entry> entries;

    public GpuPowerTable(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    public static GpuPowerTable bundled() {
        try (InputStream in = GpuPowerTable.class.getClassLoader().getResourceAsStream(BUNDLED)) {
            if (in == null) {
                throw new IllegalStateException(BUNDLED + " is missing from the classpath (a broken slurmwise-core jar)");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), BUNDLED);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses the TSV form: {@code tokens<TAB>watts<TAB>description}, {@code #} comments. */
    public static GpuPowerTable parse(String tsv, String source) {
        List<Entry> rows = new ArrayList<>();
        int n = 0;
        for (String line : tsv.split("\n")) {
            n++;
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] f = l.split("\t");
            if (f.length < 2) {
                throw new EnergyModelException(source + ":" + n + ": expected 'tokens<TAB>watts<TAB>description'");
            }
            try {
                rows.add(new Entry(tokens(f[0]), Double.parseDouble(f[1].strip()), f.length > 2 ? f[2].strip() : ""));
            } catch (IllegalArgumentException e) {
                throw new EnergyModelException(source + ":" + n + ": " + e.getMessage());
            }
        }
        return new GpuPowerTable(rows);
    }

    /** A copy where {@code model} (a GRES type name or tokens) has {@code watts}, replacing a row with the same tokens. */
    public GpuPowerTable with(String model, double watts, String description) {
        Entry e = new Entry(tokens(model), watts, description);
        List<Entry> out = new ArrayList<>();
        for (Entry x : entries) {
            if (!x.tokens().equals(e.tokens())) {
                out.add(x);
            }
        }
        out.add(e);
        return new GpuPowerTable(out);
    }

    /** The most specific row matching the GRES type name, if any. */
    public Optional<Entry> lookup(String gresType) {
        if (gresType == null || gresType.isBlank()) {
            return Optional.empty();
        }
        Set<String> have = tokens(gresType);
        Entry best = null;
        for (Entry e : entries) {
            if (have.containsAll(e.tokens()) && (best == null || e.tokens().size() > best.tokens().size())) {
                best = e;
            }
        }
        return Optional.ofNullable(best);
    }

    public Optional<Double> watts(String gresType) {
        return lookup(gresType).map(Entry::watts);
    }

    public List<Entry> entries() {
        return entries;
    }

    static Set<String> tokens(String name) {
        Set<String> out = new LinkedHashSet<>();
        for (String t : name.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GpuPowerTable t && t.entries.equals(entries);
    }

    @Override
    public int hashCode() {
        return Objects.hash(entries);
    }
}
