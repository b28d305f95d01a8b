package io.slurmwise.kb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.classify.Evidence;
import io.slurmwise.classify.Finding;
import io.slurmwise.taxonomy.Taxonomy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** One labeled retrieval query of {@code benchmark/retrieval.jsonl}: a finding as a user sees it, and the right note. */
record LabeledQuery(String id, String kind, List<String> evidence, Set<String> expected, String source) {

    static final Path FILE = Path.of("..", "benchmark", "retrieval.jsonl");

    static List<LabeledQuery> load() {
        ObjectMapper om = new ObjectMapper();
        List<LabeledQuery> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(FILE)) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n = om.readTree(line);
                List<String> ev = new ArrayList<>();
                n.get("evidence").forEach(e -> ev.add(e.asText()));
                List<String> exp = new ArrayList<>();
                n.get("expected").forEach(e -> exp.add(e.asText()));
                out.add(new LabeledQuery(n.get("id").asText(), n.get("kind").asText(), List.copyOf(ev),
                        Set.copyOf(exp), n.get("source").asText()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The finding a classifier would hand the retriever: the kind, and the evidence as log lines. */
    Finding finding(Taxonomy t) {
        List<Evidence> ev = new ArrayList<>();
        long line = 1;
        for (String e : evidence) {
            ev.add(new Evidence(Evidence.Source.STDERR, line++, true, e, kind, 0.9));
        }
        return new Finding(t.kind(kind), 0.95, ev, List.of());
    }

    /** What a user would paste into {@code kb search}: the log lines alone, no kind. */
    String evidenceText() {
        return String.join("\n", evidence);
    }
}
