package io.slurmwise.mcp;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.JobListing;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTails;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.diagnose.LogClassification;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.Outcome;
import io.slurmwise.view.Views;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The diagnosis tools: diagnose_job, suggest_patch, explain_pending, classify_log. */
final class DiagnosisTools {

    static final int MAX_JOBS = 10;
    static final int MAX_LOG_BYTES = 4 << 20;
    /** The failure states list_jobs and last_failed look for (cancelled and preempted jobs did not fail). */
    static final List<String> FAILED_STATES = Arrays.stream(JobState.values())
            .filter(s -> Outcome.of(s) == Outcome.FAILED).map(Enum::name).toList();

    private final Slurmwise sw;
    private final String backendReason;
    private final JobTools jobs;

    DiagnosisTools(Slurmwise sw, String backendReason, JobTools jobs) {
        this.sw = sw;
        this.backendReason = backendReason;
        this.jobs = jobs;
    }

    ToolAnswer diagnoseJob(Map<String, Object> args) {
        Args a = new Args(args);
        List<String> ids = new ArrayList<>(a.list("job_ids"));
        String one = a.optional("job_id");
        if (one != null) {
            ids.add(0, one);
        }
        // 1 to 10 when given, as the schema says and `jobs --last` takes: 0 was accepted and then answered "give
        // job_id, job_ids or last_failed", whose range error said "from 0 to 10" (an outside audit)
        int lastFailed = a.integer("last_failed", 0, 1, MAX_JOBS);
        List<Diagnosis> ds = new ArrayList<>();
        if (lastFailed > 0) {
            JobQuery q = JobTools.query(a, FAILED_STATES);
            for (JobRecord j : JobListing.list(sw.backend(), q, a.optional("name"), true, lastFailed).jobs()) {
                ds.add(sw.diagnose(j, true));
            }
        }
        if (ids.size() > MAX_JOBS) {
            throw new IllegalArgumentException("at most " + MAX_JOBS + " jobs per call, got " + ids.size());
        }
        for (String id : ids) {
            ds.add(sw.diagnose(id));
        }
        if (ds.isEmpty() && lastFailed == 0) {
            throw new IllegalArgumentException("give job_id (e.g. \"1001\"), job_ids, or last_failed (e.g. 3)");
        }
        if (ds.size() == 1 && lastFailed == 0) {
            // a job the cluster has no record of is a diagnosis whose status is not_found, not a tool error: the same
            // answer it gets among job_ids, and what diagnose --mcp-server turns into its not-found exit code
            Map<String, Object> m = compact(Views.diagnosis(ds.get(0), backendReason));
            // a pending job's patch points to suggest_patch for its script, as explain_pending's text does
            return new ToolAnswer(m, summary(ds.get(0)) + patchHint(ds.get(0)));
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", "slurmwise.diagnoses/v1");
        m.put("backend", backendReason);
        m.put("count", ds.size());
        m.put("diagnoses", ds.stream().map(d -> brief(compact(Views.diagnosis(d, backendReason)))).toList());
        Bounded.fit(m, "diagnoses", Bounded.jsonBytes(Bounded.DEFAULT_BYTES));
        StringBuilder text = new StringBuilder(ds.isEmpty() ? "no failed jobs in the window" : "");
        ds.forEach(d -> text.append(summary(d)).append('\n'));
        int kept = ((List<?>) m.get("diagnoses")).size();
        if (kept < ds.size()) {
            // the text names every job; the structured answer says which of them it leaves out, and how to get them
            List<String> left = ds.subList(kept, ds.size()).stream().map(d -> d.jobId().toString()).toList();
            m.put("left_out", left);
            text.append(Bounded.note("(the structured answer holds the first " + kept + " of " + ds.size()
                    + " diagnoses, to stay under " + Bounded.DEFAULT_BYTES / 1024 + " KiB; ask for "
                    + String.join(", ", left) + " with job_ids)"));
        }
        return new ToolAnswer(m, text.toString().strip());
    }

    /**
     * A diagnosis without the whole patched script (suggest_patch gives it) and the patch's repeated fixes: a failed
     * job's patch and a pending job's alike (an outside audit: a pending job's {@code pending.patch} kept its script).
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> compact(Map<String, Object> d) {
        Object p = d.get("patch");
        if (p instanceof Map<?, ?> patch) {
            Map<String, Object> small = new LinkedHashMap<>((Map<String, Object>) patch);
            small.remove("patched_script");
            small.remove("fixes");
            d.put("patch", small);
        }
        return withoutPatchedScript(d);
    }

    /**
     * A diagnosis among several: the job's main numbers instead of its whole record, at most two fixes cut to 600
     * characters, the patch's changes without the diff (get_job, diagnose_job on one id and suggest_patch give all).
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> brief(Map<String, Object> d) {
        if (d.get("job") instanceof Map<?, ?> job) {
            Map<String, Object> small = new LinkedHashMap<>();
            for (String k : List.of("id", "name", "user", "partition", "state", "state_detail", "exit_code", "elapsed",
                    "time_limit", "req_mem", "max_rss_bytes", "cpus", "gpus", "pending_reason")) {
                small.put(k, job.get(k));
            }
            d.put("job", small);
        }
        if (d.get("fixes") instanceof List<?> fixes) {
            List<Map<String, Object>> kept = new ArrayList<>();
            for (Object f : fixes.subList(0, Math.min(2, fixes.size()))) {
                Map<String, Object> fix = new LinkedHashMap<>((Map<String, Object>) f);
                if (fix.get("text") instanceof String t && t.length() > 600) {
                    fix.put("text", t.substring(0, 597) + "...");
                }
                kept.add(fix);
            }
            d.put("fixes", kept);
        }
        if (d.get("patch") instanceof Map<?, ?> patch) {
            Map<String, Object> small = new LinkedHashMap<>((Map<String, Object>) patch);
            small.remove("diff");
            d.put("patch", small);
        }
        return d;
    }

    /** One line: the job, its cause and confidence (or status), and the first fix. */
    static String summary(Diagnosis d) {
        if (d instanceof Diagnosis.Failed f) {
            return "job " + f.jobId() + " " + f.job().name() + ": " + f.finding().kindId() + " ("
                    + Math.round(f.finding().confidence() * 100) + "%) " + f.finding().kind().title()
                    + firstFix(f.fixes(), f.finding().kindId()).map(x -> "; fix: " + x).orElse("");
        }
        if (d instanceof Diagnosis.StatusOnly so) {
            // what else holds a pending job (a spent allocation, the DefaultTime it gets): in the text a model reads
            // a note the summary already leads with (a pending array's task) is not said twice
            return so.summary() + (so.pending() == null ? "" : so.pending().notices().stream()
                    .filter(n -> !so.summary().startsWith(n)).map(n -> " Note: " + n + ".")
                    .collect(java.util.stream.Collectors.joining()));
        }
        return "job " + d.jobId() + ": " + ((Diagnosis.NotFound) d).message();
    }

    /**
     * The first item of a Fixes section among the fixes, the finding's own kind's first: the retrieved notes also hold
     * "What to check" and other sections, whose first line is no fix (an outside audit: 1004's "fix: - The full
     * message: ...").
     */
    private static java.util.Optional<String> firstFix(List<io.slurmwise.diagnose.FixNote> fixes, String kindId) {
        java.util.Comparator<io.slurmwise.diagnose.FixNote> ownFirst = java.util.Comparator.comparing(
                n -> !n.kindId().equals(kindId));
        return fixes.stream().filter(n -> "Fixes".equals(n.section())).sorted(ownFirst).findFirst()
                .map(n -> n.items().isEmpty() ? firstLine(n.text())
                        : firstLine(n.items().get(0).replaceFirst("^\\d{1,2}\\.\\s+", "").replaceAll("\\s+", " ")));
    }

    private static String firstLine(String text) {
        String l = text.strip().lines().findFirst().orElse("");
        return l.length() > 160 ? l.substring(0, 157) + "..." : l;
    }

    ToolAnswer suggestPatch(Map<String, Object> args) {
        Args a = new Args(args);
        Diagnosis d = sw.diagnose(a.required("job_id"));
        // a failed job's patch, or a pending job's that can never start as submitted: the nearest request that can
        // (the patch diagnose_job and `diagnose --patch` carry; an outside audit found this tool refused it)
        io.slurmwise.diagnose.PendingInfo pending = d instanceof Diagnosis.StatusOnly so ? so.pending() : null;
        io.slurmwise.patch.Patch patch = d instanceof Diagnosis.Failed f ? f.patch()
                : pending == null ? null : pending.patch();
        if (patch == null) {
            throw new IllegalArgumentException(summary(d) + " — there is no patch for it"
                    + (d instanceof Diagnosis.NotFound ? ""
                    : pending != null ? "; explain_pending says why it waits" : ": it has not failed"));
        }
        String kind = d instanceof Diagnosis.Failed f ? f.finding().kindId()
                : pending.finding() == null ? null : pending.finding().kindId();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", "slurmwise.patch/v1");
        m.put("backend", backendReason);
        m.put("job_id", d.jobId().toString());
        m.put("kind", kind);
        if (pending != null) {
            m.put("pending_reason", pending.reason());
            m.put("can_start", pending.startability().name().toLowerCase(java.util.Locale.ROOT));
        }
        m.put("patch", Views.patch(patch));
        String text = "job " + d.jobId() + " (" + kind + (pending == null ? "" : ", pending: " + pending.reason()
                + (pending.startability() == io.slurmwise.diagnose.PendingReasons.Startability.NEVER
                ? ", can never start as submitted" : "")) + "): "
                + (patch.changes().isEmpty()
                ? "no sbatch change suggested" + (m.get("patch") instanceof Map<?, ?> pm && pm.get("reason") != null
                ? " (" + pm.get("reason") + ")" : "")
                : String.join("; ", patch.changes().stream().map(c -> c.what()).toList()))
                + " — never applied: the user decides";
        if (Bounded.size(m) > Bounded.jsonBytes(Bounded.DEFAULT_BYTES)) {
            @SuppressWarnings("unchecked")
            Map<String, Object> pm = (Map<String, Object>) m.get("patch");
            pm.remove("patched_script");
            m.put("truncated", true);
        }
        return new ToolAnswer(m, text);
    }

    ToolAnswer explainPending(Map<String, Object> args) {
        Args a = new Args(args);
        String id = a.optional("job_id");
        List<JobRecord> pending;
        if (id != null) {
            pending = List.of(jobs.find(id));
        } else {
            JobQuery q = JobTools.query(a, List.of("PENDING"));
            pending = JobListing.list(sw.backend(), q, a.optional("name"), true, a.integer("limit", 10, 1, 50)).jobs();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", "slurmwise.pending/v1");
        m.put("backend", backendReason);
        List<Map<String, Object>> out = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (JobRecord j : pending) {
            // a pending job with the patch step, as diagnose_job has it: the job a dependency waits on, and for a job
            // that can never start the nearest request that can (an outside audit: this tool left both out)
            Diagnosis d = sw.diagnose(j, j.state() == JobState.PENDING);
            if (id != null) {
                String note = JobTools.pendingRangeNote(id, j);
                if (note != null) {
                    m.put("note", note);
                    text.append(note).append(".\n");
                }
            }
            if (j.state() != JobState.PENDING) {
                text.append("job ").append(j.id()).append(" is not pending: ").append(summary(d)).append('\n');
            } else {
                text.append(summary(d)).append(patchHint(d)).append('\n');
            }
            out.add(compact(Views.diagnosis(d, backendReason)));
        }
        m.put("count", out.size());
        m.put("jobs", out);
        // every job the text names, in the structured answer too (an outside audit: it kept 4 of 10): the bulkiest
        // parts of every job go first, each step said, before any job is cut
        List<String> leftOut = new ArrayList<>();
        for (Slimming s : SLIMMINGS) {
            if (Bounded.size(m) <= Bounded.jsonBytes(Bounded.DEFAULT_BYTES)) {
                break;
            }
            out = out.stream().map(s.slim()).toList();
            leftOut.add(s.what());
            m.put("jobs", out);
            m.put("left_out_of_each_job", leftOut);
            m.put("whole_answer", WHOLE_ANSWER);
        }
        Bounded.fit(m, "jobs", Bounded.jsonBytes(Bounded.DEFAULT_BYTES));
        int kept = ((List<?>) m.get("jobs")).size();
        if (!leftOut.isEmpty()) {
            text.append(Bounded.note("(to stay under " + Bounded.DEFAULT_BYTES / 1024
                    + " KiB the structured answer leaves out of each job: " + String.join("; ", leftOut) + "; "
                    + WHOLE_ANSWER + ")")).append('\n');
        }
        if (kept < out.size()) {
            // the text names every job; say that the structured answer does not (an outside audit)
            List<String> left = pending.subList(kept, pending.size()).stream().map(j -> j.id().toString()).toList();
            m.put("left_out", left);
            text.append(Bounded.note("(the structured answer holds the first " + kept + " of " + out.size()
                    + " jobs, to stay under " + Bounded.DEFAULT_BYTES / 1024 + " KiB; ask for "
                    + String.join(", ", left) + " with job_id)"));
        }
        return new ToolAnswer(m, out.isEmpty() ? "no pending jobs" : text.toString().strip());
    }

    /** Where a pending job's whole answer is, when explain_pending of many leaves parts of each out. */
    static final String WHOLE_ANSWER = "explain_pending with a job_id gives that job whole, suggest_patch its patched"
            + " script";

    /** A step that makes every job of a long answer smaller, and what it leaves out, in the words the answer says. */
    private record Slimming(String what, java.util.function.UnaryOperator<Map<String, Object>> slim) {
    }

    /** The job record's fields a pending job's brief keeps: who, where, what it asks, why it waits. */
    private static final List<String> PENDING_JOB_FIELDS = List.of("id", "name", "user", "account", "partition", "qos",
            "state", "submit", "time_limit", "req_mem", "cpus", "gpus", "nodes", "pending_reason");

    /** The bulkiest first: the notes (4 KB a job), the whole record, the evidence and diff, the repeated words. */
    private static final List<Slimming> SLIMMINGS = List.of(
            new Slimming("pending.fixes (the knowledge base's notes)", d -> without(d, "pending", "fixes")),
            new Slimming("job: all but " + String.join(", ", PENDING_JOB_FIELDS), d -> {
                if (d.get("job") instanceof Map<?, ?> job) {
                    Map<String, Object> small = new LinkedHashMap<>();
                    PENDING_JOB_FIELDS.forEach(k -> small.put(k, job.get(k)));
                    d.put("job", small);
                }
                return d;
            }),
            new Slimming("pending.finding's evidence, others and leads; pending.patch's diff and advice", d -> {
                without(d, "pending.finding", "evidence");
                without(d, "pending.finding", "others");
                without(d, "pending.finding", "leads");
                without(d, "pending.patch", "diff");
                return without(d, "pending.patch", "advice");
            }),
            new Slimming("each job's schema, backend and summary (the answer's backend and text have them)", d -> {
                d.remove("schema");
                d.remove("backend");
                d.remove("summary");
                return d;
            }));

    /**
     * {@code d} with {@code key} removed from the map at {@code path} (dot-separated), copying the maps on the way so
     * that no map another answer shares is changed.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> without(Map<String, Object> d, String path, String key) {
        String[] parts = path.split("\\.");
        Map<String, Object> at = d;
        for (String part : parts) {
            if (!(at.get(part) instanceof Map<?, ?> inner)) {
                return d;
            }
            Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) inner);
            at.put(part, copy);
            at = copy;
        }
        at.remove(key);
        return d;
    }

    /** For a pending job that has a patch: that suggest_patch gives it, and what it changes. */
    static String patchHint(Diagnosis d) {
        io.slurmwise.patch.Patch p = d instanceof Diagnosis.StatusOnly so && so.pending() != null
                ? so.pending().patch() : null;
        return p == null || p.changes().isEmpty() ? ""
                : " suggest_patch gives the change that lets it start: " + String.join("; ",
                p.changes().stream().map(c -> c.what()).toList()) + ".";
    }

    /** A pending diagnosis whose patch keeps its diff but not the whole patched script (suggest_patch gives it). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> withoutPatchedScript(Map<String, Object> d) {
        if (d.get("pending") instanceof Map<?, ?> p && p.get("patch") instanceof Map<?, ?> patch) {
            Map<String, Object> small = new LinkedHashMap<>((Map<String, Object>) patch);
            small.remove("patched_script");
            Map<String, Object> pending = new LinkedHashMap<>((Map<String, Object>) p);
            pending.put("patch", small);
            d.put("pending", pending);
        }
        return d;
    }

    ToolAnswer classifyLog(Map<String, Object> args) {
        Args a = new Args(args);
        byte[] bytes = a.required("log").getBytes(StandardCharsets.UTF_8);
        if (bytes.length > MAX_LOG_BYTES) {
            throw new IllegalArgumentException("the log is " + bytes.length / (1 << 20) + " MB; send at most its last 4 MB");
        }
        JobFacts facts = JobFacts.NONE;
        String state = a.optional("state");
        if (state != null) {
            JobState st = JobState.parse(state);
            if (st == JobState.UNKNOWN) {
                throw new IllegalArgumentException("'" + state + "' is not a SLURM job state");
            }
            facts = facts.withState(st);
        }
        String exit = a.optional("exit_code");
        if (exit != null) {
            facts = facts.withExitCode(ExitCode.parse(exit));
        }
        LogClassification c = sw.classifyLog(facts, List.of(LogTails.ofBytes(LogStream.STDERR, "log", bytes,
                sw.logTailLines())));
        Map<String, Object> m = Views.classification(List.of("log"), c.finding(), c.fixes(), c.explanation());
        return new ToolAnswer(m, c.finding().kindId() + " (" + Math.round(c.finding().confidence() * 100) + "%) "
                + c.finding().kind().title() + firstFix(c.fixes(), c.finding().kindId()).map(x -> "; fix: " + x).orElse(""));
    }
}
