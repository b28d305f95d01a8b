package io.slurmwise.eval;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The frozen test split of the bundled benchmark: the ids of its test cases, one per line in
 * {@code benchmark/test-ids.txt} ({@code #} starts a comment). A case is a test case exactly when its id is listed;
 * every other case is dev. The list only grows: the rules are never tuned on a case in it. The case file keeps its
 * own {@code split} key too (so that a copy of it scores the same); the two must agree.
 *
 * <pre>{@code
 * List<BenchmarkCase> cases = FrozenSplit.bundled().apply(parsedCases);
 * }</pre>
 */
public final class FrozenSplit {

    /** Classpath location of the bundled list. */
    public static final String BUNDLED = "io/slurmwise/benchmark/test-ids.txt";

    private final Set<String> testIds;

    private FrozenSplit(Set<String> testIds) {
        this.testIds = Set.copyOf(testIds);
    }

    /** The list bundled with slurmwise, next to the bundled benchmark. */
    public static FrozenSplit bundled() {
        InputStream in = FrozenSplit.class.getClassLoader().getResourceAsStream(BUNDLED);
        if (in == null) {
            throw new IllegalStateException("the frozen test split (" + BUNDLED + ") is missing from slurmwise-core;"
                    + " rebuild the jar");
        }
        try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            return read(r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads a list: one id per line, blank lines and {@code #} comments ignored. */
    public static FrozenSplit read(Reader reader) throws IOException {
        Set<String> ids = new LinkedHashSet<>();
        BufferedReader r = reader instanceof BufferedReader b ? b : new BufferedReader(reader);
        for (String line; (line = r.readLine()) != null; ) {
            int hash = line.indexOf('#');
            String id = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (!id.isEmpty()) {
                ids.add(id);
            }
        }
        return new FrozenSplit(ids);
    }

    /** The frozen test ids. */
    public Set<String> testIds() {
        return testIds;
    }

    /**
     * The cases, checked against the list: each case's {@code split} must be the one the list gives it.
     *
     * @throws IllegalStateException when a case file's own {@code split} disagrees with the list, or a listed id has no
     *                               case: the two files were edited apart and the test split is no longer the frozen one
     */
    public List<BenchmarkCase> apply(List<BenchmarkCase> cases) {
        List<String> disagree = new ArrayList<>();
        Set<String> unseen = new LinkedHashSet<>(testIds);
        for (BenchmarkCase c : cases) {
            String split = testIds.contains(c.id()) ? "test" : "dev";
            unseen.remove(c.id());
            if (!c.split().equals(split)) {
                disagree.add(c.id() + " (file: " + c.split() + ", frozen: " + split + ")");
            }
        }
        if (!disagree.isEmpty() || !unseen.isEmpty()) {
            throw new IllegalStateException("the benchmark and its frozen test split (benchmark/test-ids.txt) disagree:"
                    + (disagree.isEmpty() ? "" : " split differs for " + String.join(", ", disagree))
                    + (unseen.isEmpty() ? "" : " listed but missing: " + String.join(", ", unseen)));
        }
        return cases;
    }
}
