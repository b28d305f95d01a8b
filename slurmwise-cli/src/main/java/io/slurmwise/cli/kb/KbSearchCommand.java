package io.slurmwise.cli.kb;

import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.JsonOutput;
import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.context.UserError;
import io.slurmwise.cli.render.Json;
import io.slurmwise.cli.render.Panel;
import io.slurmwise.cli.render.Style;
import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.kb.Hit;
import io.slurmwise.kb.KbRetriever;
import io.slurmwise.kb.KbException;
import io.slurmwise.kb.KnowledgeBase;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code slurmwise kb search "<text>"}: the note sections nearest to a text (a log line, a question). */
@Command(name = "search", mixinStandardHelpOptions = true,
        description = {"Find the note sections that match a text: a log line, an error message, a question.",
                "Example: slurmwise kb search \"error while loading shared libraries: libfftw3.so.3\" -k 3"})
public final class KbSearchCommand implements Callable<Integer> {

    private final Cli cli;

    public KbSearchCommand(Cli cli) {
        this.cli = cli;
    }

    @Parameters(arity = "1..*", paramLabel = "TEXT", description = "What to search for (several words are joined).")
    private List<String> text;

    @Option(names = {"-k", "--top"}, paramLabel = "K", defaultValue = "5", description = "How many sections (default 5).")
    private int k;

    @Mixin
    private JsonOutput json;

    @Option(names = "--no-rules", description = "Rank by similarity alone: do not let the rules' reading of the"
            + " text put its kind's note first.")
    private boolean noRules;

    @Override
    public Integer call() {
        if (k < 1 || k > 100) {
            throw new UserError(ExitCodes.USAGE, "-k must be between 1 and 100, got " + k);
        }
        String query = String.join(" ", text);
        if (query.isBlank()) {
            throw new UserError(ExitCodes.USAGE, "the search text is empty");
        }
        KnowledgeBase base = cli.knowledgeBase(null);
        // a pasted error message: the rules name its kind and that note comes first, as in a diagnosis
        Optional<Finding> rules = noRules ? Optional.empty()
                : KbRetriever.rulesOnText(new Classifier(cli.taxonomy()), query);
        List<Hit> hits;
        try {
            hits = base.search(query, k, rules.map(f -> Set.of(f.kindId())).orElse(Set.of()));
        } catch (KbException e) {
            throw new UserError(ExitCodes.CONFIG, e.getMessage());
        }
        if (json.enabled()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("schema", "slurmwise.kb-search/v1");
            m.put("query", query);
            m.put("model", base.config().embeddings().name());
            m.put("store", base.store().name());
            m.put("rules_kind", rules.map(Finding::kindId).orElse(null));
            m.put("results", hits.stream().map(KbSearchCommand::view).toList());
            Json.print(cli.out(), m);
            return ExitCodes.OK;
        }
        Style style = cli.style();
        Panel panel = new Panel(style, "kb search: " + (query.length() > 60 ? query.substring(0, 57) + "..." : query));
        int rank = 1;
        for (Hit h : hits) {
            panel.item(rank++ + ".", style.bold(h.chunk().kindId() + " › " + h.chunk().section())
                    + style.dim(String.format(Locale.ROOT, "  %.2f  %s", h.score(), h.chunk().source())));
            List<String> lines = h.passage().text().lines().limit(4).toList();
            for (String line : lines) {
                panel.item("  ", line);
            }
        }
        panel.footer(rules.map(f -> "rules read it as " + f.kindId() + " (its note first) · ").orElse(noRules ? ""
                : "the rules recognise no failure in it · ") + "model " + base.config().embeddings().name() + " · "
                + base.store().name() + " store · slurmwise kb show <kind> for a whole note").print(cli.out());
        return ExitCodes.OK;
    }

    static Map<String, Object> view(Hit h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", h.chunk().kindId());
        m.put("note", h.chunk().noteTitle());
        m.put("section", h.chunk().section());
        m.put("score", h.score());
        m.put("source", h.chunk().source());
        m.put("passage", h.passage().text());
        m.put("text", h.chunk().text());
        return m;
    }
}
