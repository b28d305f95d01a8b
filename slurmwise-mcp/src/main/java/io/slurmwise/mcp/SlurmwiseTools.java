package io.slurmwise.mcp;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTails;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.diagnose.Explanation;
import io.slurmwise.diagnose.FixNote;
import io.slurmwise.diagnose.TemplateExplainer;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.NoteSection;
import io.slurmwise.stats.EnergyModel;
import io.slurmwise.stats.FleetReport;
import io.slurmwise.stats.FleetScan;
import io.slurmwise.view.StatsContext;
import io.slurmwise.view.StatsViews;
import io.slurmwise.view.Views;

import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The read-only tools slurmwise offers to agents, as plain functions from arguments to JSON-ready values. The
 * MCP server and the in-process chat agent call the same functions. Bad arguments throw
 * {@link IllegalArgumentException} with a message the model can act on.
 */
public final class SlurmwiseTools {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;
    static final int MAX_LOG_BYTES = 4 << 20;

    private final Slurmwise slurmwise;
    private final String backendReason;

    /** The tools over a facade; its backend reason goes into every answer's footer. */
    public SlurmwiseTools(Slurmwise slurmwise) {
        this(slurmwise, slurmwise.backendReason());
    }

    public SlurmwiseTools(Slurmwise slurmwise, String backendReason) {
        this.slurmwise = slurmwise;
        this.backendReason = backendReason;
    }

    /** Tool name -> handler, in the order they are listed. */
    public Map<String, Function<Map<String, Object>, Object>> handlers() {
        Map<String, Function<Map<String, Object>, Object>> m = new LinkedHashMap<>();
        m.put("diagnose_job", this::diagnoseJob);
        m.put("list_jobs", this::listJobs);
        m.put("classify_log", this::classifyLog);
        m.put("failure_kinds", this::failureKinds);
        m.put("fleet_stats", this::fleetStats);
        return m;
    }

    public Object diagnoseJob(Map<String, Object> args) {
        return Views.diagnosis(slurmwise.diagnose(required(args, "job_id")), backendReason);
    }

    public Object listJobs(Map<String, Object> args) {
        LocalDateTime now = LocalDateTime.now();
        Set<JobState> states = EnumSet.noneOf(JobState.class);
        String s = optional(args, "states");
        if (s != null) {
            for (String name : s.split(",")) {
                if (name.isBlank()) {
                    continue;
                }
                JobState st = JobState.parse(name);
                if (st == JobState.UNKNOWN) {
                    throw new IllegalArgumentException("'" + name.strip() + "' is not a SLURM job state; use e.g. FAILED, TIMEOUT, OUT_OF_MEMORY");
                }
                states.add(st);
            }
        }
        String user = optional(args, "user");
        JobQuery q = new JobQuery(SlurmTime.parseWhen(orDefault(args, "since", "now-30days"), now),
                SlurmTime.parseWhen(orDefault(args, "until", "now"), now), states, user, user == null,
                optional(args, "partition"));
        int limit = limit(args);
        List<JobRecord> jobs;
        try (Stream<JobRecord> st = slurmwise.jobs(q)) {
            jobs = st.limit(limit).toList();
        }
        return Views.jobs(jobs, backendReason);
    }

    public Object classifyLog(Map<String, Object> args) {
        String log = required(args, "log");
        byte[] bytes = log.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_LOG_BYTES) {
            throw new IllegalArgumentException("the log is " + bytes.length / (1 << 20) + " MB; send at most its last 4 MB");
        }
        JobFacts facts = JobFacts.NONE;
        String state = optional(args, "state");
        if (state != null) {
            JobState st = JobState.parse(state);
            if (st == JobState.UNKNOWN) {
                throw new IllegalArgumentException("'" + state + "' is not a SLURM job state");
            }
            facts = facts.withState(st);
        }
        String exit = optional(args, "exit_code");
        if (exit != null) {
            facts = facts.withExitCode(ExitCode.parse(exit));
        }
        Finding f = slurmwise.classify(facts, List.of(LogTails.ofBytes(LogStream.STDERR, "log", bytes,
                slurmwise.logTailLines())));
        List<FixNote> fixes = slurmwise.retriever().retrieve(f, null, 3);
        Explanation e = new TemplateExplainer().explain(null, f, fixes);
        return Views.classification(List.of("log"), f, fixes, e);
    }

    /** The stats report of {@code slurmwise stats --json}, from accounting records only (no logs are read). */
    public Object fleetStats(Map<String, Object> args) {
        LocalDateTime now = LocalDateTime.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        String user = optional(args, "user");
        JobQuery q = new JobQuery(SlurmTime.parseWhen(orDefault(args, "since", "now-30days"), now),
                SlurmTime.parseWhen(orDefault(args, "until", "now"), now), null, user, user == null,
                optional(args, "partition"));
        FleetReport report = slurmwise.fleetScan().readLogs(false).energy(EnergyModel.defaults()).build().run(q).report();
        return StatsViews.json(new StatsContext(report, q, FleetScan.DEFAULT_SLICE,
                FleetScan.slices(q.since(), q.until(), FleetScan.DEFAULT_SLICE).size(), false, backendReason,
                slurmwise.taxonomy()));
    }

    public Object failureKinds(Map<String, Object> args) {
        String kind = optional(args, "kind");
        if (kind != null) {
            FailureKind k = slurmwise.taxonomy().find(kind).orElseThrow(() -> new IllegalArgumentException(
                    "no failure kind '" + kind + "'; call failure_kinds without arguments for the list"));
            Map<String, Object> m = kindSummary(k);
            Map<String, String> sections = new LinkedHashMap<>();
            for (NoteSection sec : k.note().sections()) {
                sections.put(sec.heading(), sec.text());
            }
            m.put("sections", sections);
            return m;
        }
        return Map.of("kinds", slurmwise.taxonomy().kinds().stream().map(SlurmwiseTools::kindSummary).toList());
    }

    private static Map<String, Object> kindSummary(FailureKind k) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", k.id());
        m.put("title", k.title());
        m.put("category", k.category().id());
        m.put("parent", k.parent());
        return m;
    }

    private static int limit(Map<String, Object> args) {
        Object v = args.get("limit");
        if (v == null) {
            return DEFAULT_LIMIT;
        }
        try {
            int n = v instanceof Number num ? num.intValue() : Integer.parseInt(v.toString().strip());
            if (n < 1 || n > MAX_LIMIT) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("limit must be a number from 1 to " + MAX_LIMIT + ", got " + v);
        }
    }

    private static String required(Map<String, Object> args, String name) {
        String v = optional(args, name);
        if (v == null) {
            throw new IllegalArgumentException("the argument '" + name + "' is required");
        }
        return v;
    }

    private static String optional(Map<String, Object> args, String name) {
        Object v = args == null ? null : args.get(name);
        return v == null || v.toString().isBlank() ? null : v.toString();
    }

    private static String orDefault(Map<String, Object> args, String name, String dflt) {
        String v = optional(args, name);
        return v == null ? dflt : v;
    }
}
