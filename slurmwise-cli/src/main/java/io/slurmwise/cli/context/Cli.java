package io.slurmwise.cli.context;

import io.slurmwise.Slurmwise;
import io.slurmwise.agent.explain.LlmExplainer;
import io.slurmwise.agent.explain.LlmSettings;
import io.slurmwise.backend.Backends;
import io.slurmwise.cli.render.Style;
import io.slurmwise.config.Settings;
import io.slurmwise.diagnose.Explainer;
import io.slurmwise.diagnose.NoteLookupRetriever;
import io.slurmwise.diagnose.Retriever;
import io.slurmwise.diagnose.TemplateExplainer;
import io.slurmwise.kb.KbConfig;
import io.slurmwise.kb.KbException;
import io.slurmwise.kb.KbRetriever;
import io.slurmwise.kb.KnowledgeBase;
import io.slurmwise.taxonomy.Taxonomy;

import java.io.PrintWriter;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What every command is handed (through picocli's factory, not a back reference to the root command): the output
 * streams, the environment, the terminal, the parsed {@link GlobalOptions}, and the one place where a command's
 * {@link Slurmwise} is wired. A command asks for it once, with the {@link Answers} its flags choose; nothing is
 * built before (so {@code --help} and {@code classify} never touch a backend) and nothing can be reconfigured after.
 */
public final class Cli implements AutoCloseable {

    /** How a diagnosis is worded and which notes it gets: the choice {@code --no-llm} and {@code --direct} make. */
    public enum Answers {
        /** The knowledge base retrieves the notes; the language model words the explanation when configured. */
        FULL,
        /** As FULL, with the template wording every explanation ({@code --no-llm}). */
        NO_LLM,
        /** The rules and the kind's own note only: no language model, no embedding index ({@code --direct}). */
        DIRECT
    }

    private final PrintWriter out;
    private final PrintWriter err;
    private final Map<String, String> env;
    private final boolean terminal;
    private final GlobalOptions options;
    private final Set<String> noticed = new HashSet<>();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private Taxonomy taxonomy;
    private Slurmwise slurmwise;

    public Cli(PrintWriter out, PrintWriter err, Map<String, String> env, boolean terminal, GlobalOptions options) {
        this.out = out;
        this.err = err;
        this.env = Map.copyOf(env);
        this.terminal = terminal;
        this.options = Objects.requireNonNull(options, "options");
    }

    public PrintWriter out() {
        return out;
    }

    public PrintWriter err() {
        return err;
    }

    public Map<String, String> env() {
        return env;
    }

    public boolean isTerminal() {
        return terminal;
    }

    /** Colour only on a terminal, never with --no-color, NO_COLOR set (https://no-color.org) or TERM=dumb. */
    public Style style() {
        boolean color = !options.noColor() && terminal && !env.containsKey("NO_COLOR") && !"dumb".equals(env.get("TERM"));
        return new Style(color, width());
    }

    public int width() {
        try {
            return Math.max(60, Math.min(160, Integer.parseInt(env.getOrDefault("COLUMNS", "100"))));
        } catch (NumberFormatException e) {
            return 100;
        }
    }

    /** The environment's settings with the flags applied ({@code --backend}). */
    public Settings settings() {
        try {
            Settings s = Settings.from(env);
            return options.backend() == null ? s : s.withBackend(options.backend());
        } catch (IllegalArgumentException e) {
            throw new UserError(ExitCodes.CONFIG, e.getMessage());
        }
    }

    public LocalDateTime now() {
        return LocalDateTime.now();
    }

    /**
     * The API facade over the selected backend, wired once for this run: the knowledge base as its retriever
     * (opened on the first retrieval, so {@code jobs} never loads the embedding model) and the language model as its
     * explainer, or less as {@code answers} says.
     *
     * @throws IllegalStateException when a command asks twice: one run, one wiring
     */
    public Slurmwise slurmwise(Answers answers) {
        if (slurmwise != null) {
            throw new IllegalStateException("the slurmwise facade is wired once per run");
        }
        Settings s = settings();
        Backends.Selection sel = Backends.select(s);
        slurmwise = Slurmwise.builder(s).taxonomy(taxonomy()).backend(sel.backend(), sel.reason())
                .retriever(retriever(answers)).explainer(explainer(s, answers)).build();
        opened.add(slurmwise);
        return slurmwise;
    }

    /**
     * The fix-note retriever {@code answers} chooses, the one place that choice is made: the knowledge base (opened on
     * its first retrieval) or, with {@code --direct}, the kind's own note. {@code classify} uses it without a backend.
     */
    public Retriever retriever(Answers answers) {
        return answers == Answers.DIRECT ? new NoteLookupRetriever() : new KbRetriever(() -> knowledgeBase(null), this::notice);
    }

    /** The language model words explanations unless disabled; the template is its fallback. */
    private static Explainer explainer(Settings s, Answers answers) {
        LlmSettings ls;
        try {
            ls = LlmSettings.from(s);
        } catch (IllegalArgumentException e) {
            throw new UserError(ExitCodes.CONFIG, e.getMessage());
        }
        if (answers != Answers.FULL || !ls.enabled()) {
            return new TemplateExplainer();
        }
        return LlmExplainer.openAiCompatible(ls, new TemplateExplainer());
    }

    /** The failure kinds and their notes (bundled, plus SLURMWISE_KNOWLEDGE), loaded once. */
    public Taxonomy taxonomy() {
        if (taxonomy == null) {
            taxonomy = Taxonomy.load(settings().knowledgeDir());
        }
        return taxonomy;
    }

    /**
     * The knowledge base as SLURMWISE_EMBEDDINGS and SLURMWISE_CHROMA_URL say, with Chroma at {@code chromaUrl}
     * required (no fallback) when it is not null; opening it reads the notes only. Closed with this context.
     *
     * @throws UserError (invalid configuration) for an unknown SLURMWISE_EMBEDDINGS value
     */
    public KnowledgeBase knowledgeBase(String chromaUrl) {
        KbConfig c;
        try {
            c = KbConfig.from(settings());
        } catch (KbException e) {
            throw new UserError(ExitCodes.CONFIG, e.getMessage());
        }
        if (chromaUrl != null) {
            c = c.withChroma(chromaUrl, true);
        }
        KnowledgeBase kb = KnowledgeBase.open(taxonomy(), c, this::notice);
        opened.add(kb);
        return kb;
    }

    /** Tells the user something once per run on stderr (a fallback, a first index build), never on stdout. */
    public void notice(String message) {
        if (noticed.add(message)) {
            err.println("slurmwise: " + message);
            err.flush();
        }
    }

    @Override
    public void close() {
        for (AutoCloseable c : opened) {
            try {
                c.close();
            } catch (Exception e) {
                // closing is best effort: the command's answer is already out
            }
        }
        out.flush();
        err.flush();
    }
}
