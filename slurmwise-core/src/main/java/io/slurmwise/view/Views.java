package io.slurmwise.view;

import io.slurmwise.classify.Evidence;
import io.slurmwise.classify.Finding;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.diagnose.FixNote;
import io.slurmwise.diagnose.PendingInfo;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.patch.Patch;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON shapes of slurmwise's answers (CLI {@code --json}, MCP tool results), as plain maps and lists any
 * JSON library writes; versioned by their {@code schema} field. Keys are snake_case; unknown values are null,
 * never zero.
 */
public final class Views {

    public static final String DIAGNOSIS_SCHEMA = "slurmwise.diagnosis/v1";
    public static final String JOBS_SCHEMA = "slurmwise.jobs/v1";
    public static final String FINDING_SCHEMA = "slurmwise.finding/v1";

    private Views() {
    }

    public static Map<String, Object> job(JobRecord j) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", j.id().toString());
        m.put("name", j.name());
        m.put("user", j.user());
        m.put("account", j.account());
        m.put("partition", j.partition());
        m.put("qos", j.qos());
        m.put("state", j.state().name());
        m.put("state_detail", j.status().detail().isEmpty() ? null : j.status().detail());
        m.put("exit_code", j.exitCode() == null ? null : j.exitCode().toString());
        // scontrol's view of the same exit (a shell's exit 139 is 139:0 there, 11:0 in sacct), while it is known
        m.put("exit_code_scontrol", j.exitCodeView() == null ? null : j.exitCodeView().toString());
        m.put("submit", SlurmTime.iso(j.submit()));
        m.put("start", SlurmTime.iso(j.start()));
        m.put("end", SlurmTime.iso(j.end()));
        m.put("elapsed", j.elapsed() == null ? null : SlurmTime.format(j.elapsed()));
        m.put("elapsed_seconds", j.elapsed() == null ? null : j.elapsed().toSeconds());
        m.put("time_limit", j.timeLimit().toString());
        m.put("time_limit_seconds", j.timeLimit().limit().map(d -> d.toSeconds()).orElse(null));
        // --time-min and --deadline, known from scontrol while slurmctld remembers the job
        m.put("time_min", j.timeMin() == null ? null : SlurmTime.format(j.timeMin()));
        m.put("deadline", SlurmTime.iso(j.deadline()));
        m.put("req_mem", j.reqMem() == null ? null : j.reqMem().toString());
        m.put("memory_limit_bytes", j.memoryLimit().map(d -> d.bytes()).orElse(null));
        m.put("max_rss_bytes", j.maxRss() == null ? null : j.maxRss().bytes());
        m.put("cpus", j.cpus());
        m.put("gpus", j.gpus());
        m.put("gpu_model", j.gpuModel().orElse(null));
        m.put("nodes", j.nodes());
        m.put("node_list", j.nodeList());
        m.put("alloc_tres", j.allocTres().toString());
        m.put("work_dir", j.workDir());
        m.put("stdout", j.stdoutPath());
        m.put("stderr", j.stderrPath());
        m.put("pending_reason", j.optPendingReason().orElse(null));
        m.put("consumed_energy_joules", j.consumedEnergyJoules());
        // the first step that failed (sacct's step rows): a COMPLETED job whose step ran out of memory says so
        m.put("failed_step", j.failedStep() == null ? null : failedStep(j.failedStep()));
        return m;
    }

    public static Map<String, Object> finding(Finding f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", f.kindId());
        m.put("title", f.kind().title());
        m.put("category", f.kind().category().id());
        m.put("parent", f.kind().parent());
        m.put("confidence", f.confidence());
        m.put("source", f.source());
        m.put("evidence", f.evidence().stream().map(Views::evidence).toList());
        m.put("others", f.others().stream().map(o -> pair("kind", o.kindId(), "score", o.score())).toList());
        // unknown only: the lines to read first, never evidence
        m.put("leads", f.leads().stream().map(Views::evidence).toList());
        return m;
    }

    static Map<String, Object> evidence(Evidence e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("source", e.source().name().toLowerCase(java.util.Locale.ROOT));
        m.put("line", e.isLogLine() ? e.line() : null);
        m.put("line_in_file", e.isLogLine() ? e.lineInFile() : null);
        m.put("text", e.text());
        // the words the signature matched: where a view short of room windows the line
        m.put("match", e.match());
        m.put("weight", e.weight());
        return m;
    }

    public static Map<String, Object> fix(FixNote n) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", n.kindId());
        m.put("note", n.noteTitle());
        m.put("section", n.section());
        // four decimals: the embedding model's last digits differ between processes (thread counts, a rebuilt or
        // reloaded index), and no reader needs them; the same fix must read the same in the CLI and over MCP
        m.put("score", Math.round(n.score() * 10_000) / 10_000.0);
        m.put("source", n.source());
        m.put("text", n.text());
        return m;
    }

    public static Map<String, Object> diagnosis(Diagnosis d, String backend) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", DIAGNOSIS_SCHEMA);
        m.put("job_id", d.jobId().toString());
        m.put("backend", backend);
        m.putAll(d.fold(Views::notFound, Views::statusOnly, Views::failed));
        return m;
    }

    private static Map<String, Object> notFound(Diagnosis.NotFound nf) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", "not_found");
        m.put("message", nf.message());
        return m;
    }

    private static Map<String, Object> statusOnly(Diagnosis.StatusOnly so) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", "status_only");
        m.put("summary", so.summary());
        m.put("job", job(so.job()));
        m.put("pending", so.pending() == null ? null : pending(so.pending()));
        return m;
    }

    private static Map<String, Object> failed(Diagnosis.Failed f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", "failed");
        m.put("job", job(f.job()));
        m.put("finding", finding(f.finding()));
        m.put("fixes", f.fixes().stream().map(Views::fix).toList());
        m.put("explanation", explanation(f.explanation()));
        m.put("method", f.method());
        m.put("logs", f.logs().stream().map(t -> {
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("stream", t.stream().label());
            l.put("path", t.path());
            l.put("bytes_read", t.content().length);
            l.put("file_size", t.fileSize() < 0 ? null : t.fileSize());
            l.put("problem", t.problem());
            return l;
        }).toList());
        m.put("notices", f.notices());
        m.put("patch", patch(f.patch()));
        return m;
    }

    /**
     * The suggested sbatch change; {@code diff} is null when there is none, and {@code reason} says why. Its status is
     * {@code suggested} (a diff of the script), {@code by_hand} (changes to make by hand: the cluster did not keep the
     * script) or {@code not_suggested} (no change).
     */
    public static Map<String, Object> patch(Patch p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", p.fold(s -> "suggested", n -> n.changes().isEmpty() ? "not_suggested" : "by_hand"));
        m.put("applied", false);
        m.put("script", p.fold(Patch.Suggested::scriptName, n -> null));
        m.put("reason", p.fold(s -> null, Patch.NotSuggested::reason));
        // a fixed key order: the same diagnosis prints the same JSON in every process
        // "sets": the options a change gives a value ({"time": "17:00:00"}), for a tool that edits its own template
        m.put("changes", p.changes().stream().map(c -> {
            Map<String, Object> change = pair("what", c.what(), "why", c.why());
            change.put("sets", c.sets());
            return change;
        }).toList());
        m.put("diff", p.fold(Patch.Suggested::diff, n -> null));
        m.put("patched_script", p.fold(Patch.Suggested::patched, n -> null));
        m.put("advice", p.advice());
        return m;
    }

    static Map<String, Object> pending(PendingInfo p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reason", p.reason());
        m.put("can_start", p.startability().name().toLowerCase(java.util.Locale.ROOT));
        m.put("meaning", p.meaning());
        m.put("finding", p.finding() == null ? null : finding(p.finding()));
        m.put("fixes", p.fixes().stream().map(Views::fix).toList());
        m.put("patch", p.optPatch().map(Views::patch).orElse(null));
        m.put("notices", p.notices());
        return m;
    }

    /** A classified log without a cluster (classify). */
    public static Map<String, Object> classification(List<String> sources, Finding f, List<FixNote> fixes,
                                                     io.slurmwise.diagnose.Explanation e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", FINDING_SCHEMA);
        m.put("files", sources);
        m.put("finding", finding(f));
        m.put("fixes", fixes.stream().map(Views::fix).toList());
        m.put("explanation", explanation(e));
        return m;
    }

    public static Map<String, Object> jobs(List<JobRecord> jobs, String backend) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", JOBS_SCHEMA);
        m.put("backend", backend);
        m.put("count", jobs.size());
        m.put("jobs", jobs.stream().map(Views::job).toList());
        return m;
    }

    /** Two entries in this order (Map.of's order changes from one JVM to the next). */
    private static Map<String, Object> failedStep(io.slurmwise.job.FailedStep s) {
        Map<String, Object> m = pair("id", s.id(), "state", s.status().state().name());
        m.put("exit_code", s.exitCode() == null ? null : s.exitCode().toString());
        return m;
    }

    private static Map<String, Object> pair(String k1, Object v1, String k2, Object v2) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    /** Text and source; {@code note} only when a model's words are not the ones shown (why: set aside, cut, none, the model failed). */
    private static Map<String, Object> explanation(io.slurmwise.diagnose.Explanation e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("text", e.text());
        m.put("source", e.source());
        e.optNote().ifPresent(n -> m.put("note", n));
        return m;
    }
}
