package io.slurmwise.cli;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.Backends;
import io.slurmwise.cli.render.Style;
import io.slurmwise.config.Settings;
import io.slurmwise.kb.KbConfig;
import io.slurmwise.kb.KbException;
import io.slurmwise.diagnose.NoteLookupRetriever;
import io.slurmwise.kb.KbRetriever;
import io.slurmwise.kb.KnowledgeBase;
import io.slurmwise.taxonomy.Taxonomy;

import io.slurmwise.agent.explain.LlmExplainer;
import io.slurmwise.agent.explain.LlmSettings;
import io.slurmwise.diagnose.Explainer;
import io.slurmwise.diagnose.TemplateExplainer;

import java.io.PrintWriter;
import java.util.Optional;
import java.time.LocalDateTime;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What every command shares: the output streams, the environment, the terminal style, and the {@link Slurmwise}
 * built lazily from the settings (so `--help` and `classify` never touch a backend), with the knowledge base as its
 * retriever (opened on the first retrieval, so `jobs` never loads the embedding model).
 */
public final class Cli implements AutoCloseable {

    private final PrintWriter out;
    private final PrintWriter err;
    private final Map<String, String> env;
    private final boolean terminal;
    private String backendOverride;
    private Boolean colorOverride;
    private Slurmwise slurmwise;
    private String backendReason;
    private boolean noLlm;
    private boolean direct;
    private LlmExplainer llm;
    private Taxonomy taxonomy;
    private KnowledgeBase knowledgeBase;
    private final Set<String> noticed = new HashSet<>();

    public Cli(PrintWriter out, PrintWriter err, Map<String, String> env, boolean terminal) {
        this.out = out;
        this.err = err;
        this.env = env;
        this.terminal = terminal;
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

    void setBackendOverride(String backend) {
        this.backendOverride = backend;
    }

    void setColorOverride(Boolean color) {
        this.colorOverride = color;
    }

    /** Colour only on a terminal, never with NO_COLOR set (https://no-color.org) or TERM=dumb. */
    public Style style() {
        boolean color = colorOverride != null ? colorOverride
                : terminal && !env.containsKey("NO_COLOR") && !"dumb".equals(env.get("TERM"));
        return new Style(color, width());
    }

    public int width() {
        try {
            return Math.max(60, Math.min(160, Integer.parseInt(env.getOrDefault("COLUMNS", "100"))));
        } catch (NumberFormatException e) {
            return 100;
        }
    }

    /** Word explanations with the template only (--no-llm); call before {@link #slurmwise()}. */
    public void disableLlm() {
        this.noLlm = true;
    }

    /**
     * Rules and the kind's own note only (--direct): no language model, no embedding index; the fastest,
     * fully deterministic path. Call before {@link #slurmwise()}.
     */
    public void direct() {
        this.direct = true;
        this.noLlm = true;
    }

    public Settings settings() {
        try {
            Settings s = Settings.from(env);
            return backendOverride == null ? s : s.withBackend(backendOverride);
        } catch (IllegalArgumentException e) {
            throw new UserError(ExitCodes.CONFIG, e.getMessage());
        }
    }

    public LocalDateTime now() {
        return LocalDateTime.now();
    }

    /** The API facade over the selected backend, built on first use. */
    public Slurmwise slurmwise() {
        if (slurmwise == null) {
            Settings s = settings();
            Backends.Selection sel = Backends.select(s);
            backendReason = sel.reason();
            slurmwise = Slurmwise.builder(s).taxonomy(taxonomy()).backend(sel.backend())
                    .retriever(direct ? new NoteLookupRetriever() : new KbRetriever(this::knowledgeBase, this::notice))
                    .explainer(explainer(s)).build();
        }
        return slurmwise;
    }

    /** The language model words explanations unless disabled; the template is its fallback. */
    private Explainer explainer(Settings s) {
        LlmSettings ls;
        try {
            ls = LlmSettings.from(s);
        } catch (IllegalArgumentException e) {
            throw new UserError(ExitCodes.CONFIG, e.getMessage());
        }
        if (noLlm || !ls.enabled()) {
            return new TemplateExplainer();
        }
        llm = LlmExplainer.openAiCompatible(ls, new TemplateExplainer(), taxonomy());
        return llm;
    }

    /** Why the language model did not word the last explanation, if it was asked and failed. */
    public Optional<String> llmFallbackReason() {
        return llm == null ? Optional.empty() : llm.fallbackReason();
    }

    /** The failure kinds and their notes (bundled, plus SLURMWISE_KNOWLEDGE), loaded once. */
    public Taxonomy taxonomy() {
        if (taxonomy == null) {
            taxonomy = Taxonomy.load(settings().knowledgeDir());
        }
        return taxonomy;
    }

    /**
     * The knowledge base as SLURMWISE_EMBEDDINGS and SLURMWISE_CHROMA_URL say; opening it reads the notes only.
     *
     * @throws UserError (invalid configuration) for an unknown SLURMWISE_EMBEDDINGS value
     */
    public KnowledgeBase knowledgeBase() {
        return knowledgeBase(null);
    }

    /** As {@link #knowledgeBase()}, with Chroma at {@code chromaUrl} required (no fallback) when it is not null. */
    public KnowledgeBase knowledgeBase(String chromaUrl) {
        if (knowledgeBase == null) {
            KbConfig c;
            try {
                c = KbConfig.from(settings());
            } catch (KbException e) {
                throw new UserError(ExitCodes.CONFIG, e.getMessage());
            }
            if (chromaUrl != null) {
                c = c.withChroma(chromaUrl, true);
            }
            knowledgeBase = KnowledgeBase.open(taxonomy(), c, this::notice);
        }
        return knowledgeBase;
    }

    /** Tells the user something once per run on stderr (a fallback, a first index build), never on stdout. */
    public void notice(String message) {
        if (noticed.add(message)) {
            err.println("slurmwise: " + message);
            err.flush();
        }
    }

    /** Which backend answered and why ("backend mock (auto; real: sacct is not on PATH)"). */
    public String backendReason() {
        slurmwise();
        return backendReason;
    }

    @Override
    public void close() {
        if (slurmwise != null) {
            slurmwise.close();
        }
        if (knowledgeBase != null) {
            knowledgeBase.close();
        }
        out.flush();
        err.flush();
    }
}
