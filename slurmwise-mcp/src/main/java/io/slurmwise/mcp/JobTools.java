package io.slurmwise.mcp;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.JobListing;
import io.slurmwise.backend.JobLookup;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.job.UserNames;
import io.slurmwise.job.Outcome;
import io.slurmwise.view.StateCell;
import io.slurmwise.view.Views;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The job tools: list_jobs, get_job, read_job_log, job_efficiency. Read-only: sacct, squeue and the job's own logs. */
final class JobTools {

    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 500;
    static final int DEFAULT_LOG_LINES = 60;
    static final int MAX_LOG_LINES = 1000;
    static final int DEFAULT_LOG_BYTES = 8 * 1024;
    static final int MAX_LOG_BYTES = 64 * 1024;

    private final Slurmwise sw;
    private final String backendReason;

    JobTools(Slurmwise sw, String backendReason) {
        this.sw = sw;
        this.backendReason = backendReason;
    }

    /** The window, states, user and partition of a list or stats call ({@code since} defaults to 30 days). */
    static JobQuery query(Args a, List<String> states) {
        LocalDateTime now = LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        String user = a.optional("user");
        return new JobQuery(SlurmTime.parseWhen(a.orDefault("since", "now-30days"), now),
                SlurmTime.parseWhen(a.orDefault("until", "now"), now), JobState.parseList(states), user, user == null,
                a.optional("partition"));
    }

    ToolAnswer listJobs(Map<String, Object> args) {
        Args a = new Args(args);
        JobQuery q = query(a, a.list("states"));
        String order = a.orDefault("order", "newest").toLowerCase(Locale.ROOT);
        if (!order.equals("newest") && !order.equals("oldest")) {
            throw new IllegalArgumentException("order must be newest or oldest, got " + order);
        }
        int limit = a.integer("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        boolean full = a.bool("full", false);
        JobListing.Result r = JobListing.list(sw.backend(), q, a.optional("name"), order.equals("newest"), limit);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", Views.JOBS_SCHEMA);
        m.put("backend", backendReason);
        m.put("order", order);
        m.put("since", SlurmTime.iso(q.since()));
        m.put("until", SlurmTime.iso(q.until()));
        m.put("matched", r.matched());
        m.put("count", r.jobs().size());
        m.put("truncated", r.truncated());
        // "unknown" there means the record alone does not tell: diagnose_job reads the logs
        m.put("kinds_from", "records");
        m.put("jobs", r.jobs().stream().map(j -> full ? full(j) : line(j)).toList());
        int maxBytes = a.integer("max_bytes", Bounded.DEFAULT_BYTES, 1024, Bounded.MAX_BYTES);
        Bounded.fit(m, "jobs", Bounded.jsonBytes(maxBytes));
        StringBuilder text = new StringBuilder(m.get("count") + " of " + r.matched() + " job(s), " + order + " first"
                + (Boolean.TRUE.equals(m.get("truncated")) ? " (truncated: raise limit or narrow the window)" : "") + ":");
        List<JobRecord> shown = r.jobs().stream().limit(((Number) m.get("count")).intValue()).limit(10).toList();
        shown.forEach(j -> text.append('\n').append(j.id()).append(' ').append(StateCell.text(j, stateText(j)))
                .append(' ').append(j.name()).append(kind(j) == null ? "" : " [" + kind(j) + "]")
                .append(j.optPendingReason().map(p -> " (" + p + ")").orElse("")));
        // the mark explained, as under the CLI's table, only when a line carries it
        if (shown.stream().anyMatch(StateCell::marked)) {
            text.append('\n').append(StateCell.KEY).append(" (outcome: failed)");
        }
        return new ToolAnswer(m, text.toString(), maxBytes);
    }

    /** The compact line of a job in a list: what a model needs to choose the next call. */
    Map<String, Object> line(JobRecord j) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", j.id().toString());
        m.put("name", j.name());
        m.put("user", j.user());
        m.put("partition", j.partition());
        m.put("state", j.state().name());
        m.put("state_text", stateText(j));
        m.put("outcome", j.outcome().id());
        m.put("kind", kind(j));
        m.put("reason", j.optPendingReason().orElse(null));
        m.put("exit_code", j.exitCode() == null ? null : j.exitCode().toString());
        m.put("submit", SlurmTime.iso(j.submit()));
        m.put("end", SlurmTime.iso(j.end()));
        m.put("elapsed", j.elapsed() == null ? null : SlurmTime.format(j.elapsed()));
        m.put("time_limit", j.timeLimit().toString());
        m.put("gpus", j.gpus());
        return m;
    }

    /**
     * A job's whole record (get_job, list_jobs with full=true), with what the compact line adds to it: the fields and
     * order of the CLI's {@code jobs --json} rows.
     */
    Map<String, Object> full(JobRecord j) {
        Map<String, Object> m = Views.job(j);
        m.put("state_text", stateText(j));
        // what became of it, as every command counts it: a COMPLETED job whose step failed is failed
        m.put("outcome", j.outcome().id());
        m.put("kind", kind(j));
        return m;
    }

    /** {@code CANCELLED by alice}: who cancelled, by name. */
    String stateText(JobRecord j) {
        return UserNames.describe(j.status(), sw.backend()::userName);
    }

    /**
     * The kind of a job diagnose_job explains (failed, a completed one's failed step included, cancelled, preempted:
     * {@link Outcome#diagnose()}, as the CLI's jobs), from its accounting record alone (diagnose_job reads the logs
     * too); none for a completed, running or pending job.
     */
    String kind(JobRecord j) {
        return j.outcome().diagnose() ? sw.classify(JobFacts.of(j), List.of()).kindId() : null;
    }

    ToolAnswer getJob(Map<String, Object> args) {
        String id = new Args(args).required("job_id");
        JobLookup.Array array = members(id);
        if (array != null) {
            return members(array);
        }
        JobRecord j = find(id);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", "slurmwise.job/v1");
        m.put("backend", backendReason);
        String note = pendingRangeNote(id, j);
        if (note != null) {
            m.put("note", note);
        }
        m.put("job", full(j));
        return new ToolAnswer(m, (note == null ? "" : note + ".\n") + "job " + j.id() + " " + j.name() + " ("
                + j.user() + ", " + j.partition() + "): " + stateText(j)
                + (j.exitCode() == null ? "" : " exit " + j.exitCode())
                + j.optPendingReason().map(p -> ", pending: " + p).orElse(""));
    }

    /**
     * For a task id answered by its pending array's row ({@code 3000088_50} by {@code 3000088_[50-99]}), the sentence
     * that says so (the CLI's diagnosis says the same); else null.
     */
    static String pendingRangeNote(String id, JobRecord found) {
        return JobLookup.pendingRangeNote(JobId.parse(id), found).orElse(null);
    }

    /**
     * The one job {@code id} names. An array's id without a task, or a heterogeneous job's leader id, names several:
     * the error lists them and names the one diagnose_job would take (an outside audit: these read "the cluster has no
     * record of job 4242" while diagnose_job diagnosed 4242_3).
     */
    JobRecord find(String id) {
        JobId jid = JobId.parse(id);
        return sw.backend().lookup(jid).fold(JobLookup.Found::job, array -> {
            throw new IllegalArgumentException(several(array));
        }, missing -> {
            throw new IllegalArgumentException("the cluster has no record of job " + jid + "; list_jobs shows the jobs"
                    + " of a window");
        });
    }

    /** The array or heterogeneous job {@code id} names as a whole, else null (one job, or none). */
    private JobLookup.Array members(String id) {
        return sw.backend().lookup(JobId.parse(id)).fold(found -> null, array -> array, missing -> null);
    }

    /** Most members an answer lists. */
    private static final int MAX_MEMBERS = 50;

    /** An array's tasks or a het job's components, each with its state and kind, as get_job answers an array's id. */
    private ToolAnswer members(JobLookup.Array array) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", "slurmwise.job/v1");
        m.put("backend", backendReason);
        m.put(array.heterogeneous() ? "heterogeneous_job_id" : "array_job_id", array.arrayJobId().toString());
        List<Map<String, Object>> views = new ArrayList<>();
        StringBuilder text = new StringBuilder(several(array));
        for (JobRecord t : array.tasks().stream().limit(MAX_MEMBERS).toList()) {
            views.add(full(t));
        }
        m.put(array.heterogeneous() ? "components" : "tasks", views);
        if (array.tasks().size() > MAX_MEMBERS) {
            m.put("left_out", array.tasks().size() - MAX_MEMBERS);
        }
        return new ToolAnswer(m, text.toString());
    }

    /** What an id of several jobs names, and which one to ask about. */
    private static String several(JobLookup.Array array) {
        boolean het = array.heterogeneous();
        List<JobRecord> tasks = array.tasks();
        JobRecord first = tasks.stream().filter(t -> t.outcome().diagnose() && !t.outcome().equals(Outcome.PENDING)
                && (het || t.id().isArrayTask())).findFirst().orElse(tasks.get(0));
        StringBuilder sb = new StringBuilder("job " + array.arrayJobId() + " is " + (het ? "a heterogeneous job of "
                + tasks.size() + " components" : "an array job of " + tasks.size() + " tasks") + " (");
        tasks.stream().limit(8).forEach(t -> sb.append(t.id()).append(' ').append(t.state()).append(", "));
        sb.setLength(sb.length() - 2);
        sb.append(tasks.size() > 8 ? ", ...)" : ")").append(": give one ").append(het ? "component's" : "task's")
                .append(" id, e.g. job_id \"").append(first.id()).append("\"")
                .append(first.outcome().diagnose() ? " (the first that failed)" : "")
                .append("; diagnose_job takes that one itself");
        return sb.toString();
    }

    /**
     * The tail of the job's own stdout or stderr. There is no path argument: the backend finds the job's file and
     * reads it only when it belongs to the job's user.
     */
    ToolAnswer readJobLog(Map<String, Object> args) {
        Args a = new Args(args);
        JobRecord j = find(a.required("job_id"));
        String which = a.orDefault("stream", "both").toLowerCase(Locale.ROOT);
        int lines = a.integer("lines", DEFAULT_LOG_LINES, 1, MAX_LOG_LINES);
        int maxBytes = a.integer("max_bytes", DEFAULT_LOG_BYTES, 256, MAX_LOG_BYTES);
        List<LogStream> streams = switch (which) {
            case "stdout", "out" -> List.of(LogStream.STDOUT);
            case "stderr", "err" -> List.of(LogStream.STDERR);
            case "both" -> j.stderrPath() != null && j.stderrPath().equals(j.stdoutPath())
                    ? List.of(LogStream.STDOUT) : List.of(LogStream.STDOUT, LogStream.STDERR);
            default -> throw new IllegalArgumentException("stream must be stdout, stderr or both, got " + which);
        };
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", "slurmwise.log/v1");
        m.put("backend", backendReason);
        m.put("job_id", j.id().toString());
        String note = pendingRangeNote(a.required("job_id"), j);
        if (note != null) {
            m.put("note", note);
        }
        List<Map<String, Object>> logs = new ArrayList<>();
        StringBuilder text = new StringBuilder(note == null ? "" : note + ".\n");
        int budget = maxBytes / streams.size();
        for (LogStream s : streams) {
            LogTail t = sw.backend().logTail(j, s, lines);
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("stream", s.label());
            l.put("path", t.path());
            l.put("problem", t.problem());
            l.put("file_size", t.fileSize() < 0 ? null : t.fileSize());
            List<String> kept = tail(t.lines(), budget);
            l.put("lines", kept.size());
            l.put("truncated", kept.size() < t.lines().size() || (t.firstLine() == 0 && t.fileSize() > 0));
            l.put("text", String.join("\n", kept));
            logs.add(l);
            text.append(s.label()).append(t.problem() != null ? ": " + t.problem()
                    : " (last " + kept.size() + " lines):\n" + String.join("\n", kept.subList(Math.max(0, kept.size() - 5),
                    kept.size()))).append('\n');
        }
        m.put("logs", logs);
        // max_bytes is the logs' budget: the answer's grows with it
        return new ToolAnswer(m, text.toString().strip(), Bounded.DEFAULT_BYTES + Math.max(0, maxBytes - DEFAULT_LOG_BYTES));
    }

    /**
     * The last lines that fit in {@code bytes} (UTF-8), each cut to about 500 characters: its first 150 and its last
     * 350, since what a line ends with is often its message (after a progress bar's updates, or a run of NULs where a
     * crashed writer left a hole: an outside audit lost "CUDA out of memory" at the end of such a line).
     */
    static List<String> tail(List<String> lines, int bytes) {
        List<String> out = new ArrayList<>();
        int used = 0;
        for (int i = lines.size() - 1; i >= 0; i--) {
            String l = lines.get(i);
            if (l.length() > 500) {
                int head = Character.isHighSurrogate(l.charAt(149)) ? 149 : 150;
                int tail = l.length() - 350;
                tail = Character.isLowSurrogate(l.charAt(tail)) ? tail + 1 : tail;
                l = l.substring(0, head) + " […] " + l.substring(tail);
            }
            int n = l.getBytes(StandardCharsets.UTF_8).length + 1;
            if (used + n > bytes) {
                break;
            }
            used += n;
            out.add(0, l);
        }
        return out;
    }

    /** CPU, memory, time and GPU-hours of completed jobs: used against reserved. */
    ToolAnswer jobEfficiency(Map<String, Object> args) {
        Args a = new Args(args);
        List<JobRecord> jobs;
        String id = a.optional("job_id");
        if (id != null) {
            // an array's id: its tasks, each used against reserved
            JobLookup.Array array = members(id);
            jobs = array != null ? array.tasks().stream().limit(100).toList() : List.of(find(id));
        } else {
            JobQuery q = query(a, List.of("COMPLETED"));
            jobs = JobListing.list(sw.backend(), q, a.optional("name"), true, a.integer("limit", 10, 1, 100)).jobs();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", "slurmwise.efficiency/v1");
        m.put("backend", backendReason);
        m.put("note", "cpu_efficiency = TotalCPU / (elapsed x CPUs); memory = MaxRSS / memory limit; gpu_hours_used ="
                + " elapsed x GPUs, gpu_hours_requested = time limit x GPUs (SLURM records no GPU utilisation here)");
        List<Map<String, Object>> rows = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (JobRecord j : jobs) {
            Map<String, Object> e = efficiency(j);
            rows.add(e);
            text.append(j.id()).append(' ').append(j.name()).append(": CPU ").append(pct(e.get("cpu_efficiency")))
                    .append(", memory ").append(pct(e.get("memory_efficiency"))).append(", time ")
                    .append(pct(e.get("time_efficiency"))).append(j.gpus() > 0 ? ", GPU-hours " + e.get("gpu_hours_used")
                    + " of " + e.get("gpu_hours_requested") + " requested" : "").append('\n');
        }
        m.put("count", rows.size());
        m.put("jobs", rows);
        Bounded.fit(m, "jobs", Bounded.jsonBytes(Bounded.DEFAULT_BYTES));
        return new ToolAnswer(m, rows.isEmpty() ? "no completed jobs in the window" : text.toString().strip());
    }

    static Map<String, Object> efficiency(JobRecord j) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", j.id().toString());
        e.put("name", j.name());
        e.put("state", j.state().name());
        long secs = j.elapsed() == null ? 0 : j.elapsed().toSeconds();
        e.put("elapsed", j.elapsed() == null ? null : SlurmTime.format(j.elapsed()));
        e.put("cpus", j.cpus());
        e.put("cpu_hours_reserved", secs > 0 && j.cpus() > 0 ? round(secs * j.cpus() / 3600.0) : null);
        e.put("cpu_hours_used", j.totalCpu() == null ? null : round(j.totalCpu().toMillis() / 3_600_000.0));
        e.put("cpu_efficiency", j.totalCpu() != null && secs > 0 && j.cpus() > 0
                ? round(Math.min(1.0, j.totalCpu().toMillis() / (secs * 1000.0 * j.cpus()))) : null);
        DataSize limit = j.memoryLimit().orElse(null);
        e.put("memory_limit_gb", limit == null ? null : round(limit.gibibytes()));
        e.put("nodes", j.nodes());
        // MaxRSS is one task's peak: it meets the limit of its node, not the job's total
        limit = j.memoryPerNode().orElse(null);
        e.put("memory_per_node_gb", limit == null ? null : round(limit.gibibytes()));
        e.put("max_rss_gb", j.maxRss() == null ? null : round(j.maxRss().gibibytes()));
        e.put("memory_efficiency", limit != null && j.maxRss() != null && limit.bytes() > 0
                ? round(Math.min(1.0, (double) j.maxRss().bytes() / limit.bytes())) : null);
        Duration tl = j.timeLimit().limit().orElse(null);
        e.put("time_limit", j.timeLimit().toString());
        e.put("time_efficiency", tl != null && tl.toSeconds() > 0 && secs > 0 ? round((double) secs / tl.toSeconds()) : null);
        e.put("gpus", j.gpus());
        e.put("gpu_hours_used", j.gpus() > 0 ? round(secs * j.gpus() / 3600.0) : null);
        e.put("gpu_hours_requested", j.gpus() > 0 && tl != null ? round(tl.toSeconds() * j.gpus() / 3600.0) : null);
        return e;
    }

    private static Double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static String pct(Object v) {
        return v instanceof Number n ? Math.round(n.doubleValue() * 100) + "%" : "unknown";
    }
}
