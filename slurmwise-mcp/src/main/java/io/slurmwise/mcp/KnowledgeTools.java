package io.slurmwise.mcp;

import io.slurmwise.Slurmwise;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.diagnose.FixNote;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.NoteSection;
import io.slurmwise.view.Views;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The knowledge tools: search_knowledge and failure_kinds (the taxonomy and its notes). */
final class KnowledgeTools {

    private final Slurmwise sw;

    KnowledgeTools(Slurmwise sw) {
        this.sw = sw;
    }

    ToolAnswer searchKnowledge(Map<String, Object> args) {
        Args a = new Args(args);
        String query = a.required("query");
        int k = a.integer("k", 3, 1, 10);
        Finding rules = sw.classifier().classifyText(JobFacts.NONE, query);
        Finding reading = rules.isUnknown() ? null : rules;
        List<FixNote> hits = sw.retriever().search(query, reading, k);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", "slurmwise.kb-search/v1");
        m.put("query", Bounded.capped(query, 256)); // the results, not the echo of a long query, fill the budget
        m.put("retriever", sw.retriever().name());
        m.put("rules_kind", reading == null ? null : reading.kindId());
        m.put("count", hits.size());
        m.put("results", hits.stream().map(Views::fix).toList());
        Bounded.fit(m, "results", Bounded.jsonBytes(Bounded.DEFAULT_BYTES));
        StringBuilder text = new StringBuilder(hits.isEmpty() ? "no note matched; failure_kinds lists every kind"
                : (reading == null ? "" : "the rules read it as " + reading.kindId() + "; ") + hits.size() + " section(s):");
        hits.forEach(h -> text.append('\n').append(h.kindId()).append(" › ").append(h.section()));
        return new ToolAnswer(m, text.toString());
    }

    ToolAnswer failureKinds(Map<String, Object> args) {
        String kind = new Args(args).optional("kind");
        if (kind != null) {
            FailureKind k = sw.taxonomy().find(kind).orElseThrow(() -> new IllegalArgumentException(
                    "no failure kind '" + kind + "'; call failure_kinds without arguments for the list"));
            Map<String, Object> m = kindSummary(k);
            m.put("schema", "slurmwise.kind/v1");
            Map<String, String> sections = new LinkedHashMap<>();
            for (NoteSection sec : k.note().sections()) {
                sections.put(sec.heading(), sec.text());
            }
            m.put("sections", sections);
            return new ToolAnswer(m, k.id() + ": " + k.title() + " (" + k.category().id() + "); sections: "
                    + String.join(", ", sections.keySet()));
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", "slurmwise.kinds/v1");
        List<Map<String, Object>> kinds = sw.taxonomy().kinds().stream().map(KnowledgeTools::kindSummary).toList();
        m.put("count", kinds.size());
        m.put("kinds", kinds);
        return new ToolAnswer(m, kinds.size() + " failure kinds: " + String.join(", ",
                sw.taxonomy().kinds().stream().map(FailureKind::id).toList()));
    }

    static Map<String, Object> kindSummary(FailureKind k) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", k.id());
        m.put("title", k.title());
        m.put("category", k.category().id());
        m.put("parent", k.parent());
        return m;
    }
}
