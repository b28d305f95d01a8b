package io.slurmwise.patch;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import io.slurmwise.backend.LogTail;
import io.slurmwise.classify.Evidence;
import io.slurmwise.classify.Finding;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.MemoryRequest;
import io.slurmwise.job.Partition;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.job.TimeLimit;
import io.slurmwise.taxonomy.Taxonomy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * Mechanical fixes of a failed job's batch script, as a unified diff that is printed and never applied: more
 * memory from the measured peak (oom), more time from the elapsed time and progress within the partition's
 * MaxTime (time_limit), requeue with a warning signal (time_limit, node_fail, preempted), node exclusion (a failed
 * node, a GPU with a hardware error), NCCL and CUDA allocator environment (nccl, cuda_oom), caches on scratch
 * (disk_quota), and the module system or library path (module_load, import_error). Everything else is advice.
 *
 * <pre>{@code
 * PatchSuggester s = new PatchSuggester(taxonomy);
 * Patch p = s.suggest(job, finding, logs, backend.batchScript(job), backend.partitions());
 * }</pre>
 */
public final class PatchSuggester {

    /** An OOM-killed job's peak is where it was stopped, not what it needed: ask for half again as much. */
    static final double MEMORY_HEADROOM = 1.5;
    /** Extra time over the estimated need, for slower nodes and I/O. */
    static final double TIME_HEADROOM = 1.2;
    /** Below this fraction of the work done, a progress estimate is too rough to extrapolate from. */
    static final double MIN_PROGRESS = 0.05;
    static final String SIGNAL = "B:USR1@300";

    private final Taxonomy taxonomy;
    private final Patterns patterns;

    public PatchSuggester(Taxonomy taxonomy) {
        this.taxonomy = Objects.requireNonNull(taxonomy, "taxonomy");
        this.patterns = Patterns.bundled();
    }

    /** What the rules see of the job. */
    private record Context(JobRecord job, Finding finding, List<String> logLines, List<String> evidenceLines,
                           List<Partition> partitions) {
    }

    /** The script being changed, and the changes and advice gathered so far. */
    private static final class Draft {
        BatchScript script;
        final List<Patch.Change> changes = new ArrayList<>();
        final Set<String> advice = new LinkedHashSet<>();

        Draft(BatchScript script) {
            this.script = script;
        }

        void change(String what, String why) {
            changes.add(new Patch.Change(what, why));
        }
    }

    /**
     * @param script     the batch script when the cluster kept it; empty means "not available" (no diff)
     * @param partitions the cluster's partitions (MaxTime caps the time fix); may be empty
     */
    public Patch suggest(JobRecord job, Finding finding, List<LogTail> logs, Optional<String> script,
                         List<Partition> partitions) {
        List<String> lines = new ArrayList<>();
        for (LogTail t : logs) {
            lines.addAll(t.lines());
        }
        List<String> evidence = finding.evidence().stream().filter(Evidence::isLogLine).map(Evidence::text).toList();
        Context cx = new Context(job, finding, lines, evidence, partitions == null ? List.of() : partitions);
        BatchScript original = BatchScript.parse(script.orElse("#!/bin/bash\n"));
        Draft d = new Draft(original);
        String kind = finding.kindId();
        if (isA(kind, "oom")) {
            memory(cx, d);
        }
        if (isA(kind, "time_limit")) {
            time(cx, d);
        }
        if (isA(kind, "time_limit") || isA(kind, "node_fail") || isA(kind, "preempted")) {
            requeue(d, kind);
        }
        if (isA(kind, "node_fail")) {
            failedNode(cx).ifPresent(n -> exclude(d, n, "SLURM reported node " + n + " as failed during the job"));
        }
        if (isA(kind, "cuda_error")) {
            badGpuNode(cx).ifPresent(n -> exclude(d, n, "the GPU error on " + n + " points at its hardware, not your program"));
        }
        if (isA(kind, "nccl")) {
            nccl(cx, d);
        }
        if (isA(kind, "cuda_oom")) {
            cudaOom(cx, d);
        }
        if (isA(kind, "disk_quota")) {
            caches(cx, d);
        }
        if (isA(kind, "module_load")) {
            modules(cx, d);
        }
        if (isA(kind, "import_error") || isA(kind, "module_load")) {
            imports(cx, d, isA(kind, "import_error"));
        }
        List<String> advice = new ArrayList<>(d.advice);
        if (script.isEmpty()) {
            return new Patch.NotSuggested("the batch script of job " + job.id() + " is not available (slurmdbd keeps"
                    + " scripts only with AccountingStoreFlags=job_script, and scontrol forgets a job after MinJobAge),"
                    + " so there is no diff" + (d.changes.isEmpty() ? "" : "; the changes to make by hand are listed"),
                    d.changes, advice);
        }
        if (d.changes.isEmpty() || d.script.text().equals(original.text())) {
            String reason = finding.isUnknown()
                    ? "no failure cause was found, so there is no mechanical fix"
                    : "no mechanical change of the batch script fixes " + kind + "; see the fixes";
            return new Patch.NotSuggested(reason, List.of(), advice);
        }
        if ("\r\n".equals(original.lineEnding())) {
            advice.add("The script has Windows (CRLF) line endings, which sbatch refuses (\"Batch script contains DOS"
                    + " line breaks\"); the patch keeps them: convert with `dos2unix` before submitting with sbatch.");
        }
        String name = job.id().withoutStep() + ".sh";
        List<String> diff = UnifiedDiffUtils.generateUnifiedDiff("a/" + name, "b/" + name, original.lines(),
                DiffUtils.diff(original.lines(), d.script.lines()), 3);
        return new Patch.Suggested(name, original.text(), d.script.text(), String.join("\n", diff) + "\n", d.changes,
                advice);
    }

    private boolean isA(String kind, String ancestor) {
        return taxonomy.find(ancestor).isPresent() && taxonomy.isA(kind, ancestor);
    }

    // ---------------------------------------------------------------- memory

    private void memory(Context cx, Draft d) {
        JobRecord job = cx.job();
        BatchScript s = d.script;
        String opt = s.has("mem-per-cpu") ? "mem-per-cpu" : s.has("mem-per-gpu") ? "mem-per-gpu" : s.has("mem") ? "mem"
                : job.reqMem() != null && job.reqMem().per() == MemoryRequest.Per.CPU ? "mem-per-cpu" : "mem";
        int nodes = Math.max(1, job.nodes());
        int cpusPerTask = intOption(s, "cpus-per-task").orElse(1);
        int tasksPerNode = intOption(s, "ntasks-per-node")
                .orElse(intOption(s, "ntasks").map(n -> Math.max(1, n / nodes)).orElse(1));
        int gpusPerNode = Math.max(1, job.gpus() / nodes);
        // the request's unit: per node, per CPU or per GPU; MaxRSS is the largest single task
        Optional<DataSize> limit = s.option(opt).flatMap(o -> DataSize.tryParse(o.value()));
        if (limit.isEmpty() && job.reqMem() != null) {
            limit = Optional.of(switch (opt) {
                case "mem" -> job.reqMem().total(job.cpus(), job.gpus(), 1);
                default -> job.reqMem().size();
            });
        }
        DataSize peak = job.maxRss() == null ? null : switch (opt) {
            case "mem-per-cpu" -> new DataSize(job.maxRss().bytes() / Math.max(1, cpusPerTask));
            case "mem-per-gpu" -> new DataSize(job.maxRss().bytes() * tasksPerNode / gpusPerNode);
            default -> new DataSize(job.maxRss().bytes() * tasksPerNode);
        };
        String unit = switch (opt) {
            case "mem-per-cpu" -> " per CPU";
            case "mem-per-gpu" -> " per GPU";
            default -> " per node";
        };
        long wanted;
        String why;
        if (limit.isEmpty()) {
            if (peak == null) {
                d.advice.add("Neither the memory request nor the peak is known: set `#SBATCH --mem=` to about twice what"
                        + " the job used before, and check the peak with `sacct -j <jobid> -o JobID,MaxRSS,ReqMem`.");
                return;
            }
            wanted = (long) (peak.bytes() * MEMORY_HEADROOM);
            why = "the measured peak (MaxRSS) was " + peak + unit + "; 1.5x that, rounded up";
        } else if (peak != null && peak.bytes() >= 0.9 * limit.get().bytes()) {
            wanted = (long) (peak.bytes() * MEMORY_HEADROOM);
            why = "the measured peak (MaxRSS) " + peak + unit + " reached the " + limit.get() + " limit, where the job was"
                    + " killed, so it needs more than it showed: 1.5x the peak, rounded up";
        } else if (peak != null) {
            wanted = (long) (limit.get().bytes() * MEMORY_HEADROOM);
            why = "the sampled peak (MaxRSS " + peak + unit + ") stayed below the " + limit.get() + " limit, so a short"
                    + " spike the sampling missed hit it: 1.5x the limit, rounded up";
        } else {
            wanted = limit.get().bytes() * 2;
            why = "no peak was measured (no MaxRSS), so the " + limit.get() + " limit is doubled";
        }
        long rounded = roundUp(wanted);
        if (limit.isPresent() && rounded <= limit.get().bytes()) {
            rounded = roundUp(limit.get().bytes() + 1);
        }
        long multiplier = switch (opt) {
            case "mem-per-cpu" -> Math.max(1, job.cpus() / nodes);
            case "mem-per-gpu" -> gpusPerNode;
            default -> 1;
        };
        Optional<Partition> part = partition(cx, s);
        if (part.isPresent() && part.get().memoryPerNode() != null
                && rounded * multiplier > part.get().memoryPerNode().bytes()) {
            DataSize node = part.get().memoryPerNode();
            long capped = roundDown(node.bytes() / multiplier);
            long perNode = rounded * multiplier;
            boolean gpus = usesGpus(job, s);
            String bigger = cx.partitions().stream()
                    .filter(p -> p.up() && p.memoryPerNode() != null && p.memoryPerNode().bytes() >= perNode)
                    .filter(p -> gpus == p.gres().contains("gpu"))
                    .sorted(Comparator.comparing(Partition::memoryPerNode))
                    .map(p -> p.name() + " (" + p.memoryPerNode() + " per node)").findFirst().orElse(null);
            d.advice.add("The job needs about " + new DataSize(rounded * multiplier) + " per node, more than the "
                    + node + " of a " + part.get().name() + " node"
                    + (bigger == null ? "" : ": use a partition with bigger nodes, e.g. " + bigger)
                    + ", or spread the work over more nodes.");
            if (limit.isPresent() && capped <= limit.get().bytes()) {
                return;
            }
            why += "; capped at what a " + part.get().name() + " node has (" + node + ")";
            d.script = d.script.withOption(opt, size(capped));
            d.change("--" + opt + "=" + size(capped) + limit.map(l -> " (was " + l + ")").orElse(""), why);
            return;
        }
        d.script = d.script.withOption(opt, size(rounded));
        d.change("--" + opt + "=" + size(rounded) + limit.map(l -> " (was " + l + ")").orElse(""), why);
    }

    /** Rounds up to a unit that suits the size: 256M below 4G, 1G below 16G, 4G below 64G, 16G below 256G, else 64G. */
    static long roundUp(long bytes) {
        long step = step(bytes);
        return (bytes + step - 1) / step * step;
    }

    static long roundDown(long bytes) {
        long step = step(bytes);
        return Math.max(step, bytes / step * step);
    }

    private static long step(long bytes) {
        if (bytes < 4 * DataSize.GIB) {
            return 256 * DataSize.MIB;
        }
        if (bytes < 16 * DataSize.GIB) {
            return DataSize.GIB;
        }
        if (bytes < 64 * DataSize.GIB) {
            return 4 * DataSize.GIB;
        }
        if (bytes < 256 * DataSize.GIB) {
            return 16 * DataSize.GIB;
        }
        return 64 * DataSize.GIB;
    }

    /** As sbatch takes it: {@code 48G}, or {@code 768M} when not a whole number of G. */
    static String size(long bytes) {
        return bytes % DataSize.GIB == 0 ? bytes / DataSize.GIB + "G" : Math.max(1, bytes / DataSize.MIB) + "M";
    }

    /** GPUs allocated, or asked for in the script (a record of a job that never started has no allocation). */
    private static boolean usesGpus(JobRecord job, BatchScript s) {
        return job.gpus() > 0 || s.options().stream().anyMatch(o -> o.name().startsWith("gpus")
                || (o.name().equals("gres") && o.value() != null && o.value().contains("gpu")));
    }

    private static Optional<Integer> intOption(BatchScript s, String name) {
        return s.option(name).map(BatchScript.Option::value).flatMap(v -> {
            try {
                return Optional.of(Integer.parseInt(v.strip()));
            } catch (NumberFormatException | NullPointerException e) {
                return Optional.empty();
            }
        });
    }

    private static Optional<Partition> partition(Context cx, BatchScript s) {
        String name = cx.job().partition() != null ? cx.job().partition()
                : s.option("partition").map(BatchScript.Option::value).orElse(null);
        if (name == null) {
            return cx.partitions().stream().filter(Partition::isDefault).findFirst();
        }
        String first = name.split(",")[0];
        return cx.partitions().stream().filter(p -> p.name().equals(first)).findFirst();
    }

    // ---------------------------------------------------------------- time

    private void time(Context cx, Draft d) {
        JobRecord job = cx.job();
        Duration elapsed = job.elapsed();
        Optional<Duration> scriptLimit = d.script.option("time").flatMap(o -> SlurmTime.parseDuration(o.value()));
        Duration limit = job.timeLimit().limit().orElse(scriptLimit.orElse(null));
        if (elapsed == null || elapsed.isZero()) {
            d.advice.add("The elapsed time is unknown, so no new --time can be computed: check it with"
                    + " `sacct -j " + job.id() + " -o JobID,Elapsed,Timelimit`.");
            return;
        }
        OptionalProgress progress = progress(cx.logLines());
        boolean measured = progress.fraction() >= MIN_PROGRESS && progress.fraction() < 1.0;
        Duration need = measured
                ? Duration.ofSeconds((long) (elapsed.toSeconds() / progress.fraction() * TIME_HEADROOM))
                : elapsed.multipliedBy(2);
        need = roundUp(need);
        if (limit != null && need.compareTo(limit) <= 0) {
            need = roundUp(limit.plus(limit.dividedBy(2)));
        }
        String why = measured
                ? String.format(Locale.ROOT, "it did about %.0f%% of the work in %s (%s), so the whole run needs"
                + " about %s with 20%% headroom", progress.fraction() * 100, SlurmTime.format(elapsed), progress.line(),
                SlurmTime.format(need))
                : "no progress could be read from the logs, so the " + SlurmTime.format(elapsed) + " it ran is doubled: "
                + SlurmTime.format(need);
        Optional<Partition> part = partition(cx, d.script);
        Duration max = part.flatMap(p -> p.maxTime().kind() == TimeLimit.Kind.LIMITED ? p.maxTime().limit()
                : Optional.empty()).orElse(null);
        if (max == null || need.compareTo(max) <= 0) {
            d.script = d.script.withOption("time", SlurmTime.format(need));
            d.change("--time=" + SlurmTime.format(need) + (limit == null ? "" : " (was " + SlurmTime.format(limit) + ")"),
                    why + (part.isEmpty() ? " (the partition's MaxTime is unknown)"
                            : ", within the " + part.get().maxTime() + " MaxTime of partition " + part.get().name()));
            return;
        }
        // capped: the partition cannot give this run the time it needs
        String pname = part.get().name();
        String cap = SlurmTime.format(max);
        if (limit == null || max.compareTo(limit) > 0) {
            d.script = d.script.withOption("time", cap);
        }
        int at = d.script.option("time").map(BatchScript.Option::line).orElse(d.script.lastDirectiveLine() + 1);
        d.script = d.script.insertLines(at, List.of("# slurmwise: this run needs about " + SlurmTime.format(need)
                + ", but partition " + pname + " allows at most " + cap + ": checkpoint and requeue, or a longer partition"));
        d.change("--time=" + cap + (limit == null || max.compareTo(limit) > 0
                        ? (limit == null ? "" : " (was " + SlurmTime.format(limit) + ")")
                        : " (unchanged: already the maximum)") + ", capped by partition " + pname,
                why + "; partition " + pname + " allows at most " + cap + " (MaxTime)");
        boolean gpus = usesGpus(cx.job(), d.script);
        Duration needed = need;
        List<String> longer = cx.partitions().stream()
                .filter(p -> p.up() && !p.name().equals(pname))
                .filter(p -> p.maxTime().kind() == TimeLimit.Kind.UNLIMITED
                        || p.maxTime().limit().map(m -> m.compareTo(needed) >= 0).orElse(false))
                .filter(p -> !gpus || p.gres().contains("gpu"))
                .sorted(Comparator.comparing((Partition p) -> p.maxTime().limit().orElse(Duration.ofDays(36500))))
                .map(p -> p.name() + " (MaxTime " + p.maxTime() + (p.gres().isBlank() ? "" : ", " + p.gres()) + ")")
                .toList();
        d.advice.add("Partition " + pname + " allows at most " + cap + " and this run needs about "
                + SlurmTime.format(need) + ". Either make it resumable (save a checkpoint, and let --requeue with"
                + " --signal=" + SIGNAL + " bring it back for the rest), or move it to a partition with a longer MaxTime"
                + (longer.isEmpty() ? " (none of this cluster's partitions has one" + (gpus ? " with GPUs" : "") + ")"
                : ": " + String.join(", ", longer) + (gpus ? "; adjust --gres to that partition's GPU type" : ""))
                + ". A QOS may limit the time too (`sacctmgr show qos format=Name,MaxWall`).");
    }

    /** Rounds up to 15 minutes below 2 hours, else to the hour; less than 1% over a step is not worth another. */
    static Duration roundUp(Duration d) {
        long step = d.compareTo(Duration.ofHours(2)) < 0 ? 900 : 3600;
        long s = d.toSeconds();
        long rem = s % step;
        if (rem > 0 && rem < step / 100 && s > step) {
            s -= rem;
        }
        return Duration.ofSeconds((s + step - 1) / step * step);
    }

    /** How far the run got: a fraction in [0, 1], or 0 when no line says, and the line that says it. */
    record OptionalProgress(double fraction, String line) {
    }

    OptionalProgress progress(List<String> lines) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            String l = lines.get(i);
            Optional<Matcher> epoch = patterns.find("progress.epoch", l);
            if (epoch.isPresent()) {
                long n = Long.parseLong(epoch.get().group(1));
                long m = Long.parseLong(epoch.get().group(2));
                if (m <= 0 || n > m) {
                    continue;
                }
                double within = 0;
                Optional<Matcher> step = patterns.find("progress.step", l.substring(epoch.get().end()));
                if (patterns.matches("progress.done", l)) {
                    within = 1;
                } else if (step.isPresent()) {
                    long a = Long.parseLong(step.get().group(1));
                    long b = Long.parseLong(step.get().group(2));
                    within = b > 0 && a <= b ? a / (double) b : 0;
                }
                return new OptionalProgress((n - 1 + within) / m, quote(l, epoch.get().start()));
            }
            Optional<Matcher> step = patterns.find("progress.step", l);
            if (step.isPresent()) {
                long a = Long.parseLong(step.get().group(1));
                long b = Long.parseLong(step.get().group(2));
                if (b > 0 && a <= b) {
                    return new OptionalProgress(a / (double) b, quote(l, step.get().start()));
                }
            }
        }
        return new OptionalProgress(0, null);
    }

    private static String quote(String line, int from) {
        String s = line.substring(Math.max(0, Math.min(from, line.length()))).strip();
        return "\"" + (s.length() > 40 ? s.substring(0, 40).strip() + "..." : s) + "\"";
    }

    // ---------------------------------------------------------------- requeue, exclude

    private void requeue(Draft d, String kind) {
        List<String> added = new ArrayList<>();
        if (!d.script.has("requeue") || lastIs(d.script, "no-requeue", "requeue")) {
            d.script = d.script.insertDirective("#SBATCH --requeue");
            added.add("--requeue");
        }
        if (!d.script.has("signal")) {
            d.script = d.script.insertDirective("#SBATCH --signal=" + SIGNAL);
            added.add("--signal=" + SIGNAL);
        }
        if (!added.isEmpty()) {
            String because = switch (kind) {
                case "node_fail" -> "a node failure then puts the job back in the queue instead of ending it";
                case "preempted" -> "a preempted job then goes back in the queue instead of ending";
                default -> "the job then gets a warning 5 minutes before its limit and can save state and requeue itself";
            };
            d.change(String.join(" and ", added), because);
        }
        d.advice.add("With --signal=" + SIGNAL + " SLURM sends USR1 to the batch shell 5 minutes before the end. Trap"
                + " it to save a checkpoint and requeue: `trap 'kill -USR1 $PID; wait $PID; scontrol requeue"
                + " $SLURM_JOB_ID' USR1`, and run the work in the background (`srun python train.py & PID=$!;"
                + " wait $PID`) so the trap runs in time. On restart, resume from the newest checkpoint"
                + " (SLURM_RESTART_COUNT says it is a restart).");
    }

    private static boolean lastIs(BatchScript s, String a, String b) {
        int ia = s.option(a).map(BatchScript.Option::line).orElse(-1);
        int ib = s.option(b).map(BatchScript.Option::line).orElse(-1);
        return ia > ib;
    }

    private void exclude(Draft d, String node, String why) {
        Optional<BatchScript.Option> ex = d.script.option("exclude");
        if (ex.isPresent() && ex.get().value() != null) {
            if (HostList.expand(ex.get().value()).contains(node)) {
                return;
            }
            d.script = d.script.withOption("exclude", ex.get().value() + "," + node);
        } else {
            d.script = d.script.withOption("exclude", node);
        }
        d.change("--exclude=" + node, why + "; report the node to your admins with the job id");
    }

    private Optional<String> failedNode(Context cx) {
        List<String> nodes = HostList.expand(cx.job().nodeList());
        Set<String> named = new LinkedHashSet<>();
        for (String l : cx.logLines()) {
            patterns.find("node.failed", l).ifPresent(m -> named.add(m.group(1)));
        }
        named.removeIf(n -> !nodes.isEmpty() && !nodes.contains(n));
        if (named.size() == 1) {
            return Optional.of(named.iterator().next());
        }
        return named.isEmpty() && nodes.size() == 1 ? Optional.of(nodes.get(0)) : Optional.empty();
    }

    private Optional<String> badGpuNode(Context cx) {
        List<String> hw = cx.logLines().stream().filter(l -> patterns.matches("gpu.hardware", l)).toList();
        if (hw.isEmpty()) {
            return Optional.empty();
        }
        List<String> nodes = HostList.expand(cx.job().nodeList());
        if (nodes.size() == 1) {
            return Optional.of(nodes.get(0));
        }
        Set<String> named = new LinkedHashSet<>();
        for (String l : hw) {
            for (String n : nodes) {
                if (l.contains(n)) {
                    named.add(n);
                }
            }
        }
        return named.size() == 1 ? Optional.of(named.iterator().next()) : Optional.empty();
    }

    // ---------------------------------------------------------------- environment

    /** Adds {@code export NAME=value} lines that the script does not set yet, next to its other exports. */
    private List<String> exportMissing(Draft d, List<String[]> vars) {
        List<String> lines = new ArrayList<>();
        for (String[] v : vars) {
            if (exported(d.script, v[0]).isEmpty()) {
                lines.add("export " + v[0] + "=" + v[1]);
            }
        }
        if (!lines.isEmpty()) {
            d.script = d.script.insertLines(envAnchor(d.script), lines);
        }
        return lines;
    }

    /** The line of {@code export NAME=...} in the script body, if any. */
    private Optional<Integer> exported(BatchScript s, String name) {
        for (int i = s.headerEnd(); i < s.lines().size(); i++) {
            Optional<Matcher> m = patterns.find("script.export", s.lines().get(i));
            if (m.isPresent() && m.get().group(1).equals(name)) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    /** Where environment lines go: after the last export before the first command that launches work, else before it. */
    private int envAnchor(BatchScript s) {
        int launch = launchLine(s);
        for (int i = launch - 1; i >= s.headerEnd(); i--) {
            if (patterns.matches("script.export", s.lines().get(i))) {
                return i + 1;
            }
        }
        return launch;
    }

    /** The first line that launches the work (srun, python, mpirun, ...), or the end of the script. */
    private int launchLine(BatchScript s) {
        for (int i = s.headerEnd(); i < s.lines().size(); i++) {
            if (patterns.matches("script.launch", s.lines().get(i))) {
                return i;
            }
        }
        int end = s.lines().size();
        while (end > s.headerEnd() && s.lines().get(end - 1).isBlank()) {
            end--;
        }
        return Math.max(end, s.headerEnd());
    }

    private void nccl(Context cx, Draft d) {
        List<String> added = exportMissing(d, List.of(new String[] {"NCCL_DEBUG", "INFO"},
                new String[] {"TORCH_NCCL_ASYNC_ERROR_HANDLING", "1"}));
        if (!added.isEmpty()) {
            d.change(String.join("; ", added), "NCCL then logs which rank, device and network path failed, and a"
                    + " failed collective ends the job with an error instead of hanging until the time limit");
        }
        if (cx.logLines().stream().anyMatch(l -> patterns.matches("nccl.ib", l) && !l.contains("NCCL INFO"))) {
            d.advice.add("The errors are on the InfiniBand path (NET/IB, IBV_WC_*): rerun once with"
                    + " `export NCCL_IB_DISABLE=1` (slower, over sockets) to confirm, and pin the interface with"
                    + " `export NCCL_SOCKET_IFNAME=<ib0|hsn0|...>`; if one node is always involved, exclude it and report it.");
        }
        if (cx.logLines().stream().anyMatch(l -> patterns.matches("nccl.timeout", l))) {
            d.advice.add("A collective timed out: if a rank was only slow (checkpointing, evaluation on rank 0), raise"
                    + " the timeout in `init_process_group(timeout=timedelta(hours=1))` and give every rank the same"
                    + " number of batches (`drop_last=True`).");
        }
    }

    private void cudaOom(Context cx, Draft d) {
        List<String> added = exportMissing(d, List.<String[]>of(new String[] {"PYTORCH_CUDA_ALLOC_CONF",
                "expandable_segments:True"}));
        if (!added.isEmpty()) {
            d.change(added.get(0), "PyTorch's allocator then grows segments instead of fragmenting GPU memory, which"
                    + " often frees the last few GiB; it does not change results");
        }
        String batch = null;
        for (String l : d.script.lines()) {
            Optional<Matcher> m = patterns.find("script.batch.size", l);
            if (m.isPresent()) {
                batch = m.get().group(1) + " " + m.get().group(2);
            }
        }
        d.advice.add("Reduce the per-GPU batch size" + (batch == null ? "" : " (the script passes `" + batch + "`)")
                + " and keep the global batch with gradient accumulation; mixed precision and activation"
                + " checkpointing cut memory further.");
    }

    private void caches(Context cx, Draft d) {
        String text = d.script.text();
        String wd = cx.job().workDir() == null ? "" : cx.job().workDir();
        String base = text.contains("$SCRATCH") || text.contains("${SCRATCH}") ? "$SCRATCH"
                : text.contains("/scratch/") || wd.startsWith("/scratch/") ? "/scratch/$USER" : "${SCRATCH:-/scratch/$USER}";
        List<String> rewritten = new ArrayList<>();
        // caches already exported to the home directory or /tmp move to scratch
        for (String var : List.of("TMPDIR", "HF_HOME", "TORCH_HOME", "XDG_CACHE_HOME", "PIP_CACHE_DIR",
                "TRANSFORMERS_CACHE", "HF_DATASETS_CACHE", "CONDA_PKGS_DIRS", "APPTAINER_CACHEDIR")) {
            Optional<Integer> at = exported(d.script, var);
            if (at.isEmpty()) {
                continue;
            }
            String line = d.script.lines().get(at.get());
            Matcher m = patterns.find("script.export", line).orElseThrow();
            String value = m.group(2).strip();
            if (value.startsWith("/tmp") || value.startsWith("$HOME") || value.startsWith("${HOME}") || value.startsWith("~")) {
                String target = var.equals("TMPDIR") ? base + "/tmp/$SLURM_JOB_ID" : base + "/.cache/" + cacheName(var);
                d.script = d.script.withLine(at.get(), line.substring(0, m.start(2)) + target);
                rewritten.add(var + " " + value + " -> " + target);
            }
        }
        if (!rewritten.isEmpty()) {
            d.change(String.join("; ", rewritten), "the home directory and a node's /tmp are small; scratch has room");
        }
        List<String> added = exportMissing(d, List.of(new String[] {"XDG_CACHE_HOME", base + "/.cache"},
                new String[] {"PIP_CACHE_DIR", base + "/.cache/pip"}, new String[] {"HF_HOME", base + "/.cache/huggingface"},
                new String[] {"TORCH_HOME", base + "/.cache/torch"}));
        if (!added.isEmpty()) {
            d.change(String.join("; ", added), "pip, Hugging Face and PyTorch write their caches to ~/.cache by default,"
                    + " which fills the home quota; on scratch they have room");
        }
        if (base.startsWith("${SCRATCH:-")) {
            d.advice.add("The patch uses $SCRATCH (or /scratch/$USER): replace it with your site's scratch path if"
                    + " it differs.");
        }
        d.advice.add("Free space now: `du -sh ~/.cache/* | sort -h`, then `pip cache purge`, `conda clean --all`,"
                + " or remove old outputs; check the quota with your site's quota command.");
    }

    private static String cacheName(String var) {
        return switch (var) {
            case "HF_HOME", "TRANSFORMERS_CACHE" -> "huggingface";
            case "HF_DATASETS_CACHE" -> "huggingface/datasets";
            case "TORCH_HOME" -> "torch";
            case "PIP_CACHE_DIR" -> "pip";
            case "CONDA_PKGS_DIRS" -> "conda/pkgs";
            case "APPTAINER_CACHEDIR" -> "apptainer";
            default -> "";
        };
    }

    private void modules(Context cx, Draft d) {
        boolean undefined = cx.logLines().stream().anyMatch(l -> patterns.matches("module.undefined", l));
        if (undefined) {
            Optional<String> shebang = d.script.shebang();
            boolean login = shebang.map(s -> s.matches("#!\\s*\\S*/(?:env\\s+)?(?:ba)?sh\\s+-l.*")).orElse(false);
            if (!login) {
                String old = shebang.orElse("(none)");
                d.script = shebang.isPresent() ? d.script.withLine(0, "#!/bin/bash -l")
                        : d.script.insertLines(0, List.of("#!/bin/bash -l"));
                d.change("#!/bin/bash -l (was " + old + ")", "`module` is a shell function that a login shell defines;"
                        + " the job's shell did not have it (module: command not found)");
            } else {
                d.advice.add("`module` is undefined even in a login shell: initialise it with"
                        + " `source /etc/profile.d/modules.sh` (or Lmod's `source $LMOD_PKG/init/bash`) before the loads.");
            }
        }
        Set<String> unknown = new LinkedHashSet<>();
        for (String l : cx.logLines()) {
            patterns.find("module.unknown", l).ifPresent(m -> unknown.add(m.group(1)));
        }
        // Lmod prints the unknown name on the line after the message
        for (int i = 0; i + 1 < cx.logLines().size(); i++) {
            Optional<Matcher> m = patterns.find("module.unknown", cx.logLines().get(i));
            if (m.isPresent() && m.get().group(1).isEmpty()) {
                unknown.remove("");
                String next = cx.logLines().get(i + 1).strip().replace("\"", "");
                if (!next.isEmpty() && !next.contains(" ")) {
                    unknown.add(next);
                }
            }
        }
        unknown.remove("");
        for (String name : unknown) {
            for (int i = d.script.headerEnd(); i < d.script.lines().size(); i++) {
                String l = d.script.lines().get(i);
                if (patterns.matches("script.module.load", l) && containsWord(l, name) && !l.contains("||")) {
                    String family = name.contains("/") ? name.substring(0, name.indexOf('/')) : name;
                    d.script = d.script.withLine(i, l.stripTrailing() + " || exit 1");
                    d.script = d.script.insertLines(i, List.of("# slurmwise: '" + name + "' is unknown to the module"
                            + " system here; find its current name with: module spider " + family));
                    d.change("module load ... || exit 1, with a comment on " + name, "'" + name + "' is unknown on the"
                            + " node, and the job went on without it; with `|| exit 1` it stops at the load with a clear"
                            + " error. Find the current name with `module spider " + family + "` and fix the line");
                    break;
                }
            }
        }
    }

    private static boolean containsWord(String line, String word) {
        int i = line.indexOf(word);
        while (i >= 0) {
            boolean startOk = i == 0 || Character.isWhitespace(line.charAt(i - 1)) || line.charAt(i - 1) == '"';
            int end = i + word.length();
            boolean endOk = end == line.length() || Character.isWhitespace(line.charAt(end)) || line.charAt(end) == '"';
            if (startOk && endOk) {
                return true;
            }
            i = line.indexOf(word, i + 1);
        }
        return false;
    }

    /** @param python whether a Python import is the cause (after a failed module load it is only a consequence) */
    private void imports(Context cx, Draft d, boolean python) {
        List<String> where = new ArrayList<>(cx.evidenceLines());
        where.addAll(cx.logLines());
        // a shared library that a module provides: load it next to the other modules
        Optional<Matcher> lib = patterns.first("library.missing", where);
        if (lib.isPresent() && !lib.get().group(1).startsWith("libibverbs")) {
            String file = lib.get().group(1);
            String family = file.replaceFirst("^lib", "").replaceFirst("\\.so.*$", "")
                    .replaceFirst("(_mpi|_omp|_threads|_f03|_cpp|_fortran|-[0-9.]+)$", "").replaceFirst("[0-9.]+$", "");
            if (!family.isBlank()) {
                java.util.regex.Matcher versioned = java.util.regex.Pattern
                        .compile("(?<![\\w/])" + java.util.regex.Pattern.quote(family) + "/[\\w.+-]+").matcher(d.script.text());
                String module = versioned.find() ? versioned.group() : family;
                boolean loaded = d.script.lines().stream().anyMatch(l -> patterns.matches("script.module.load", l)
                        && containsWord(l, module));
                if (!loaded) {
                    int at = -1;
                    for (int i = d.script.headerEnd(); i < d.script.lines().size(); i++) {
                        if (patterns.matches("script.module.load", d.script.lines().get(i))) {
                            at = i + 1;
                        }
                    }
                    d.script = d.script.insertLines(at < 0 ? launchLine(d.script) : at, List.of("module load " + module));
                    d.change("module load " + module, "the program needs " + file + " at run time, and the script loads"
                            + " no module that provides it" + (module.contains("/") ? " (the script names " + module + ")"
                            : "; the module name is a guess from the library name: check it with `module spider "
                            + family + "`"));
                }
            }
        }
        // the environment ships a newer libstdc++/glibc than the node: put its lib directory first
        Optional<Matcher> ver = patterns.first("library.version", where);
        if (ver.isPresent()) {
            String requiredBy = ver.get().group(2);
            int slash = requiredBy.lastIndexOf('/');
            String dir = slash > 0 ? requiredBy.substring(0, slash) : "";
            boolean env = dir.endsWith("/lib") && (dir.contains("/envs/") || dir.contains("conda") || dir.contains("venv")
                    || dir.contains("mamba") || dir.contains("miniforge"));
            if (env && exported(d.script, "LD_LIBRARY_PATH").isEmpty()) {
                String line = "export LD_LIBRARY_PATH=" + dir + "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}";
                d.script = d.script.insertLines(envAnchor(d.script), List.of(line));
                d.change(line, ver.get().group(1) + " is missing from the node's system library, and " + requiredBy
                        + " comes from an environment that ships a newer libstdc++ in " + dir + ": use that one first");
            } else {
                d.advice.add(ver.get().group(1) + " is missing from the node's system library: load a newer compiler"
                        + " module before running (`module load gcc/12`), or rebuild the environment on the cluster.");
            }
        }
        // conda activate in a shell where conda was never initialised
        boolean uninitialised = cx.logLines().stream().anyMatch(l -> patterns.matches("conda.uninitialized", l));
        if (uninitialised) {
            for (int i = d.script.headerEnd(); i < d.script.lines().size(); i++) {
                if (patterns.matches("script.conda.activate", d.script.lines().get(i))) {
                    boolean initBefore = false;
                    for (int j = 0; j < i; j++) {
                        initBefore |= patterns.matches("script.conda.init", d.script.lines().get(j));
                    }
                    if (!initBefore) {
                        d.script = d.script.insertLines(i, List.of("eval \"$(conda shell.bash hook)\""));
                        d.change("eval \"$(conda shell.bash hook)\" before conda activate", "conda activate needs conda's"
                                + " shell functions, which a batch shell does not have until they are loaded");
                    }
                    break;
                }
            }
        }
        Optional<Matcher> py = python ? patterns.first("python.missing", where) : Optional.empty();
        if (py.isPresent()) {
            String module = py.get().group(1).split("\\.")[0];
            String activation = d.script.lines().stream().skip(d.script.headerEnd())
                    .filter(l -> patterns.matches("script.activate", l)).map(String::strip).reduce((a, b) -> b).orElse(null);
            d.advice.add(activation == null
                    ? "Python cannot import `" + module + "` and the script activates no environment: add the activation"
                    + " of the environment that has it (`source /path/to/env/bin/activate` or `conda activate <env>`)"
                    + " before the command."
                    : "Python cannot import `" + module + "` in the environment the script activates (`" + activation
                    + "`): install it there (`python -m pip install " + module + "` after that line, once, on a login"
                    + " node), or activate the environment that has it.");
        }
    }
}
