package io.slurmwise.patch;

import io.slurmwise.config.TsvResource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The named patterns of {@code patterns.tsv}: what the patch rules look for in logs and scripts. */
final class Patterns {

    /** Lines are cut here before matching: the patterns look at the start of a message, never at 10 MB of it. */
    static final int MAX_LINE = 2000;

    private final Map<String, List<Pattern>> byName;

    private Patterns(Map<String, List<Pattern>> byName) {
        this.byName = byName;
    }

    /** The bundled patterns, read once: they never change, and every reader shares them. */
    static Patterns bundled() {
        return Bundled.PATTERNS;
    }

    private static final class Bundled {
        static final Patterns PATTERNS = load();
    }

    private static Patterns load() {
        Map<String, List<Pattern>> m = new LinkedHashMap<>();
        for (Map.Entry<String, Pattern> row : TsvResource.read(Patterns.class, "patterns.tsv", "<name><TAB><regex>", 2,
                f -> Map.entry(f[0], Pattern.compile(f[1])))) {
            m.computeIfAbsent(row.getKey(), k -> new ArrayList<>()).add(row.getValue());
        }
        m.replaceAll((name, list) -> List.copyOf(list));
        return new Patterns(Map.copyOf(m));
    }

    List<Pattern> get(String name) {
        List<Pattern> p = byName.get(name);
        if (p == null) {
            throw new IllegalArgumentException("no pattern '" + name + "' in patterns.tsv");
        }
        return p;
    }

    /** The first match of any pattern of {@code name} in {@code line}. */
    Optional<Matcher> find(String name, String line) {
        String l = line.length() > MAX_LINE ? line.substring(0, MAX_LINE) : line;
        for (Pattern p : get(name)) {
            Matcher m = p.matcher(l);
            if (m.find()) {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    boolean matches(String name, String line) {
        return find(name, line).isPresent();
    }

    /** The first line (in order) with a match, and its match. */
    Optional<Matcher> first(String name, List<String> lines) {
        for (String l : lines) {
            Optional<Matcher> m = find(name, l);
            if (m.isPresent()) {
                return m;
            }
        }
        return Optional.empty();
    }
}
