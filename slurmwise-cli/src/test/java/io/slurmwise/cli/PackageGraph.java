package io.slurmwise.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which package of a source tree imports which (by its import lines, and by fully qualified names in the code), to
 * find package cycles. Only packages under a prefix count.
 */
final class PackageGraph {

    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);

    private final Map<String, Set<String>> edges;
    private final Map<Path, String> sources;

    private PackageGraph(Map<String, Set<String>> edges, Map<Path, String> sources) {
        this.edges = edges;
        this.sources = sources;
    }

    static PackageGraph of(Path root, String prefix) throws IOException {
        Pattern uses = Pattern.compile("\\b(" + Pattern.quote(prefix) + "(?:\\.[a-z]\\w*)*)\\.[A-Z]");
        Map<String, Set<String>> edges = new TreeMap<>();
        Map<Path, String> sources = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String text = Files.readString(f);
                sources.put(f, text);
                Matcher pm = PACKAGE.matcher(text);
                if (!pm.find() || !pm.group(1).startsWith(prefix)) {
                    continue;
                }
                String from = pm.group(1);
                Set<String> to = edges.computeIfAbsent(from, k -> new TreeSet<>());
                Matcher m = uses.matcher(text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", ""));
                while (m.find()) {
                    if (!m.group(1).equals(from)) {
                        to.add(m.group(1));
                    }
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return new PackageGraph(edges, sources);
    }

    /** Every cycle found by a depth-first walk, each as a list of packages ending where it started. */
    List<List<String>> cycles() {
        List<List<String>> found = new ArrayList<>();
        Set<String> done = new TreeSet<>();
        for (String p : edges.keySet()) {
            walk(p, new ArrayList<>(), done, found);
        }
        return found;
    }

    private void walk(String p, List<String> path, Set<String> done, List<List<String>> found) {
        int at = path.indexOf(p);
        if (at >= 0) {
            List<String> cycle = new ArrayList<>(path.subList(at, path.size()));
            cycle.add(p);
            found.add(cycle);
            return;
        }
        if (done.contains(p)) {
            return;
        }
        path.add(p);
        for (String q : edges.getOrDefault(p, Set.of())) {
            walk(q, path, done, found);
        }
        path.remove(path.size() - 1);
        done.add(p);
    }

    /** The packages that use {@code pkg}. */
    Set<String> importersOf(String pkg) {
        Set<String> out = new TreeSet<>();
        edges.forEach((from, to) -> {
            if (to.contains(pkg)) {
                out.add(from);
            }
        });
        return out;
    }

    List<Path> sourcesContaining(String text) {
        return sources.entrySet().stream().filter(e -> e.getValue().contains(text)).map(Map.Entry::getKey).toList();
    }
}
