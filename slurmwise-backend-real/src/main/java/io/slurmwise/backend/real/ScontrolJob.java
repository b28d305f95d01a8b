package io.slurmwise.backend.real;

import io.slurmwise.job.ExitCode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One job as {@code scontrol show job} prints it while slurmctld still remembers the job (MinJobAge): the
 * fields sacct lacks or reports differently (the shell's exit code {@code 139:0}, the current pending reason,
 * StdOut/StdErr on releases before 23.02, the batch host).
 *
 * <pre>{@code
 * List<ScontrolJob> jobs = ScontrolJob.parseAll(scontrolOutput);
 * jobs.get(0).field("StdErr");   // Optional[/home/u/run/train-42.err]
 * }</pre>
 *
 * @param fields every {@code Key=Value} of the record, in order
 */
public record ScontrolJob(Map<String, String> fields) {

    // these sit alone on their line in the multi-line form, and their values may hold spaces and '='
    private static final Set<String> WHOLE_LINE = Set.of("Command", "WorkDir", "StdErr", "StdIn", "StdOut",
            "Comment", "AdminComment", "SystemComment");
    private static final Pattern KEY = Pattern.compile("[A-Za-z][A-Za-z0-9_:/]*=.*");

    public ScontrolJob {
        fields = Map.copyOf(fields);
    }

    /** Parses every record of {@code scontrol show job} output (records are separated by blank lines). */
    public static List<ScontrolJob> parseAll(String text) {
        List<ScontrolJob> jobs = new ArrayList<>();
        Map<String, String> cur = new LinkedHashMap<>();
        for (String line : text.split("\\R")) {
            if (line.isBlank()) {
                flush(jobs, cur);
                continue;
            }
            String t = line.strip();
            if (t.startsWith("JobId=") && cur.containsKey("JobId")) {
                flush(jobs, cur);
            }
            parseLine(t, cur);
        }
        flush(jobs, cur);
        return jobs;
    }

    private static void flush(List<ScontrolJob> jobs, Map<String, String> cur) {
        if (cur.containsKey("JobId")) {
            jobs.add(new ScontrolJob(cur));
        }
        cur.clear();
    }

    private static void parseLine(String line, Map<String, String> out) {
        int eq = line.indexOf('=');
        if (eq > 0 && WHOLE_LINE.contains(line.substring(0, eq))) {
            out.put(line.substring(0, eq), line.substring(eq + 1));
            return;
        }
        // Key=Value tokens separated by spaces; a token without '=' continues the previous value
        // ("Reason=Nodes required for job are DOWN, DRAINED ..." or a job name with spaces)
        String key = null;
        StringBuilder value = new StringBuilder();
        for (String tok : line.split(" ")) {
            if (KEY.matcher(tok).matches()) {
                if (key != null) {
                    out.put(key, value.toString());
                }
                int e = tok.indexOf('=');
                key = tok.substring(0, e);
                value.setLength(0);
                value.append(tok, e + 1, tok.length());
            } else if (key != null) {
                value.append(' ').append(tok);
            }
        }
        if (key != null) {
            out.put(key, value.toString());
        }
    }

    /** A field's value; empty when absent, blank, {@code (null)} or {@code N/A}. */
    public Optional<String> field(String key) {
        String v = fields.get(key);
        if (v == null || v.isBlank() || v.equals("(null)") || v.equals("N/A")) {
            return Optional.empty();
        }
        return Optional.of(v);
    }

    /** SLURM's own job id of this record (for an array task, its raw id, e.g. 61 for 53_2). */
    public String jobId() {
        return fields.getOrDefault("JobId", "");
    }

    /** The id as sacct prints it: {@code 53_2} for an array task, else the plain id. */
    public String displayId() {
        Optional<String> array = field("ArrayJobId");
        Optional<String> task = field("ArrayTaskId");
        if (array.isPresent() && task.isPresent() && task.get().matches("\\d+")) {
            return array.get() + "_" + task.get();
        }
        return jobId();
    }

    /** The user name of {@code UserId=alice(1001)}. */
    public Optional<String> userName() {
        return field("UserId").map(u -> u.contains("(") ? u.substring(0, u.indexOf('(')) : u);
    }

    public Optional<String> state() {
        return field("JobState");
    }

    /** The current reason (pending reason of a queued job); {@code None} means none. */
    public Optional<String> reason() {
        return field("Reason").filter(r -> !r.equals("None"));
    }

    /** The exit code as slurmctld keeps it: a shell's {@code exit 139} is {@code 139:0} here. */
    public Optional<ExitCode> exitCode() {
        return field("ExitCode").flatMap(ExitCode::tryParse);
    }

    public Optional<String> stdOut() {
        return field("StdOut");
    }

    public Optional<String> stdErr() {
        return field("StdErr");
    }

    public Optional<String> workDir() {
        return field("WorkDir");
    }

    public Optional<String> batchHost() {
        return field("BatchHost");
    }

    /**
     * The job's {@code --deadline} ({@code Deadline=2026-12-07T14:56:23}; {@code N/A} without one): slurmctld ends or
     * never starts a job that cannot finish by it, and with {@code --time-min} it cuts TimeLimit to the time left.
     * sacct has no such field.
     */
    public Optional<java.time.LocalDateTime> deadline() {
        return field("Deadline").flatMap(ScontrolJob::time);
    }

    /** The job's {@code --time-min} ({@code TimeMin=00:01:00}; {@code N/A} without one). */
    public Optional<java.time.Duration> timeMin() {
        return field("TimeMin").flatMap(io.slurmwise.job.SlurmTime::parseDuration);
    }

    /** {@code EligibleTime=}: when it may start at the earliest (a --begin, a requeue's hold); {@code Unknown}: empty. */
    public Optional<java.time.LocalDateTime> eligibleTime() {
        return field("EligibleTime").flatMap(ScontrolJob::time);
    }

    /** {@code Restarts=}: how often slurmctld requeued the job; 0 when absent or unreadable. */
    public int restarts() {
        return field("Restarts").filter(v -> v.matches("\\d{1,9}")).map(Integer::parseInt).orElse(0);
    }

    private static Optional<java.time.LocalDateTime> time(String v) {
        try {
            return Optional.of(java.time.LocalDateTime.parse(v));
        } catch (java.time.format.DateTimeParseException e) {
            return Optional.empty(); // Unknown, None
        }
    }
}
