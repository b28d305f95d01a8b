package io.slurmwise.patch;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import io.slurmwise.backend.LogTail;
import io.slurmwise.classify.Evidence;
import io.slurmwise.classify.Finding;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.Partition;
import io.slurmwise.taxonomy.Taxonomy;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Mechanical fixes of a job's batch script, as a unified diff that is printed and never applied. Which fixes apply
 * is data: the finding's note lists its {@link Fixer fixers} in its front matter ({@code fixers: [time, requeue]}),
 * and they run in that order, each on the script the previous one left. Everything else is advice.
 *
 * <pre>{@code
 * PatchSuggester s = new PatchSuggester(taxonomy);
 * Patch p = s.suggest(job, finding, logs, backend.batchScript(job), backend.partitions());
 * }</pre>
 */
public final class PatchSuggester {

    private final Fixers fixers;

    /** @throws io.slurmwise.taxonomy.TaxonomyException when a note names a fixer that does not exist */
    public PatchSuggester(Taxonomy taxonomy) {
        this(taxonomy, Fixers.bundled());
    }

    public PatchSuggester(Taxonomy taxonomy, Fixers fixers) {
        this.fixers = Objects.requireNonNull(fixers, "fixers");
        fixers.check(Objects.requireNonNull(taxonomy, "taxonomy"));
    }

    /**
     * A batch script read as the fixers read it (their patterns): advice fitted to the job asks it, so that the fix
     * list and the patch's advice agree.
     */
    public ScriptReading read(String script) {
        return fixers.read(script);
    }

    /**
     * @param script     the batch script when the cluster kept it; empty means "not available" (no diff)
     * @param partitions the cluster's partitions (MaxTime caps the time fix); may be empty
     */
    public Patch suggest(JobRecord job, Finding finding, List<LogTail> logs, Optional<String> script,
                         List<Partition> partitions) {
        return suggest(job, finding, logs, script, partitions, List::of);
    }

    /**
     * The same, with the cluster's QOSes: a job's QOS MaxWall caps the time fix on every partition. {@code qos} is
     * asked only when a fixer needs it (one question to slurmdbd); empty when unknown.
     */
    public Patch suggest(JobRecord job, Finding finding, List<LogTail> logs, Optional<String> script,
                         List<Partition> partitions, java.util.function.Supplier<List<io.slurmwise.job.Qos>> qos) {
        return suggest(job, finding, logs, script, partitions, qos, null);
    }

    /**
     * As above, with the QOSes the job's user may use with its account ({@code sacctmgr show assoc}), read when a fixer
     * first asks: a patch moves the job only to one of them.
     */
    public Patch suggest(JobRecord job, Finding finding, List<LogTail> logs, Optional<String> script,
                         List<Partition> partitions, java.util.function.Supplier<List<io.slurmwise.job.Qos>> qos,
                         java.util.function.Supplier<Optional<java.util.Set<String>>> allowedQos) {
        List<String> lines = new ArrayList<>();
        for (LogTail t : logs) {
            lines.addAll(t.lines());
        }
        List<String> evidence = finding.evidence().stream().filter(Evidence::isLogLine).map(Evidence::text).toList();
        FixContext cx = new FixContext(job, finding, lines, evidence, partitions, qos, allowedQos, LogClock.of(logs));
        BatchScript original = BatchScript.parse(script.orElse("#!/bin/bash\n"));
        Step done = Step.none(original);
        for (Fixer f : fixers.of(finding.kind())) {
            done = done.then(f.apply(cx, done.script()));
        }
        List<String> advice = new ArrayList<>(done.warningsThenAdvice());
        if (io.slurmwise.classify.WorkflowRefusal.in(evidence)) {
            // the refused request is a job the workflow submitted: this job's #SBATCH lines asked for nothing wrong
            return new Patch.NotSuggested("the refused request is a job the workflow submitted, not job " + job.id()
                    + ": change it in the workflow (a rule's resources, a process's directives), not in this script;"
                    + " see the fixes", List.of(), List.of());
        }
        if (script.isEmpty()) {
            return new Patch.NotSuggested("the batch script of job " + job.id() + " is not available (slurmdbd keeps"
                    + " scripts only with AccountingStoreFlags=job_script, and scontrol forgets a job after MinJobAge),"
                    + " so there is no diff" + (done.changes().isEmpty() ? "" : "; the changes to make by hand are listed"),
                    done.changes(), advice);
        }
        if (done.changes().isEmpty() || done.script().text().equals(original.text())) {
            String reason = finding.isUnknown()
                    ? "no failure cause was found, so there is no mechanical fix"
                    : "no mechanical change of the batch script fixes " + finding.kindId() + "; see the fixes";
            return new Patch.NotSuggested(reason, List.of(), advice);
        }
        // a value the job had that its script does not set came from sbatch's command line (or an SBATCH_* variable),
        // which overrides #SBATCH lines: resubmitted the same way, the patch would change nothing (the real lab's
        // partition and time fixes of jobs submitted with -p and --time)
        // first among the advice: without it the patch changes nothing
        int first = 0;
        for (BatchScript.Option o : done.script().options()) {
            if (original.option(o.name()).isPresent() || o.value() == null || o.value().isBlank()) {
                continue; // the script sets it (the patch edits its line), or it is a flag
            }
            String now = o.value().strip();
            Optional<String> had = recorded(job, o.name()).filter(was -> !was.equalsIgnoreCase(now));
            if (had.isEmpty()) {
                continue;
            }
            String was = had.get();
            advice.add(first++, ("Job "
                    + job.id() + "'s --" + o.name() + " " + was + " is not in its script: it came from the sbatch"
                    + " command line, an SBATCH_* variable or a default, and a command line value overrides #SBATCH"
                    + " lines: if you gave it there, give the new one there too (`sbatch --" + o.name() + "=" + now
                    + " ...`)."));
        }
        // the script sets it, but the job ran with another value: sbatch's command line (or an SBATCH_* variable, or an
        // admin's scontrol update) overrode the line the patch edits (the real lab's 219: `sbatch --time=00:01:00` of a
        // script that says 00:10:00 was shown "-00:10:00 +00:15:00", "(was 00:01:00)", and resubmitted the same way
        // would get one minute again)
        for (String name : List.of("time", "partition")) {
            Optional<String> line = original.option(name).map(BatchScript.Option::value).filter(v -> v != null && !v.isBlank());
            Optional<String> patched = done.script().option(name).map(BatchScript.Option::value);
            Optional<String> had = recorded(job, name);
            if (line.isEmpty() || had.isEmpty() || patched.isEmpty() || patched.get().equals(line.get())
                    || line.get().contains(",") || same(name, line.get().strip(), had.get())) {
                continue;
            }
            if (name.equals("time") && io.slurmwise.job.SlurmTime.parseDuration(line.get().strip())
                    .map(job::timeLimitCutToDeadline).orElse(false)) {
                continue; // slurmctld cut it to end by the --deadline, no command line set it (the time fixer says so)
            }
            advice.add(first++, "Job " + job.id() + " ran with --" + name + " " + had.get() + ", not its script's "
                    + line.get().strip() + ": the sbatch command line, an SBATCH_* variable or an admin's `scontrol"
                    + " update` set it, and a command line value overrides #SBATCH lines: if you gave it there, give the"
                    + " new one there too (`sbatch --" + name + "=" + patched.get().strip() + " ...`).");
        }
        if ("\r\n".equals(original.lineEnding())) {
            advice.add("The script has Windows (CRLF) line endings, which sbatch refuses (\"Batch script contains DOS"
                    + " line breaks\"); the patch keeps them: convert with `dos2unix` before submitting with sbatch.");
        }
        String name = job.id().withoutStep() + ".sh";
        List<String> diff = UnifiedDiffUtils.generateUnifiedDiff("a/" + name, "b/" + name, original.lines(),
                DiffUtils.diff(original.lines(), done.script().lines()), 3);
        return new Patch.Suggested(name, original.text(), done.script().text(), String.join("\n", diff) + "\n",
                done.changes(), advice);
    }

    /** Whether a script's value and the record's are the same setting (times by their length, names in any case). */
    private static boolean same(String option, String script, String recorded) {
        if (option.equals("time")) {
            Optional<java.time.Duration> a = io.slurmwise.job.SlurmTime.parseDuration(script);
            Optional<java.time.Duration> b = io.slurmwise.job.SlurmTime.parseDuration(recorded);
            return a.isEmpty() || b.isEmpty() || a.get().equals(b.get());
        }
        return script.equalsIgnoreCase(recorded);
    }

    /**
     * The value the job's record says it had for an sbatch option, as sbatch takes it; empty for an option the record
     * does not carry in that form (or a time the job did not set: the partition's default).
     */
    static Optional<String> recorded(JobRecord job, String option) {
        return switch (option) {
            case "time" -> switch (job.timeLimit().kind()) {
                case LIMITED, UNLIMITED -> Optional.of(job.timeLimit().human());
                default -> Optional.empty();
            };
            case "partition" -> Optional.ofNullable(job.partition()).filter(v -> !v.isBlank());
            case "qos" -> Optional.ofNullable(job.qos()).filter(v -> !v.isBlank());
            case "account" -> Optional.ofNullable(job.account()).filter(v -> !v.isBlank());
            // ReqMem without a unit suffix (sacct 21.08+) is the job's: per node, it is the node's share
            case "mem" -> Optional.ofNullable(job.reqMem()).filter(m -> m.per() == io.slurmwise.job.MemoryRequest.Per.NODE
                    || m.per() == io.slurmwise.job.MemoryRequest.Per.JOB).flatMap(m -> job.memoryPerNode())
                    .map(Object::toString);
            case "mem-per-cpu" -> Optional.ofNullable(job.reqMem())
                    .filter(m -> m.per() == io.slurmwise.job.MemoryRequest.Per.CPU).map(m -> m.size().toString());
            case "nodes" -> job.nodes() > 1 ? Optional.of(Integer.toString(job.nodes())) : Optional.empty();
            default -> Optional.empty();
        };
    }
}
