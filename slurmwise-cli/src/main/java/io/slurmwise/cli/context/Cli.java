package io.slurmwise.cli.context;

import io.slurmwise.Slurmwise;
import io.slurmwise.cli.render.Style;
import io.slurmwise.cli.render.TerminalWriter;
import io.slurmwise.config.Settings;
import io.slurmwise.diagnose.Retriever;
import io.slurmwise.kb.KbConfig;
import io.slurmwise.kb.spi.KbException;
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
        /** The rules and the kind's own note only: no language model, no embedding index ({@code --rules-only}). */
        RULES_ONLY
    }

    private final PrintWriter out;
    private final PrintWriter err;
    private final PrintWriter rawErr;
    private final Map<String, String> env;
    private final boolean terminal;
    private final GlobalOptions options;
    private final Set<String> noticed = new HashSet<>();
    private final List<AutoCloseable> opened = new ArrayList<>();
    private Taxonomy taxonomy;
    private Slurmwise slurmwise;
    private int width;
    private static final int PIPED_WIDTH = 80;
    private static final int MIN_WIDTH = 60;
    private static final int MAX_WIDTH = 250;

    public Cli(PrintWriter out, PrintWriter err, Map<String, String> env, boolean terminal, GlobalOptions options) {
        // every character a command prints passes the terminal guard: a log's escape sequences never act
        this.out = TerminalWriter.wrap(out, this::colour);
        this.err = TerminalWriter.wrap(err, this::colour);
        this.rawErr = err;
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

    /**
     * Standard error without the terminal guard, for the project's own progress line only (it redraws itself with
     * a carriage return and erase-line): never print a log's, a job's or a model's text here.
     */
    public PrintWriter progress() {
        err.flush();
        return rawErr;
    }

    public Map<String, String> env() {
        return env;
    }

    public boolean isTerminal() {
        return terminal;
    }

    /** Colour only on a terminal, never with --no-color, NO_COLOR set (https://no-color.org) or TERM=dumb. */
    public Style style() {
        return new Style(colour(), width());
    }

    private boolean colour() {
        return !options.noColor() && terminal && !env.containsKey("NO_COLOR") && !"dumb".equals(env.get("TERM"));
    }

    /**
     * Columns to fit output to: {@code COLUMNS} when set; on a terminal, its width (picocli asks the terminal);
     * 80, the classic terminal's, when the output is piped (to {@code less}, a file or a ticket: no width to ask).
     */
    public int width() {
        if (width == 0) {
            width = Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, detectWidth()));
        }
        return width;
    }

    private int detectWidth() {
        String columns = env.get("COLUMNS");
        if (columns != null && !columns.isBlank()) {
            try {
                return Integer.parseInt(columns.strip());
            } catch (NumberFormatException e) {
                return PIPED_WIDTH;
            }
        }
        if (terminal) {
            // picocli asks the terminal (stty or tput, read-only); PIPED_WIDTH when it cannot tell
            return new picocli.CommandLine.Model.UsageMessageSpec().width(PIPED_WIDTH).autoWidth(true).width();
        }
        return PIPED_WIDTH;
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
     * The API facade, wired once for this run by the one composition root ({@link Slurmwise#open}, as
     * {@code slurmwise mcp} and embedders get it) from the settings with what {@code answers} turns off: by default
     * the knowledge base finds the notes (opened on the first retrieval, so {@code jobs} never loads the embedding
     * model) and the language model words the explanation when one is configured.
     *
     * @throws IllegalStateException when a command asks twice: one run, one wiring
     */
    public Slurmwise slurmwise(Answers answers) {
        if (slurmwise != null) {
            throw new IllegalStateException("the slurmwise facade is wired once per run");
        }
        slurmwise = Slurmwise.open(settings(answers), this::notice);
        opened.add(slurmwise);
        return slurmwise;
    }

    /**
     * The fix-note retriever a diagnosis with these {@code answers} gets, from the same composition root but without
     * a backend: {@code classify} needs no cluster. Closed with this context.
     */
    public Retriever retriever(Answers answers) {
        Retriever r = Slurmwise.retriever(settings(answers), taxonomy(), this::notice);
        if (r instanceof AutoCloseable c) {
            opened.add(c);
        }
        return r;
    }

    /** The settings with what {@code answers} turns off: --no-llm is the template, --rules-only also the own note. */
    private Settings settings(Answers answers) {
        Settings s = settings();
        return switch (answers) {
            case FULL -> s;
            case NO_LLM -> s.withExplainer("template");
            case RULES_ONLY -> s.withRetriever("notes").withExplainer("template");
        };
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

    /**
     * True the first time in a day that {@code key} is asked about (remembered as a file's time under
     * SLURMWISE_HOME/notices): for what should not be repeated on every run. True when it cannot remember.
     */
    public boolean firstTimeToday(String key) {
        try {
            java.nio.file.Path f = settings().home().resolve("notices").resolve(key);
            if (java.nio.file.Files.exists(f) && java.time.Duration.between(
                    java.nio.file.Files.getLastModifiedTime(f).toInstant(), java.time.Instant.now()).toHours() < 24) {
                return false;
            }
            java.nio.file.Files.createDirectories(f.getParent());
            java.nio.file.Files.writeString(f, java.time.Instant.now() + "\n");
            return true;
        } catch (java.io.IOException | RuntimeException e) {
            return true;
        }
    }

    /** Tells the user something once per run on stderr (a fallback, a first index build), never on stdout. */
    public void notice(String message) {
        if (noticed.add(message)) {
            error(message);
        }
    }

    /**
     * An error (or a word of warning) on stderr: {@code slurmwise: } and the message, wrapped to the output's width as
     * the rest of the output is, a path or a `command` never broken ({@link io.slurmwise.cli.render.Panel#message}).
     */
    public void error(String message) {
        error(message, false);
    }

    /** {@link #error(String)}, dimmed when {@code dim} (a fallback said in passing, after the answer). */
    public void error(String message, boolean dim) {
        for (String line : io.slurmwise.cli.render.Panel.message("slurmwise: ", String.valueOf(message), width())) {
            err.println(dim ? style().dim(line) : line);
        }
        err.flush();
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
