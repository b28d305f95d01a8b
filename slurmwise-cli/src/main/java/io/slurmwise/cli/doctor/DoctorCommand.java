package io.slurmwise.cli.doctor;

import io.slurmwise.agent.explain.LlmProbe;
import io.slurmwise.agent.explain.LlmSettings;
import io.slurmwise.backend.Backends;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.JsonOutput;
import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.render.Json;
import io.slurmwise.cli.render.Panel;
import io.slurmwise.cli.render.Style;
import io.slurmwise.config.Settings;
import io.slurmwise.job.Partition;
import io.slurmwise.kb.KbConfig;
import io.slurmwise.kb.KnowledgeBase;
import io.slurmwise.kb.store.ChromaStore;
import io.slurmwise.stats.EnergyModel;
import io.slurmwise.taxonomy.Taxonomy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code slurmwise doctor}: checks everything slurmwise depends on, in the order a diagnosis uses it, and says
 * what to fix. Read-only like every command: it lists partitions and the last hour of the user's jobs, reads the
 * notes, loads the model, opens (never builds) the index, and asks the model server which models it serves.
 */
@Command(name = "doctor",
        header = "Check the setup and say what to fix.", mixinStandardHelpOptions = true,
        description = {"Check the setup: settings, SLURMWISE_HOME, the knowledge notes, the backend (SLURM commands,"
                + " slurmdbd, slurmctld), the knowledge index and its store, the language model, the energy file.",
                "Exit code 0 when nothing failed (warnings allowed), 4 when the backend or accounting failed, 6 for"
                        + " other failures."})
public final class DoctorCommand implements Callable<Integer> {

    /** How one check ended; WARN means slurmwise works, with less (the template instead of the model, ...). */
    enum Status { OK, WARN, FAIL, SKIP }

    record Check(String name, Status status, String detail, Duration took) {
    }

    private final Cli cli;

    public DoctorCommand(Cli cli) {
        this.cli = cli;
    }

    @Mixin
    private JsonOutput json;

    private final List<Check> checks = new ArrayList<>();
    // what the backend said a query left out (rows the cluster printed that could not be read)
    private final List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();

    @Override
    public Integer call() {
        Settings settings = check("settings", () -> {
            Settings s = cli.settings();
            return new Outcome<>(s, Status.OK, "home " + s.home() + ", log tail " + s.logTailLines() + " lines, backend "
                    + s.backend());
        });
        if (settings != null) {
            check("home", () -> home(settings.home()));
        }
        Taxonomy taxonomy = check("knowledge", () -> {
            Taxonomy t = cli.taxonomy();
            long refinements = t.kinds().stream().filter(k -> k.parent() != null).count();
            Path site = settings == null ? null : settings.knowledgeDir();
            return new Outcome<>(t, Status.OK, t.kinds().size() + " notes (" + refinements + " refinements), bundled"
                    + (site == null ? "" : " + site notes from " + site));
        });
        SlurmBackend backend = settings == null ? null : check("backend", () -> {
            Backends.Selection sel = Backends.select(settings, Backends.class.getClassLoader(), told::add);
            return new Outcome<>(sel.backend(), Status.OK, sel.reason());
        });
        if (backend != null) {
            check("accounting", () -> accounting(backend));
            check("controller", () -> controller(backend));
            check("qos limits", () -> qosLimits(backend));
        } else {
            skip("accounting", "needs a backend");
            skip("controller", "needs a backend");
            skip("qos limits", "needs a backend");
        }
        if (settings != null && taxonomy != null) {
            check("knowledge index", () -> index(settings, taxonomy));
        } else {
            skip("knowledge index", "needs valid settings and notes");
        }
        String chromaUrl = settings == null ? null : settings.get("SLURMWISE_CHROMA_URL").orElse(null);
        if (chromaUrl == null || chromaUrl.isBlank()) {
            skip("chroma", "SLURMWISE_CHROMA_URL is not set: the index is a file under SLURMWISE_HOME");
        } else {
            check("chroma", () -> {
                KbConfig c = KbConfig.from(settings);
                try {
                    ChromaStore s = ChromaStore.connect(c.chromaUrl(), c.chromaTenant(), c.chromaDatabase(),
                            c.chromaTimeout(), c.chromaAuth());
                    return new Outcome<>(s, Status.OK, "answers at " + s.location()
                            + (c.chromaAuth() == null ? "" : " (" + c.chromaAuth() + ")"));
                } catch (io.slurmwise.kb.spi.KbException e) {
                    // diagnoses fall back to the embedded index: degraded, not broken
                    return new Outcome<>(null, Status.WARN, e.getMessage() + "; until it does, diagnoses use the"
                            + " embedded index under SLURMWISE_HOME");
                }
            });
        }
        if (settings != null) {
            check("language model", () -> {
                LlmProbe.Result r = LlmProbe.check(LlmSettings.from(settings));
                Status st = r.usable() ? (r.certain() ? Status.OK : Status.WARN)
                        : r.detail().startsWith("disabled") ? Status.SKIP : Status.WARN;
                return new Outcome<>(r, st, r.detail());
            });
            check("energy", () -> energy(settings));
        }
        print(cli);
        return exitCode();
    }

    private record Outcome<T>(T value, Status status, String detail) {
    }

    @FunctionalInterface
    private interface Step<T> {
        Outcome<T> run() throws Exception;
    }

    /** Runs one check; any failure becomes a FAIL with its message. Returns its value (null unless OK or WARN). */
    private <T> T check(String name, Step<T> step) {
        long t0 = System.nanoTime();
        try {
            Outcome<T> o = step.run();
            checks.add(new Check(name, o.status(), o.detail(), Duration.ofNanos(System.nanoTime() - t0)));
            return o.status() == Status.FAIL ? null : o.value();
        } catch (Exception | LinkageError e) {
            String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            checks.add(new Check(name, Status.FAIL, m, Duration.ofNanos(System.nanoTime() - t0)));
            return null;
        }
    }

    private void skip(String name, String why) {
        checks.add(new Check(name, Status.SKIP, why, Duration.ZERO));
    }

    private static Outcome<Path> home(Path home) throws Exception {
        Files.createDirectories(home);
        Path probe = Files.createTempFile(home, ".doctor", ".tmp");
        Files.delete(probe);
        return new Outcome<>(home, Status.OK, home + " is writable (watch state, knowledge index)");
    }

    /** sacct (slurmdbd): without it nothing can be diagnosed; rows it printed that cannot be read are a warning. */
    private Outcome<Long> accounting(SlurmBackend b) {
        java.time.LocalDateTime now = java.time.LocalDateTime.now();
        long jobs;
        try (Stream<io.slurmwise.job.JobRecord> s = b.jobs(new JobQuery(now.minusDays(1), now, java.util.Set.of(),
                null, false, null))) {
            jobs = s.count();
        }
        if (!told.isEmpty()) {
            return new Outcome<>(jobs, Status.WARN, jobs + " of your jobs in the last 24 hours read, but " + told.get(0));
        }
        return new Outcome<>(jobs, Status.OK, "job records answer (" + jobs + " of your jobs in the last 24 hours)");
    }

    /**
     * sinfo / scontrol / squeue (slurmctld): partitions, pending reasons, log paths of recent jobs. Without it
     * finished jobs can still be diagnosed, so a failure here is a warning.
     */
    private static Outcome<List<Partition>> controller(SlurmBackend b) {
        List<Partition> parts;
        try {
            parts = b.partitions();
        } catch (RuntimeException e) {
            return new Outcome<>(List.of(), Status.WARN, e.getMessage() + ". Finished jobs can still be diagnosed"
                    + " from accounting; pending reasons, partition limits and time-limit patches need it");
        }
        String names = parts.stream().map(Partition::name).distinct().limit(6).reduce((x, y) -> x + ", " + y)
                .orElse("none");
        return parts.isEmpty()
                ? new Outcome<>(parts, Status.WARN, "no partition is visible: check `sinfo`")
                : new Outcome<>(parts, Status.OK, parts.size() + " partitions (" + names + ")");
    }

    /**
     * sacctmgr's QOSes (slurmdbd): their MaxWall caps a time fix on every partition. Without them the fix says to check
     * the QOS by hand, so a failure here is a warning.
     */
    private static Outcome<List<io.slurmwise.job.Qos>> qosLimits(SlurmBackend b) {
        List<io.slurmwise.job.Qos> qos;
        try {
            qos = b.qos();
        } catch (RuntimeException e) {
            return new Outcome<>(List.of(), Status.WARN, e.getMessage() + ". Time fixes are then not checked against"
                    + " the QOS MaxWall and say to check it");
        }
        String shown = qos.stream().limit(6).map(io.slurmwise.job.Qos::describe).reduce((x, y) -> x + ", " + y)
                .orElse("");
        return qos.isEmpty()
                ? new Outcome<>(qos, Status.WARN, "no QOS is known to this backend (a mock export without qos.psv):"
                + " time fixes say to check the QOS MaxWall")
                : new Outcome<>(qos, Status.OK, qos.size() + " QOS (" + shown + (qos.size() > 6 ? ", ..." : "") + ")");
    }

    private static Outcome<KnowledgeBase> index(Settings settings, Taxonomy taxonomy) {
        KbConfig c = KbConfig.from(settings);
        // a Chroma failure is the chroma check's; here the embedded file speaks for the index
        KnowledgeBase kb = KnowledgeBase.open(taxonomy, c.withChroma(null, false), m -> { });
        long t0 = System.nanoTime();
        kb.embedder();
        double load = (System.nanoTime() - t0) / 1e9;
        boolean built = kb.store().holds(kb.key(), kb.passages().size());
        String model = c.embeddings().name() + String.format(Locale.ROOT, " loads in %.1f s", load);
        return built
                ? new Outcome<>(kb, Status.OK, model + "; index built (" + kb.passages().size() + " passages) at "
                + kb.store().location())
                : new Outcome<>(kb, Status.WARN, model + "; the index for the current notes is not built yet: the"
                + " first diagnose builds it (a few seconds), or run `slurmwise kb build`");
    }

    private static Outcome<EnergyModel> energy(Settings settings) throws Exception {
        String file = settings.get(EnergyModel.SITE_FILE_VARIABLE).orElse(null);
        if (file == null || file.isBlank()) {
            return new Outcome<>(EnergyModel.defaults(), Status.OK, "datasheet defaults (set "
                    + EnergyModel.SITE_FILE_VARIABLE + " for your site's watts, PUE and carbon intensity)");
        }
        EnergyModel m = EnergyModel.builder().siteFile(Path.of(file.strip())).build();
        return new Outcome<>(m, Status.OK, "site file " + file.strip() + " read");
    }

    private int exitCode() {
        for (Check c : checks) {
            if (c.status() == Status.FAIL) {
                return c.name().equals("backend") || c.name().equals("accounting") ? ExitCodes.BACKEND : ExitCodes.CONFIG;
            }
        }
        return ExitCodes.OK;
    }

    private void print(Cli cli) {
        long failed = checks.stream().filter(c -> c.status() == Status.FAIL).count();
        long warned = checks.stream().filter(c -> c.status() == Status.WARN).count();
        if (json.enabled()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("schema", "slurmwise.doctor/v1");
            m.put("ok", failed == 0);
            List<Map<String, Object>> list = new ArrayList<>();
            for (Check c : checks) {
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("name", c.name());
                v.put("status", c.status().name().toLowerCase(Locale.ROOT));
                v.put("detail", c.detail());
                v.put("millis", c.took().toMillis());
                list.add(v);
            }
            m.put("checks", list);
            Json.print(cli.out(), m);
            return;
        }
        Style style = cli.style();
        Panel panel = new Panel(style, "slurmwise doctor");
        for (Check c : checks) {
            String mark = switch (c.status()) {
                case OK -> style.green("ok  ");
                case WARN -> style.yellow("warn");
                case FAIL -> style.red("FAIL");
                case SKIP -> style.dim("skip");
            };
            panel.item(mark, style.bold(c.name()) + ": " + c.detail());
        }
        panel.footer(failed > 0 ? failed + " failed, " + warned + " warning(s): fix the FAIL lines first"
                : warned > 0 ? "works, with " + warned + " warning(s)" : "all good").print(cli.out());
    }
}
