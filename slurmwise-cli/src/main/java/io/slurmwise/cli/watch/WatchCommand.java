package io.slurmwise.cli.watch;

import io.slurmwise.cli.render.Panel;
import io.slurmwise.Slurmwise;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.JsonOutput;
import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.context.UserError;
import io.slurmwise.cli.render.Json;
import io.slurmwise.view.StateCell;
import io.slurmwise.cli.render.Style;
import io.slurmwise.cli.render.Table;
import io.slurmwise.cli.render.TerminalText;
import io.slurmwise.view.Views;
import io.slurmwise.classify.Evidence;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.Outcome;
import io.slurmwise.job.SlurmTime;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code slurmwise watch}: diagnoses every job that failed since the last run, once. Each poll is one accounting
 * query over a time window (from the last window's end, minus a small overlap for late accounting records), and
 * the state file remembers which jobs were already diagnosed.
 */
@Command(name = "watch",
        header = "Diagnose each job that failed since the last run, once.", mixinStandardHelpOptions = true,
        description = {"Diagnose every job that failed since the last run, once each: a compact summary, or one",
                "JSON record per job. Without --once it polls until interrupted (default every 5 minutes), with one",
                "accounting query per poll. State: SLURMWISE_HOME/watch-<backend>.json.",
                "Example: slurmwise watch --once"})
public final class WatchCommand implements Callable<Integer> {

    /** The states accounting is asked for ({@link Outcome#mayDiagnose()}); each record's outcome then decides. */
    static final Set<JobState> WATCHED = Outcome.mayDiagnose();
    /** Accounting records can land a little after the job ended: each window starts this much before the last end. */
    static final Duration OVERLAP = Duration.ofMinutes(10);
    /** How long a diagnosed job id is remembered: longer than the default first window (30 days). */
    static final Duration RETENTION = Duration.ofDays(35);
    private static final Pattern INTERVAL = Pattern.compile("(\\d{1,6})(s|m|h)");

    private final Cli cli;

    public WatchCommand(Cli cli) {
        this.cli = cli;
    }

    @Option(names = "--once", description = "Poll once and exit (for cron or a systemd timer).")
    private boolean once;

    @Option(names = "--interval", defaultValue = "5m", paramLabel = "DURATION",
            description = "Time between polls: 30s, 5m (default), 1h. Under a minute is not gentle on a shared slurmdbd.")
    private String interval;

    @Option(names = "--since", defaultValue = "now-30days", paramLabel = "WHEN",
            description = "Where the very first window starts, when there is no state yet (default now-30days).")
    private String since;

    @Option(names = "--max-polls", paramLabel = "N", description = "Stop after N polls (default: until interrupted).")
    private Integer maxPolls;

    @Mixin
    private JsonOutput json;

    @Override
    public Integer call() {
        Duration every = parseInterval(interval);
        if (every.compareTo(Duration.ofMinutes(1)) < 0 && !once) {
            cli.error("polling every " + interval + " queries accounting often; prefer 5m on a shared cluster");
        }
        Slurmwise sw = cli.slurmwise(Cli.Answers.FULL);
        Path stateFile = WatchState.file(cli.settings().home(), sw.backend().name());
        int limit = once ? 1 : maxPolls == null ? Integer.MAX_VALUE : maxPolls;
        if (limit < 1) {
            throw new UserError(ExitCodes.USAGE, "--max-polls must be at least 1");
        }
        for (int poll = 1; poll <= limit; poll++) {
            poll(cli, sw, stateFile);
            if (poll < limit) {
                try {
                    Thread.sleep(every.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        return ExitCodes.OK;
    }

    static Duration parseInterval(String text) {
        Matcher m = INTERVAL.matcher(text == null ? "" : text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
            throw new UserError(ExitCodes.USAGE, "--interval '" + text + "' is not a duration; use e.g. 30s, 5m, 1h");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }

    private void poll(Cli cli, Slurmwise sw, Path stateFile) {
        WatchState state;
        try {
            state = WatchState.load(stateFile);
        } catch (WatchState.DamagedException e) {
            // a damaged state is set aside and rebuilt: the next poll reports failures again rather than lose one
            cli.error(e.getMessage());
            state = WatchState.empty();
        } catch (IOException e) {
            throw new UserError(ExitCodes.CONFIG, e.getMessage());
        }
        LocalDateTime now = cli.now();
        LocalDateTime from = state.optWindowEnd().map(t -> t.minus(OVERLAP)).orElse(SlurmTime.parseWhen(since, now));
        if (from.isAfter(now)) {
            from = now.minus(OVERLAP); // a clock that went back: never a window that ends before it starts
        }
        List<JobRecord> window;
        try (Stream<JobRecord> s = sw.jobs(new JobQuery(from, now, WATCHED, null, true, null))) {
            window = s.filter(j -> j.end() != null && j.outcome().diagnose()).toList();
        }
        List<Diagnosis> fresh = new ArrayList<>();
        Map<String, LocalDateTime> done = state.diagnosed();
        for (JobRecord j : window.stream().sorted(Comparator.comparing(JobRecord::end)).toList()) {
            String id = j.id().toString();
            if (!state.seen(id)) {
                fresh.add(sw.diagnose(j, false));
                done.put(id, now);
            }
        }
        // forget jobs long after no window can return them (a window never starts more than --since back)
        LocalDateTime forget = now.minus(RETENTION);
        done.values().removeIf(at -> at == null || at.isBefore(forget));
        // at least once: the failures are out (flushed) before the state says they were reported, so a kill in
        // between repeats them on the next poll instead of losing them
        if (json.enabled()) {
            for (Diagnosis d : fresh) {
                Json.printLine(cli.out(), Views.diagnosis(d, sw.backendReason()));
            }
        } else {
            print(cli, sw.backendReason(), fresh, from, now);
        }
        cli.out().flush();
        try {
            new WatchState(now, done).save(stateFile);
        } catch (IOException e) {
            throw new UserError(ExitCodes.CONFIG, "cannot write the watch state " + stateFile + ": " + e.getMessage()
                    + "; check SLURMWISE_HOME");
        }
    }

    private static void print(Cli cli, String backendReason, List<Diagnosis> fresh, LocalDateTime from, LocalDateTime now) {
        Style st = cli.style();
        String window = from.withNano(0).toString().replace('T', ' ') + " .. " + now.withNano(0).toString().replace('T', ' ');
        if (fresh.isEmpty()) {
            Panel.println(cli.out(), st.dim("No new failures in " + window + " · " + TerminalText.line(backendReason)), st.width());
            cli.out().flush();
            return;
        }
        // the deciding line goes under its row, across the terminal: as a ninth column it kept 7 characters at 80
        Table t = new Table(st, "JOBID", "NAME", "USER", "STATE", "ELAPSED", "KIND", "CONF").flexible("NAME");
        for (Diagnosis d : fresh) {
            d.<Runnable>fold(nf -> () -> { }, s -> () -> {
                JobRecord j = s.job();
                t.row(j.id().toString(), TerminalText.line(j.name()), TerminalText.line(j.user() == null ? "" : j.user()),
                        st.state(j.outcome(), StateCell.text(j, TerminalText.line(j.status().toString()))), "", "", "")
                        .detail(TerminalText.line(s.summary()));
            }, f -> () -> {
                JobRecord j = f.job();
                Evidence deciding = f.finding().decidingLine();
                // cut at its end: it starts near the words that decided
                String evidence = deciding == null ? "" : Panel.fromMatch(deciding.text(), deciding.match(), 24);
                t.row(j.id().toString(), TerminalText.line(j.name()), TerminalText.line(j.user() == null ? "" : j.user()),
                        st.state(j.outcome(), StateCell.text(j, TerminalText.line(j.status().toString()))), j.elapsed() == null ? "" : SlurmTime.format(j.elapsed()),
                        f.finding().isUnknown() ? st.yellow("unknown") : st.red(f.finding().kindId()),
                        String.format(Locale.ROOT, "%.0f%%", f.finding().confidence() * 100))
                        .detail(TerminalText.line(evidence));
            }).run();
        }
        t.print(cli.out());
        Panel.println(cli.out(), st.dim(fresh.size() + " new failure" + (fresh.size() == 1 ? "" : "s") + " in " + window
                + " · `slurmwise diagnose <jobid>` for evidence, fixes and a patch · "
                + (fresh.stream().anyMatch(d -> d.fold(nf -> false, so -> StateCell.marked(so.job()), f -> StateCell.marked(f.job())))
                        ? StateCell.KEY + " · " : "")
                + TerminalText.line(backendReason)),
                st.width());
        cli.out().flush();
    }
}
