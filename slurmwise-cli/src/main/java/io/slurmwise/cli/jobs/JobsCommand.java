package io.slurmwise.cli.jobs;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.JobListing;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.classify.Classifier;
import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.JsonOutput;
import io.slurmwise.cli.render.Json;
import io.slurmwise.view.StateCell;
import io.slurmwise.cli.render.Style;
import io.slurmwise.cli.render.Table;
import io.slurmwise.cli.render.TerminalText;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.job.UserNames;
import io.slurmwise.stats.FleetScan;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.job.Outcome;
import io.slurmwise.view.Views;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code slurmwise jobs}: list jobs of a window, newest first, with why each failed or waits. */
@Command(name = "jobs",
        header = "List jobs from the cluster's accounting.", mixinStandardHelpOptions = true,
        description = {"List jobs from the cluster's accounting, newest first: KIND says why a failed, cancelled or",
                "preempted job ended (from its record; --classify reads its logs too, as diagnose does), REASON why a",
                "pending job waits. STATE is SLURM's; COMPLETED* marks a job whose batch script exited 0 after a",
                "step failed (an srun step out of memory): every command counts it as failed, under the step's KIND.",
                "Example: slurmwise jobs --state FAILED,TIMEOUT,OUT_OF_MEMORY --since today --last 10"})
public final class JobsCommand implements Callable<Integer> {

    private final Cli cli;

    public JobsCommand(Cli cli) {
        this.cli = cli;
    }

    @Option(names = "--state", split = ",", paramLabel = "STATE",
            description = "Only these states, comma-separated (FAILED,TIMEOUT,OUT_OF_MEMORY,...; short forms F,TO,OOM work)."
                    + " SLURM's states, but a COMPLETED job whose step failed (COMPLETED*) is listed under FAILED and"
                    + " under its step's state too.")
    private List<String> states = List.of();

    @Option(names = "--since", defaultValue = "now-30days", paramLabel = "WHEN",
            description = "Window start, as sacct -S takes it: now-30days (default), now-2hours, today, midnight, noon,"
                    + " 14:30, 2026-11-01, 2026-11-01T10:00, 11/01.")
    private String since;

    @Option(names = "--until", defaultValue = "now", paramLabel = "WHEN", description = "Window end (default now); the same forms.")
    private String until;

    @Option(names = "--user", paramLabel = "USER", description = "Only this user's jobs (default: every user the backend shows).")
    private String user;

    @Option(names = "--all-users", description = "Every user's jobs the backend shows (the default; as stats takes it).")
    private boolean allUsers;

    @Option(names = "--partition", paramLabel = "NAME", description = "Only this partition (an unknown one lists them).")
    private String partition;

    @Option(names = "--name", paramLabel = "PATTERN", description = "Only jobs whose name matches (a glob: train*, or a text it contains).")
    private String name;

    @Option(names = "--last", paramLabel = "N", description = "Only the N newest jobs (with --oldest-first: the N oldest).")
    private Integer last;

    @Option(names = "--oldest-first", description = "Oldest first, as sacct lists them (default: newest first).")
    private boolean oldestFirst;

    @Option(names = "--classify", description = "Read the logs of failed, cancelled and preempted jobs for KIND (slower: two log tails per such job).")
    private boolean classify;

    @Mixin
    private JsonOutput json;

    @Override
    public Integer call() {
        if (last != null && last < 1) {
            throw new IllegalArgumentException("--last must be at least 1, got " + last);
        }
        if (allUsers && user != null) {
            throw new IllegalArgumentException("--user and --all-users exclude each other; give one");
        }
        LocalDateTime now = cli.now();
        JobQuery q = new JobQuery(SlurmTime.parseWhen(since, now), SlurmTime.parseWhen(until, now),
                JobState.parseList(states), user, user == null, partition);
        Slurmwise sw = cli.slurmwise(Cli.Answers.FULL);
        JobListing.Result r = JobListing.list(sw.backend(), q, name, !oldestFirst, last == null ? Integer.MAX_VALUE : last);
        FleetScan scan = sw.fleetScan().readLogs(classify).build();
        // each job classified once (with --classify: its logs read once), whichever table or form shows it
        Map<JobRecord, Classifier.Verdict> kinds = new IdentityHashMap<>();
        for (JobRecord j : r.jobs()) {
            if (j.outcome().diagnose()) {
                kinds.put(j, scan.verdict(j));
            }
        }
        if (json.enabled()) {
            Map<String, Object> m = Views.jobs(r.jobs(), sw.backendReason());
            m.put("matched", r.matched());
            m.put("truncated", r.truncated());
            m.put("kinds_from", classify ? "records_and_logs" : "records");
            List<Map<String, Object>> views = new ArrayList<>();
            for (JobRecord j : r.jobs()) {
                Map<String, Object> v = new LinkedHashMap<>(Views.job(j));
                v.put("state_text", UserNames.describe(j.status(), sw.backend()::userName));
                // what became of it, as stats, watch and diagnose count it: a COMPLETED job whose step failed is failed
                v.put("outcome", j.outcome().id());
                v.put("kind", kind(kinds, j));
                if (tentative(kinds, j)) {
                    v.put("kind_tentative", true);
                }
                views.add(v);
            }
            m.put("jobs", views);
            Json.print(cli.out(), m);
            return 0;
        }
        Style st = cli.style();
        Table t = new Table(st, "JOBID", "NAME", "USER", "PARTITION", "STATE", "EXIT", "ELAPSED", "LIMIT", "END", "KIND", "REASON")
                .flexible("REASON", 10).flexible("LIMIT", 10).flexible("STATE", 13).flexible("END", 16)
                .flexible("NAME", 15).flexible("PARTITION", 9).flexible("KIND", 10)
                .keep("STATE", 13);
        for (JobRecord j : r.jobs()) {
            boolean started = j.start() != null && j.state() != JobState.PENDING;
            t.row(j.id().toString(), TerminalText.line(nz(j.name())), TerminalText.line(nz(j.user())),
                    TerminalText.line(nz(j.partition())), st.state(j.outcome(), stateText(j, sw)),
                    !started || j.exitCode() == null ? "" : j.exitCode().toString(),
                    !started || j.elapsed() == null ? "" : SlurmTime.format(j.elapsed()), j.timeLimit().human(),
                    j.end() == null ? "" : j.end().toString().replace('T', ' '), shownKind(kind(kinds, j), classify, tentative(kinds, j)),
                    TerminalText.line(j.optPendingReason().orElse("")));
        }
        if (t.fitsCuttingFreeTextOnly()) {
            t.print(cli.out());
        } else {
            narrow(st, r.jobs(), kinds, sw).print(cli.out());
        }
        io.slurmwise.cli.render.Panel.println(cli.out(), st.dim(r.jobs().size() + " job" + (r.jobs().size() == 1 ? "" : "s")
                + (r.truncated() ? " of " + r.matched() : "") + (oldestFirst ? ", oldest first" : ", newest first")
                + " · KIND from " + (classify ? "records and logs" : "records, ? where a record alone does not say"
                + " or only suggests it (--classify reads the logs)") + " · "
                + (r.jobs().stream().anyMatch(StateCell::marked) ? StateCell.KEY + " · " : "")
                + TerminalText.line(sw.backendReason())), st.width());
        return 0;
    }

    /**
     * The table for a terminal too narrow for every column whole (80 columns: the wide one cut job ids, times and
     * limits to "225…", an outside audit): the id, name, user, state and elapsed time whole, and one WHY cell that
     * says why a job ended (its KIND, with the exit code when the record alone does not say) or waits (its REASON).
     */
    private Table narrow(Style st, List<JobRecord> jobs, Map<JobRecord, Classifier.Verdict> kinds, Slurmwise sw) {
        Table t = new Table(st, "JOBID", "NAME", "USER", "STATE", "ELAPSED", "WHY")
                .flexible("NAME", 8).flexible("WHY", 10).flexible("USER", 6).keep("STATE", 13);
        for (JobRecord j : jobs) {
            boolean started = j.start() != null && j.state() != JobState.PENDING;
            String kind = shownKind(kind(kinds, j), classify, tentative(kinds, j));
            String why = j.outcome() == Outcome.PENDING ? TerminalText.line(j.optPendingReason().orElse(""))
                    : kind.equals("?") && j.exitCode() != null ? "? (exit " + j.exitCode() + ")" : kind;
            t.row(j.id().toString(), TerminalText.line(nz(j.name())), TerminalText.line(nz(j.user())),
                    st.state(j.outcome(), stateText(j, sw)),
                    !started || j.elapsed() == null ? "" : SlurmTime.format(j.elapsed()), why);
        }
        return t;
    }

    /** SLURM's state in words ({@code CANCELLED by alice}), {@code COMPLETED*} when a step failed ({@link StateCell}). */
    private static String stateText(JobRecord j, Slurmwise sw) {
        return StateCell.text(j, TerminalText.line(UserNames.describe(j.status(), sw.backend()::userName)));
    }

    /**
     * The KIND cell: from records only, a failure the record cannot explain is "?", not "unknown", which would read as
     * the verdict that diagnose (reading the logs) then contradicts.
     */
    static String shownKind(String kind, boolean fromLogs, boolean tentative) {
        return kind == null ? "" : !fromLogs && kind.equals(FailureKind.UNKNOWN) ? "?" : tentative ? kind + "?" : kind;
    }

    /** Below this confidence a kind read from the record alone is a lead, not a verdict. */
    static final double TENTATIVE = 0.7;

    /**
     * Whether a kind read from the record alone only suggests the cause: an exit status 127 reads as a missing file
     * though its log may say a missing module or library (1009, 1012 showed file_not_found where diagnose says
     * missing_shared_library and module_load; an outside audit). Never with --classify: its kind is read from the
     * logs too, and the record's doubt is not the logs' (text marked 1012's module_load from its log 'module_load?'
     * for the record's exit 127, where --json did not). The verdict carries its confidence: one classification.
     */
    private boolean tentative(Map<JobRecord, Classifier.Verdict> kinds, JobRecord j) {
        Classifier.Verdict v = kinds.get(j);
        return !classify && v != null && !v.kind().equals(FailureKind.UNKNOWN) && v.confidence() < TENTATIVE;
    }

    /**
     * The kind of a job that diagnose diagnoses ({@link Outcome#diagnose()}: failed, a completed one's failed step
     * included, cancelled, preempted), by the same classifier; else none.
     */
    private static String kind(Map<JobRecord, Classifier.Verdict> kinds, JobRecord j) {
        Classifier.Verdict v = kinds.get(j);
        return v == null ? null : v.kind();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
