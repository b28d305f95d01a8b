package io.slurmwise.patch;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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

    static Patterns bundled() {
        try (InputStream in = Patterns.class.getResourceAsStream("patterns.tsv")) {
            if (in == null) {
                throw new IllegalStateException("patterns.tsv is missing from slurmwise-core; rebuild the jar");
            }
            Map<String, List<Pattern>> m = new LinkedHashMap<>();
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            int n = 0;
            for (String line; (line = r.readLine()) != null; ) {
                n++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int tab = line.indexOf('\t');
                if (tab < 0) {
                    throw new IllegalStateException("patterns.tsv:" + n + ": expected <name><TAB><regex>");
                }
                m.computeIfAbsent(line.substring(0, tab), k -> new ArrayList<>()).add(Pattern.compile(line.substring(tab + 1)));
            }
            return new Patterns(m);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
