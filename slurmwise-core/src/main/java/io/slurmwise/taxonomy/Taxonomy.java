package io.slurmwise.taxonomy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The set of failure kinds: the bundled notes ({@code knowledge/} in the source tree, packaged in the core jar),
 * optionally replaced or extended by a site folder (SLURMWISE_KNOWLEDGE). Validated on load: parents and
 * {@code explains} name existing kinds, {@code explains} has no cycles, and {@code unknown} exists.
 *
 * <pre>{@code
 * Taxonomy t = Taxonomy.load(null);        // bundled only
 * t.kind("oom").note().fixes();
 * }</pre>
 */
public final class Taxonomy {

    /** Classpath folder of the bundled notes. */
    public static final String BUNDLED = "io/slurmwise/knowledge";

    private final Map<String, FailureKind> byId;

    private Taxonomy(Map<String, FailureKind> byId) {
        this.byId = byId;
        validate();
    }

    public static Taxonomy of(Collection<FailureKind> kinds) {
        Map<String, FailureKind> m = new LinkedHashMap<>();
        for (FailureKind k : kinds) {
            if (m.put(k.id(), k) != null) {
                throw new TaxonomyException("two notes define kind '" + k.id() + "': " + k.note().source());
            }
        }
        return new Taxonomy(m);
    }

    /** The bundled notes, with the notes of {@code siteDir} (may be null) replacing or extending them. */
    public static Taxonomy load(Path siteDir) {
        Map<String, FailureKind> kinds = new TreeMap<>(loadBundled());
        if (siteDir != null) {
            if (!Files.isDirectory(siteDir)) {
                throw new TaxonomyException("SLURMWISE_KNOWLEDGE=" + siteDir + " is not a folder; point it at a folder of"
                        + " <kind>.md notes (schema in knowledge/README.md) or unset it");
            }
            kinds.putAll(loadFolder(siteDir));
        }
        return new Taxonomy(new LinkedHashMap<>(kinds));
    }

    /** The notes of one folder: every {@code *.md} file but README.md. */
    public static Map<String, FailureKind> loadFolder(Path dir) {
        Map<String, FailureKind> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(Taxonomy::isNote).sorted().toList()) {
                FailureKind k = NoteParser.parse(f.toString(), Files.readString(f, StandardCharsets.UTF_8));
                checkFileName(f.getFileName().toString(), k);
                out.put(k.id(), k);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read knowledge folder " + dir, e);
        }
        return out;
    }

    private static Map<String, FailureKind> loadBundled() {
        URL url = Taxonomy.class.getClassLoader().getResource(BUNDLED);
        if (url == null) {
            throw new TaxonomyException("the bundled knowledge notes are missing from the classpath (" + BUNDLED
                    + "); the slurmwise-core jar is incomplete: rebuild it");
        }
        try {
            URI uri = url.toURI();
            if ("jar".equals(uri.getScheme())) {
                FileSystem fs;
                try {
                    fs = FileSystems.newFileSystem(uri, Map.of());
                } catch (FileSystemAlreadyExistsException e) {
                    fs = FileSystems.getFileSystem(uri);
                }
                return loadBundledFolder(fs.provider().getPath(uri));
            }
            return loadBundledFolder(Path.of(uri));
        } catch (URISyntaxException | IOException e) {
            throw new TaxonomyException("cannot list the bundled knowledge notes at " + url + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, FailureKind> loadBundledFolder(Path dir) throws IOException {
        Map<String, FailureKind> out = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(Taxonomy::isNote).sorted().toList()) {
                String name = f.getFileName().toString();
                try (InputStream in = Files.newInputStream(f)) {
                    FailureKind k = NoteParser.parse("knowledge/" + name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    checkFileName(name, k);
                    out.put(k.id(), k);
                }
            }
        }
        return out;
    }

    private static boolean isNote(Path f) {
        String n = f.getFileName().toString();
        return n.endsWith(".md") && !n.equalsIgnoreCase("README.md");
    }

    private static void checkFileName(String fileName, FailureKind k) {
        if (!fileName.equals(k.id() + ".md")) {
            throw new TaxonomyException(k.note().source() + ":2: id '" + k.id() + "' must match the file name; rename the file to "
                    + k.id() + ".md or change the id");
        }
    }

    private void validate() {
        if (!byId.containsKey(FailureKind.UNKNOWN)) {
            throw new TaxonomyException("the taxonomy has no 'unknown' kind (knowledge/unknown.md), which diagnoses fall back to");
        }
        for (FailureKind k : byId.values()) {
            if (k.parent() != null && !byId.containsKey(k.parent())) {
                throw new TaxonomyException(k.note().source() + ": parent '" + k.parent() + "' is not a known kind");
            }
            for (String e : k.explains()) {
                if (!byId.containsKey(e)) {
                    throw new TaxonomyException(k.note().source() + ": explains '" + e + "', which is not a known kind");
                }
            }
        }
        for (FailureKind k : byId.values()) {
            Set<String> seen = new HashSet<>();
            List<String> path = new ArrayList<>();
            findCycle(k.id(), seen, path);
        }
    }

    private void findCycle(String id, Set<String> onPath, List<String> path) {
        if (!onPath.add(id)) {
            path.add(id);
            throw new TaxonomyException("the 'explains' relation has a cycle: " + String.join(" -> ", path)
                    + "; a root cause cannot be explained by its own consequence");
        }
        path.add(id);
        for (String e : byId.get(id).explains()) {
            findCycle(e, onPath, path);
        }
        path.remove(path.size() - 1);
        onPath.remove(id);
    }

    public Collection<FailureKind> kinds() {
        return byId.values();
    }

    public Optional<FailureKind> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    public FailureKind kind(String id) {
        FailureKind k = byId.get(id);
        if (k == null) {
            throw new IllegalArgumentException("no failure kind '" + id + "'; known: " + String.join(", ", byId.keySet()));
        }
        return k;
    }

    public FailureKind unknown() {
        return byId.get(FailureKind.UNKNOWN);
    }

    /** True when {@code kind} is {@code ancestor} or refines it (through parents). */
    public boolean isA(String kind, String ancestor) {
        String k = kind;
        for (int guard = 0; k != null && guard < 16; guard++) {
            if (k.equals(ancestor)) {
                return true;
            }
            FailureKind fk = byId.get(k);
            k = fk == null ? null : fk.parent();
        }
        return false;
    }
}
