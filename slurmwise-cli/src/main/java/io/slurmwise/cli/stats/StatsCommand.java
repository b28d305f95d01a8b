package io.slurmwise.cli.stats;

import io.slurmwise.view.JsonText;
import io.slurmwise.view.StatsViews;
import io.slurmwise.view.StatsContext;
import io.slurmwise.Slurmwise;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.JsonOutput;
import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.context.UserError;
import io.slurmwise.classify.Classifier;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.stats.EnergyModel;
import io.slurmwise.stats.EnergyModelException;
import io.slurmwise.stats.FleetReport;
import io.slurmwise.stats.ExportStats;
import io.slurmwise.stats.FleetScan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code slurmwise stats}: what failures cost over a window, by kind, partition, user and day. */
@Command(name = "stats",
        header = "Report what failed jobs cost in hours and energy.", mixinStandardHelpOptions = true,
        description = {"What failed jobs cost: failure rate, wasted GPU/CPU-hours, estimated energy",
                "and CO2e by failure kind, partition, user and day; cancelled and preempted",
                "jobs apart; the most wasteful jobs; efficiency of completed jobs. Energy is",
                "estimated (power x time) unless marked measured (SLURM ConsumedEnergy).",
                "Example: slurmwise stats --since now-90days --all-users --html fleet.html"})
public final class StatsCommand implements Callable<Integer> {

    private final Cli cli;

    public StatsCommand(Cli cli) {
        this.cli = cli;
    }

    @Option(names = "--since", paramLabel = "WHEN",
            description = "Window start: now-30days (default; with --input: the whole export), now-12hours, "
                    + "2026-11-01, 2026-11-01T10:00.")
    private String since;

    @Option(names = "--until", paramLabel = "WHEN", description = "Window end (default now; with --input: the whole export).")
    private String until;

    @Option(names = "--input", paramLabel = "FILE|DIR", arity = "1..*",
            description = "Read sacct -P exports (with their header; any delimiter; .gz or .zst) instead of the "
                    + "cluster: files, or folders of them. See the README for the export command.")
    private List<Path> inputs;

    @Option(names = "--threads", paramLabel = "N",
            description = "Threads parsing --input exports (default: the available processors).")
    private Integer threads;

    @Option(names = "--user", paramLabel = "USER", description = "Only this user's jobs.")
    private String user;

    @Option(names = "--all-users", description = "Every user's jobs (what sacct -a shows; admins); adds the by-user table (an --input export shows it too).")
    private boolean allUsers;

    @Option(names = "--partition", paramLabel = "NAME", description = "Only this partition.")
    private String partition;

    @Mixin
    private JsonOutput json;

    @Option(names = "--csv", description = "One CSV table: the total, then one row per kind, partition, user and day.")
    private boolean csv;

    @Option(names = "--html", paramLabel = "FILE", description = "Write a self-contained HTML report with charts to FILE.")
    private Path html;

    @Option(names = "--prometheus", description = "node_exporter textfile format (write it to a *.prom file).")
    private boolean prometheus;

    @Option(names = "--gpu-watts", paramLabel = "W", description = "Watts of every GPU, whatever its model (default: "
            + "the datasheet figure of the model AllocTRES names, else 400).")
    private Double gpuWatts;

    @Option(names = "--cpu-watts", paramLabel = "W", description = "Watts per allocated CPU core (default 15).")
    private Double cpuWatts;

    @Option(names = "--memory-watts", paramLabel = "W", description = "Watts per GB of requested memory (default 0).")
    private Double memoryWatts;

    @Option(names = "--pue", paramLabel = "X", description = "Power usage effectiveness of the data centre (default 1.0).")
    private Double pue;

    @Option(names = "--carbon-intensity", paramLabel = "KG", description = "kg CO2e per kWh (default 0.37).")
    private Double carbonIntensity;

    @Option(names = "--energy-file", paramLabel = "FILE", description = "Site energy settings (Java properties; "
            + "overrides SLURMWISE_ENERGY_FILE; flags override the file).")
    private Path energyFile;

    @Option(names = "--logs", defaultValue = "auto", paramLabel = "auto|on|off",
            description = "Classify failed jobs by their log tails too: auto (default) = on for your own jobs, off with "
                    + "--all-users (thousands of other people's files); off = from the accounting record only.")
    private String logs;

    @Option(names = "--slice", defaultValue = "7days", paramLabel = "LENGTH",
            description = "Query accounting in slices of this length (default 7days; e.g. 1day, 12hours, 2weeks).")
    private String slice;

    @Option(names = "--top", defaultValue = "10", paramLabel = "N", description = "How many wasteful jobs to list (default 10).")
    private int top;

    @Override
    public Integer call() {
        int formats = (json.enabled() ? 1 : 0) + (csv ? 1 : 0) + (html != null ? 1 : 0) + (prometheus ? 1 : 0);
        if (formats > 1) {
            throw new UserError(ExitCodes.USAGE, "choose one output: --json, --csv, --html FILE or --prometheus");
        }
        if (user != null && allUsers) {
            throw new UserError(ExitCodes.USAGE, "--user and --all-users exclude each other; give one");
        }
        if (top < 0 || top > 1000) {
            throw new UserError(ExitCodes.USAGE, "--top must be between 0 and 1000, got " + top);
        }
        if (threads != null && (threads < 1 || threads > 256)) {
            throw new UserError(ExitCodes.USAGE, "--threads must be between 1 and 256, got " + threads);
        }
        if (inputs != null && logs.equalsIgnoreCase("on")) {
            throw new UserError(ExitCodes.USAGE, "--logs on needs the cluster's log files; --input exports are "
                    + "classified from their accounting records (drop --logs on)");
        }
        boolean readLogs = switch (logs.toLowerCase(Locale.ROOT)) {
            case "auto" -> !allUsers && inputs == null;
            case "on" -> true;
            case "off" -> false;
            default -> throw new UserError(ExitCodes.USAGE, "--logs must be auto, on or off, got '" + logs + "'");
        };
        Duration sliceLength = parseLength(slice);
        EnergyModel energy = energyModel(cli);
        LocalDateTime now = cli.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        String from = since != null ? since : inputs == null ? "now-30days" : null;
        String to = until != null ? until : inputs == null ? "now" : null;
        LocalDateTime end = to == null ? null : SlurmTime.parseWhen(to, now);
        if (end != null && inputs == null && end.isAfter(now)) {
            end = now; // the cluster has no jobs that end later: a window into the future ends now
        }
        JobQuery q = new JobQuery(from == null ? null : SlurmTime.parseWhen(from, now), end, null, user,
                allUsers || inputs != null, partition);
        StatsContext ctx;
        if (inputs != null) {
            ctx = fromExports(cli, q, energy, sliceLength);
        } else {
            Slurmwise sw = cli.slurmwise(Cli.Answers.FULL);
            // a partition the cluster does not have is an error naming those it has, as `jobs` says it
            io.slurmwise.backend.JobListing.checkPartition(sw.backend(), partition);
            ProgressBar bar = new ProgressBar(cli.progress(), cli.isTerminal() && !cli.env().containsKey("CI"));
            FleetReport report = sw.fleetScan().readLogs(readLogs).sliceLength(sliceLength).energy(energy).topJobs(top)
                    .progress(bar).build().run(q).report();
            bar.finish();
            if (report.total().jobs() == 0) {
                io.slurmwise.backend.JobListing.checkUser(sw.backend(), q); // a misspelt user is no empty window
            }
            ctx = new StatsContext(report, q, sliceLength, FleetScan.slices(q.since(), q.until(), sliceLength).size(),
                    readLogs, sw.backendReason(), sw.taxonomy());
        }
        if (ctx.report().implausibleNote() != null) {
            cli.notice(ctx.report().implausibleNote() + ": their times cannot be (an End before its Start, a Start"
                    + " before 2000, an Elapsed longer than End - Start), so they are in no figure");
        }
        if (json.enabled()) {
            cli.out().println(JsonText.of(StatsViews.json(ctx))); // the writer slurmwise-spark shares
        } else if (csv) {
            StatsCsv.write(cli.out(), ctx);
        } else if (prometheus) {
            StatsPrometheus.write(cli.out(), ctx);
        } else if (html != null) {
            writeHtml(cli, ctx);
        } else {
            new StatsPanel(cli.style(), ctx).print(cli.out());
        }
        cli.out().flush();
        return 0;
    }

    /** The same aggregate as the backend path, read straight from the exports in parallel blocks. */
    private StatsContext fromExports(Cli cli, JobQuery q, EnergyModel energy, Duration sliceLength) {
        List<ExportStats.Source> sources = ExportFiles.sources(inputs);
        // no cluster is asked: no backend, retriever or explainer to set up
        FleetScan scan = FleetScan.forRecords(new Classifier(cli.taxonomy())).energy(energy).topJobs(top).build();
        ExportStats.Builder b = ExportStats.builder(scan::newStats, scan::add);
        if (threads != null) {
            b.threads(threads);
        }
        ExportStats.Result r;
        try {
            r = b.build().run(sources, q);
        } catch (ExportStats.ExportException e) {
            throw new UserError(ExitCodes.INPUT, e.getMessage());
        }
        ExportStats.Counts c = r.counts();
        if (c.jobs() == 0 && c.malformed() == 0) {
            // an empty file, or a header alone: nothing to count, and "no jobs in this window" would hide it
            throw new UserError(ExitCodes.INPUT, "the export" + (c.files() == 1 ? "" : "s") + " hold" + (c.files() == 1
                    ? "s" : "") + " no job rows (an empty file, or a header alone); export again with sacct -P and"
                    + " a window that has jobs (-S/-E, -a for every user)");
        }
        if (c.jobs() == 0 && c.malformed() > 0) {
            // not "no jobs in this window": nothing could be read, and a report of zeros would hide it
            throw new UserError(ExitCodes.INPUT, "no row of the export" + (c.files() == 1 ? "" : "s") + " could be read"
                    + " as sacct output: " + c.malformed() + " row" + (c.malformed() == 1 ? " has" : "s have")
                    + " a field count other than the header's (first: " + c.firstMalformed() + "); export again with"
                    + " sacct -P and the header (a --delimiter no job name holds, e.g. $'\\x1f|')");
        }
        if (r.stats().report().total().jobs() == 0 && (q.user() != null || q.partition() != null)) {
            // a name the export never holds is a typo, not an empty window (an outside audit: --partition nope printed
            // a report of zeros and exit 0, which cron's --prometheus would publish); read again without the filters
            FleetReport whole;
            try {
                whole = b.build().run(sources, new JobQuery(null, null, null, null, true, null)).stats().report();
            } catch (ExportStats.ExportException e) {
                throw new UserError(ExitCodes.INPUT, e.getMessage());
            }
            absent("partition", q.partition(), whole.byPartition(), sources.size());
            absent("user", q.user(), whole.byUser(), sources.size());
        }
        if (c.repeated() > 0) {
            cli.notice(c.repeated() + " job row" + (c.repeated() == 1 ? "" : "s") + " of the export"
                    + (c.files() == 1 ? "" : "s") + " repeat" + (c.repeated() == 1 ? "s" : "") + " a job already read"
                    + " (the same cluster, id, times and state: overlapping exports, or a file given twice) and"
                    + " counted once");
        }
        if (c.malformed() > 0) {
            cli.notice(c.malformed() + " row" + (c.malformed() == 1 ? "" : "s") + " of the export" + (c.files() == 1 ? "" : "s")
                    + " could not be read and " + (c.malformed() == 1 ? "is" : "are") + " left out (first: "
                    + c.firstMalformed() + "): rows cut short or with a field count other than the header's; export"
                    + " again with sacct -P (a --delimiter no job name holds, e.g. $'\\x1f|')");
        }
        return new StatsContext(r.stats().report(), q, sliceLength, 1, false,
                StatsContext.exportOrigin(sources.get(0).name(), c), cli.taxonomy());
    }

    /** A --partition or --user the exports never name: a usage error naming those they do. */
    private static void absent(String what, String name, List<FleetReport.Breakdown> present, int files) {
        if (name == null || present.stream().anyMatch(b -> b.key().equals(name))) {
            return;
        }
        List<String> names = present.stream().map(FleetReport.Breakdown::key).sorted().toList();
        String listed = names.size() <= 20 ? String.join(", ", names)
                : String.join(", ", names.subList(0, 20)) + " and " + Fmt.count(names.size() - 20) + " more";
        throw new UserError(ExitCodes.USAGE, "no job of " + what + " '" + name + "' in the export" + (files == 1 ? "" : "s")
                + " (at any time); " + (names.isEmpty() ? "they name no " + what : "the " + what + "s there: " + listed)
                + ". Check the name (--" + what + " takes one as sacct prints it)");
    }

    private void writeHtml(Cli cli, StatsContext ctx) {
        String page = StatsHtml.render(ctx);
        try {
            Path parent = html.toAbsolutePath().getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                throw new UserError(ExitCodes.INPUT, "cannot write " + html + ": the folder " + parent
                        + " does not exist; create it or choose another --html path");
            }
            Files.writeString(html, page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError(ExitCodes.INPUT, "cannot write " + html + ": " + e.getMessage()
                    + "; choose a writable --html path");
        }
        cli.out().println("wrote " + html + " (" + (page.length() + 1023) / 1024 + " KB, self-contained: open it in "
                + "any browser, offline) · " + ctx.report().total().jobs() + " jobs · " + ctx.backend());
    }

    /** Defaults, then the site file (a bad file is a configuration error), then the flags (a usage error). */
    private EnergyModel energyModel(Cli cli) {
        EnergyModel m = EnergyModel.defaults();
        Path file = energyFile;
        if (file == null) {
            String env = cli.env().get(EnergyModel.SITE_FILE_VARIABLE);
            file = env == null || env.isBlank() ? null : Path.of(env.strip());
        }
        if (file != null) {
            try {
                m = EnergyModel.builder().siteFile(file).build();
            } catch (EnergyModelException e) {
                throw new UserError(ExitCodes.CONFIG, e.getMessage());
            }
        }
        try {
            m = m.toBuilder().apply(new EnergyModel.Overrides(gpuWatts, cpuWatts, memoryWatts, pue, carbonIntensity))
                    .build();
        } catch (EnergyModelException e) {
            throw new UserError(ExitCodes.USAGE, e.getMessage());
        }
        return m;
    }

    private static final Pattern LENGTH = Pattern.compile("(\\d{1,4})\\s*(hours?|h|days?|d|weeks?|w)",
            Pattern.CASE_INSENSITIVE);

    static Duration parseLength(String text) {
        Matcher m = LENGTH.matcher(text == null ? "" : text.strip());
        if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
            throw new UserError(ExitCodes.USAGE, "--slice '" + text + "' is not a length; use e.g. 7days, 1day, "
                    + "12hours or 2weeks");
        }
        long n = Long.parseLong(m.group(1));
        char unit = Character.toLowerCase(m.group(2).charAt(0));
        return switch (unit) {
            case 'h' -> Duration.ofHours(n);
            case 'd' -> Duration.ofDays(n);
            default -> Duration.ofDays(7 * n);
        };
    }
}
