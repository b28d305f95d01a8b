package io.slurmwise.cli.jobs;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.JsonOutput;
import io.slurmwise.cli.render.Json;
import io.slurmwise.cli.render.Style;
import io.slurmwise.cli.render.Table;
import io.slurmwise.view.Views;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.SlurmTime;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.LocalDateTime;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/** {@code slurmwise jobs}: list jobs of a window, by state, user and partition. */
@Command(name = "jobs",
        header = "List jobs from the cluster's accounting.", mixinStandardHelpOptions = true,
        description = {"List jobs from the cluster's accounting.",
                "Example: slurmwise jobs --state FAILED,TIMEOUT,OUT_OF_MEMORY --since now-7days"})
public final class JobsCommand implements Callable<Integer> {

    private final Cli cli;

    public JobsCommand(Cli cli) {
        this.cli = cli;
    }

    @Option(names = "--state", split = ",", paramLabel = "STATE",
            description = "Only these states, comma-separated (FAILED,TIMEOUT,OUT_OF_MEMORY,...; short forms F,TO,OOM work).")
    private List<String> states = List.of();

    @Option(names = "--since", defaultValue = "now-30days", paramLabel = "WHEN",
            description = "Window start: now-30days (default), now-12hours, 2026-11-01, 2026-11-01T10:00.")
    private String since;

    @Option(names = "--until", defaultValue = "now", paramLabel = "WHEN", description = "Window end (default now).")
    private String until;

    @Option(names = "--user", paramLabel = "USER", description = "Only this user's jobs (default: every user the backend shows).")
    private String user;

    @Option(names = "--partition", paramLabel = "NAME", description = "Only this partition.")
    private String partition;

    @Mixin
    private JsonOutput json;

    @Override
    public Integer call() {
        LocalDateTime now = cli.now();
        JobQuery q = new JobQuery(SlurmTime.parseWhen(since, now), SlurmTime.parseWhen(until, now), parseStates(states),
                user, user == null, partition);
        Slurmwise sw = cli.slurmwise(Cli.Answers.FULL);
        List<JobRecord> jobs;
        try (Stream<JobRecord> s = sw.jobs(q)) {
            jobs = s.toList();
        }
        if (json.enabled()) {
            Json.print(cli.out(), Views.jobs(jobs, sw.backendReason()));
            return 0;
        }
        Style st = cli.style();
        Table t = new Table(st, "JOBID", "NAME", "USER", "PARTITION", "STATE", "EXIT", "ELAPSED", "LIMIT", "END")
                .flexible("LIMIT", 10).flexible("STATE", 13).flexible("END", 16).flexible("NAME", 15)
                .flexible("PARTITION", 9);
        for (JobRecord j : jobs) {
            t.row(j.id().toString(), j.name(), nz(j.user()), nz(j.partition()), st.state(j.status().toString()),
                    j.exitCode() == null ? "" : j.exitCode().toString(),
                    j.elapsed() == null ? "" : SlurmTime.format(j.elapsed()), j.timeLimit().toString(),
                    j.end() == null ? "" : j.end().toString().replace('T', ' '));
        }
        t.print(cli.out());
        cli.out().println(st.dim(jobs.size() + " job" + (jobs.size() == 1 ? "" : "s") + " · " + sw.backendReason()));
        return 0;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    static Set<JobState> parseStates(List<String> names) {
        Set<JobState> out = EnumSet.noneOf(JobState.class);
        for (String n : names) {
            if (n.isBlank()) {
                continue;
            }
            JobState s = JobState.parse(n);
            if (s == JobState.UNKNOWN) {
                throw new IllegalArgumentException("'" + n + "' is not a SLURM job state; use e.g. FAILED, TIMEOUT, "
                        + "OUT_OF_MEMORY, CANCELLED, NODE_FAIL, PREEMPTED, COMPLETED, RUNNING, PENDING");
            }
            out.add(s);
        }
        return out;
    }
}
