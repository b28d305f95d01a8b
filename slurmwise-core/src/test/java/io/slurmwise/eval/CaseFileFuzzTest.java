package io.slurmwise.eval;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import io.slurmwise.taxonomy.Taxonomy;
import io.slurmwise.testing.Fuzz;
import io.slurmwise.testing.Hostile;
import io.slurmwise.testing.Lines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the benchmark case-file reader ({@code eval --cases FILE} reads a user's JSON lines): real cases damaged,
 * and objects whose values are hostile JSON (wrong types, huge numbers, deep nesting, escapes). The reader returns
 * cases or a CaseFileException listing the problems, nothing else.
 */
@Tag("fuzz")
class CaseFileFuzzTest {

    private static final Taxonomy TAXONOMY = Taxonomy.load(null);
    private static final List<String> CASES = cases();

    private static List<String> cases() {
        try {
            List<String> all = Files.readAllLines(Path.of("..", "benchmark", "cases.jsonl"));
            return List.of(all.get(0), all.get(all.size() / 2), all.get(all.size() - 1),
                    String.join("\n", all.subList(0, 3)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void record() {
        Fuzz.record();
    }

    private static final String[] JSON = {"null", "true", "0", "-1", "137", "1e999", "-0.0", "[]", "{}",
            "[[[[[[[[[[]]]]]]]]]]", "{\"a\":{\"b\":[1,{}]}}", "9".repeat(2000), "[".repeat(3000) + "]".repeat(3000),
            "\"\\u0000\"", "\"\\ud800\"", "\"\\x\"", "NaN", "'x'", "\"OUT_OF_MEMORY\"", "\"0:9\"",
            "\"1-00:00:00\"", "\"4000Mc\"", "\"oom\"", "\"none\"", "\"dev\"", "\"test\"", "\"02:00:00\""};
    private static final String[] KEYS = {"id", "label", "sacct_state", "exit_code", "log", "source", "notes", "split",
            "elapsed", "timelimit", "req_mem", "max_rss", "pending_reason", "clear", "extra", ""};

    static Function<Random, String> caseFilesGen() {
        return (Fuzz.oneOf(Lines.damaged(CASES, Hostile.pick(), "\n"),
                r -> {
                    StringBuilder sb = new StringBuilder();
                    for (int l = 1 + r.nextInt(3); l > 0; l--) {
                        sb.append(object(r)).append('\n');
                    }
                    return sb.toString();
                }));
    }

    /** An object of known and unknown keys whose values are hostile JSON of any type. */
    private static String object(java.util.Random r) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = r.nextInt(17); i > 0; i--) {
            sb.append(quote(KEYS[r.nextInt(KEYS.length)])).append(": ")
                    .append(r.nextBoolean() ? quote(Hostile.pick().apply(r)) : JSON[r.nextInt(JSON.length)])
                    .append(i > 1 ? ", " : "");
        }
        return sb.append('}').toString();
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    @Test
    void caseFiles() {
        for (String text : Fuzz.inputs(caseFilesGen())) {
            Fuzz.rejectsOnlyWith("CaseFile.read (case files)", CaseFileException.class, text,
                    () -> CaseFile.read("mine.jsonl", new StringReader(text), TAXONOMY));
        }
    }
}
