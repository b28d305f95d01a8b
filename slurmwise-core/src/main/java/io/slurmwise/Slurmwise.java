package io.slurmwise;

import io.slurmwise.backend.Backends;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.LogTail;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.config.Settings;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.diagnose.DiagnosisWorkflow;
import io.slurmwise.diagnose.Explainer;
import io.slurmwise.diagnose.NoteLookupRetriever;
import io.slurmwise.diagnose.Retriever;
import io.slurmwise.diagnose.TemplateExplainer;
import io.slurmwise.job.JobId;
import io.slurmwise.spi.ExplainerProvider;
import io.slurmwise.spi.ProviderContext;
import io.slurmwise.config.Providers;
import io.slurmwise.spi.RetrieverProvider;
import io.slurmwise.job.JobRecord;
import io.slurmwise.stats.FleetScan;
import io.slurmwise.taxonomy.Taxonomy;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The Java API of slurmwise: diagnose a job, classify a log, list jobs. The CLI, the MCP server and the chat
 * agent are thin adapters over this class.
 *
 * <pre>{@code
 * try (Slurmwise sw = Slurmwise.builder().backend(myBackend).build()) {
 *     Diagnosis d = sw.diagnose("1001");
 *     if (d instanceof Diagnosis.Failed f) {
 *         System.out.println(f.finding().kindId() + ": " + f.explanation().text());
 *     }
 * }
 * }</pre>
 */
public final class Slurmwise implements AutoCloseable {

    private final SlurmBackend backend;
    private final String backendReason;
    private final Taxonomy taxonomy;
    private final Classifier classifier;
    private final Retriever retriever;
    private final Explainer explainer;
    private final int logTailLines;
    private final DiagnosisWorkflow workflow;

    private Slurmwise(Builder b) {
        this.backend = Objects.requireNonNull(b.backend, "a backend is required: builder().backend(...)");
        this.backendReason = b.backendReason != null ? b.backendReason : "backend " + backend.name();
        this.taxonomy = b.taxonomy != null ? b.taxonomy : Taxonomy.load(b.settings == null ? null : b.settings.knowledgeDir());
        this.classifier = new Classifier(taxonomy);
        this.retriever = b.retriever != null ? b.retriever : new NoteLookupRetriever();
        this.explainer = b.explainer != null ? b.explainer : new TemplateExplainer();
        this.logTailLines = b.logTailLines;
        this.workflow = new DiagnosisWorkflow(backend, classifier, retriever, explainer, logTailLines, b.fixCount);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The one composition root: a facade wired as the settings say, every part found through its service provider.
     * The backend (SLURMWISE_BACKEND, {@link Backends}), the retriever (SLURMWISE_RETRIEVER,
     * {@link RetrieverProvider}: the knowledge base when slurmwise-kb is on the classpath, else the kind's own note)
     * and the explainer (SLURMWISE_EXPLAINER, {@link ExplainerProvider}: the language model when slurmwise-agent is
     * there and SLURMWISE_NO_LLM is not set, else the template). The CLI, {@code slurmwise mcp}, the chat agent and
     * embedders that want the same answers all call this.
     *
     * <pre>{@code
     * try (Slurmwise sw = Slurmwise.open(Settings.fromEnvironment(), System.err::println)) { ... }
     * }</pre>
     *
     * @param notices told once about fallbacks and first index builds (a line each for stderr); may be null
     * @throws io.slurmwise.config.SettingsException when a setting names a provider that is missing or cannot run
     * @throws io.slurmwise.backend.BackendException when no backend can run here
     */
    public static Slurmwise open(Settings settings, Consumer<String> notices) {
        ClassLoader loader = Slurmwise.class.getClassLoader();
        Backends.Selection backend = Backends.select(settings, loader, notices);
        try {
            Taxonomy taxonomy = Taxonomy.load(settings.knowledgeDir());
            ProviderContext context = new ProviderContext(settings, taxonomy, notices);
            Retriever retriever = retriever(settings, taxonomy, notices);
            Explainer explainer = Providers.select(ExplainerProvider.class, "explainer", "SLURMWISE_EXPLAINER",
                    settings.explainer(), settings, loader).provider().create(context);
            return builder(settings).backend(backend.backend(), backend.reason()).taxonomy(taxonomy)
                    .retriever(retriever).explainer(explainer).build();
        } catch (RuntimeException e) {
            backend.backend().close();
            throw e;
        }
    }

    /** A builder preset from settings: the backend SLURMWISE_BACKEND selects, site notes, log tail length. */
    public static Builder builder(Settings settings) {
        Builder b = new Builder();
        b.settings = settings;
        b.logTailLines = settings.logTailLines();
        return b;
    }

    /**
     * The retriever {@link #open} would wire (SLURMWISE_RETRIEVER, through its provider), for work without a cluster:
     * classifying a log, scoring a benchmark. Close it when it is {@link AutoCloseable} (the knowledge base's is).
     */
    public static Retriever retriever(Settings settings, Taxonomy taxonomy, Consumer<String> notices) {
        return Providers.select(RetrieverProvider.class, "retriever", "SLURMWISE_RETRIEVER", settings.retriever(),
                settings, Slurmwise.class.getClassLoader()).provider().create(new ProviderContext(settings, taxonomy,
                notices));
    }

    /** Diagnoses one job: NotFound, StatusOnly (running, pending, completed) or Failed. */
    public Diagnosis diagnose(JobId id) {
        return workflow.diagnose(id);
    }

    /**
     * Diagnoses a record you already have, e.g. from {@link #jobs(JobQuery)}, without looking it up again.
     *
     * @param suggestPatch false skips the sbatch patch (no batch script read): cheaper for watchers
     */
    public Diagnosis diagnose(JobRecord job, boolean suggestPatch) {
        return workflow.diagnose(job, suggestPatch);
    }

    /** @throws io.slurmwise.job.InvalidJobIdException when {@code id} is not a SLURM job id */
    public Diagnosis diagnose(String id) {
        return diagnose(JobId.parse(id));
    }

    /** Classifies logs without any cluster: the facts may be {@link JobFacts#NONE}. */
    public Finding classify(JobFacts facts, List<LogTail> logs) {
        return classifier.classify(facts, logs);
    }

    /**
     * Classifies logs without a cluster, with this facade's fix notes and the template's words: the one pipeline
     * of {@code classify}, the {@code classify_log} tool and {@code eval}.
     */
    public io.slurmwise.diagnose.LogClassification classifyLog(JobFacts facts, List<LogTail> logs) {
        return io.slurmwise.diagnose.LogClassification.of(classifier, retriever, facts, logs,
                io.slurmwise.diagnose.LogClassification.FIXES);
    }

    /** Jobs matching a query; close the stream. */
    public Stream<JobRecord> jobs(JobQuery query) {
        return backend.jobs(query);
    }

    /**
     * Fleet statistics over this backend: failure rate, wasted compute and energy by kind, partition, user, day.
     * {@code sw.fleetScan().build().run(JobQuery.window(since, until)).report()}
     */
    public FleetScan.Builder fleetScan() {
        return FleetScan.builder(backend, classifier).logTailLines(logTailLines);
    }

    public SlurmBackend backend() {
        return backend;
    }

    public Taxonomy taxonomy() {
        return taxonomy;
    }

    public Classifier classifier() {
        return classifier;
    }

    public Retriever retriever() {
        return retriever;
    }

    public Explainer explainer() {
        return explainer;
    }

    /** Which backend answers and why, for footers: "backend mock (auto; real: sacct is not on PATH)". */
    public String backendReason() {
        return backendReason;
    }

    public int logTailLines() {
        return logTailLines;
    }

    /** Closes the backend, and the retriever and explainer when they hold resources (an index, a connection). */
    @Override
    public void close() {
        try {
            backend.close();
        } finally {
            closeQuietly(retriever);
            closeQuietly(explainer);
        }
    }

    private static void closeQuietly(Object part) {
        if (part instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                // a part that fails to close has nothing left to give; the answers are out
            }
        }
    }

    /** Configures a {@link Slurmwise}; only the backend is required. */
    public static final class Builder {
        private Settings settings;
        private SlurmBackend backend;
        private String backendReason;
        private Taxonomy taxonomy;
        private Retriever retriever;
        private Explainer explainer;
        private int logTailLines = Settings.DEFAULT_LOG_TAIL;
        private int fixCount = 3;

        private Builder() {
        }

        public Builder backend(SlurmBackend b) {
            this.backend = b;
            return this;
        }

        /** A backend and the sentence that says why it was chosen (shown in footers). */
        public Builder backend(SlurmBackend b, String reason) {
            this.backend = b;
            this.backendReason = reason;
            return this;
        }

        /** Selects the backend as SLURMWISE_BACKEND says (auto: real when sacct is on PATH, else mock). */
        public Builder backendFromSettings() {
            Settings s = settings != null ? settings : Settings.fromEnvironment();
            Backends.Selection sel = Backends.select(s);
            return backend(sel.backend(), sel.reason());
        }

        public Builder taxonomy(Taxonomy t) {
            this.taxonomy = t;
            return this;
        }

        public Builder retriever(Retriever r) {
            this.retriever = r;
            return this;
        }

        public Builder explainer(Explainer e) {
            this.explainer = e;
            return this;
        }

        public Builder logTailLines(int n) {
            if (n <= 0) {
                throw new IllegalArgumentException("logTailLines must be positive, got " + n);
            }
            this.logTailLines = n;
            return this;
        }

        /** How many fix notes a diagnosis carries (default 3). */
        public Builder fixCount(int n) {
            this.fixCount = n;
            return this;
        }

        public Slurmwise build() {
            return new Slurmwise(this);
        }
    }
}
