package io.slurmwise.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The frozen test split: the list and the case file agree, and cases added later follow the source rule. */
class FrozenSplitTest {

    static final Taxonomy TAXONOMY = Taxonomy.load(null);
    static final Path CASES = Path.of("..", "benchmark", "cases.jsonl");
    /** The salt of the v2 rule, fixed once (benchmark/README.md, "Split"). */
    static final String SOURCE_SALT = "slurmwise-bench-source-v1:";

    @Test
    void theBundledListIsExactlyTheTestCasesOfTheBundledFile() {
        List<BenchmarkCase> all = CaseFile.bundled(TAXONOMY);
        Set<String> test = Evaluator.split(all, "test").stream().map(BenchmarkCase::id).collect(Collectors.toSet());
        assertThat(FrozenSplit.bundled().testIds()).isEqualTo(test);
        // the v1 test split stays as it was, the cases of later batches add to it
        assertThat(test).contains("corpus-oom-003", "pub-resources-unavailable-001", "pub-none-013", "pub-none-015")
                .hasSizeGreaterThanOrEqualTo(89 + 41 + 4 + 3 + 5);
    }

    @Test
    void casesAddedLaterAreSplitByTheirSourceThreadAndNoThreadIsOnBothSides() throws IOException {
        ObjectMapper m = new ObjectMapper();
        Map<String, Set<String>> sidesByThread = new HashMap<>();
        int added = 0;
        for (String line : Files.readAllLines(CASES, StandardCharsets.UTF_8)) {
            JsonNode n = m.readTree(line);
            String thread = thread(n.get("source").asText());
            String split = n.get("split").asText();
            String batch = n.path("added").asText("");
            if (batch.matches("v[2-9]|v[1-9][0-9]+")) { // every batch after v1 follows the source rule
                added += batch.equals("v2") ? 1 : 0;
                sidesByThread.computeIfAbsent(thread, t -> new HashSet<>()).add(split);
                assertThat(split).as(n.get("id").asText() + " from " + thread).isEqualTo(sourceRule(thread));
            }
        }
        assertThat(added).isGreaterThanOrEqualTo(150);
        assertThat(sidesByThread.values()).allSatisfy(sides -> assertThat(sides).hasSize(1));
    }

    @Test
    void aCaseFileThatDisagreesWithTheListIsRefused() throws IOException {
        FrozenSplit frozen = FrozenSplit.read(new StringReader("""
                # a comment
                a   # trailing comment

                b
                """));
        assertThat(frozen.testIds()).containsExactlyInAnyOrder("a", "b");
        List<BenchmarkCase> agree = List.of(aCase("a", "test"), aCase("b", "test"), aCase("c", "dev"));
        assertThat(frozen.apply(agree)).isEqualTo(agree);
        assertThatThrownBy(() -> frozen.apply(List.of(aCase("a", "dev"), aCase("b", "test"))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("a (file: dev, frozen: test)");
        assertThatThrownBy(() -> frozen.apply(List.of(aCase("a", "test"))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("listed but missing: b");
    }

    private static BenchmarkCase aCase(String id, String split) {
        return new BenchmarkCase(1, id, split, "none", null, "", "s", "", false, true);
    }

    /** The source URL without its fragment or trailing slash: one thread, one side. */
    static String thread(String source) {
        int hash = source.indexOf('#');
        String s = hash >= 0 ? source.substring(0, hash) : source;
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    static String sourceRule(String thread) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest((SOURCE_SALT + thread).getBytes(StandardCharsets.UTF_8));
            long h = ((d[0] & 0xffL) << 24) | ((d[1] & 0xffL) << 16) | ((d[2] & 0xffL) << 8) | (d[3] & 0xffL);
            return h % 100 < 35 ? "test" : "dev";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
