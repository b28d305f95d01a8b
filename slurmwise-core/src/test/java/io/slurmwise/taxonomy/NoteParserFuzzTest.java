package io.slurmwise.taxonomy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;

import io.slurmwise.testing.Fuzz;
import io.slurmwise.testing.Hostile;
import io.slurmwise.testing.Lines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the knowledge-note loader (a site's notes in SLURMWISE_KNOWLEDGE are user data) with the bundled notes
 * damaged line by line: a note parses or is rejected with a TaxonomyException naming the file and line.
 */
@Tag("fuzz")
class NoteParserFuzzTest {

    private static final List<String> NOTES = bundledNotes();

    private static List<String> bundledNotes() {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(Path.of("..", "knowledge"))) {
            for (Path p : s.filter(p -> p.toString().endsWith(".md") && !p.endsWith("README.md")).sorted().toList()) {
                out.add(Files.readString(p));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    @AfterAll
    static void record() {
        Fuzz.record();
    }

    static Function<Random, String> notesGen() {
        java.util.function.Function<java.util.Random, String> hostile = Hostile.pick("id: x", "weight: 2", "weight: -1", "weight: .nan", "pattern: '('",
                "pattern: '(?i)'", "stream: stdin", "sacct_states: [NOPE]", "signals: [999999999999]",
                "signals: [-1]", "explains: {a: b}", "signatures: 5", "- pattern:", "&a [*a, *a]", "!!java.io.File x",
                "---", "## Fixes", "{{nope}}", "{{", "checks: [nope]", "fixers: [nope]", "category: nope",
                "parent: unknown", "ignore: [[[[]]]]", "\t- x", "key: \"unterminated", "? complex", "!!binary ####");
        return (Fuzz.oneOf(Lines.damaged(NOTES, hostile, "\n"), Lines.damaged(NOTES, hostile, "\r\n"),
                Hostile.pick("---\n---\n", "---\nid: a\n---", "---\n")));
    }

    @Test
    void notes() {
        for (String text : Fuzz.inputs(notesGen())) {
            Fuzz.rejectsOnlyWith("NoteParser (knowledge notes)", TaxonomyException.class, text,
                    () -> NoteParser.parse("site/note.md", text));
        }
    }
}
