package io.slurmwise.patch;

import io.slurmwise.job.DataSize;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.MemoryRequest;
import io.slurmwise.job.Partition;
import io.slurmwise.job.PartitionSearch;

import java.util.List;
import java.util.Optional;

/**
 * {@code memory}: more memory from the measured peak, in the unit the script asks in (per node, per CPU or per
 * GPU), by {@link MemoryAdvice}'s rule, capped by what one node of the partition has.
 */
final class MemoryFixer implements Fixer {

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        JobRecord job = cx.job();
        Step step = Step.none(s);
        Optional<Step> notTheJobs = notTheJobsLimit(cx, s, step);
        if (notTheJobs.isPresent()) {
            return notTheJobs.get();
        }
        String opt = s.has("mem-per-cpu") ? "mem-per-cpu" : s.has("mem-per-gpu") ? "mem-per-gpu" : s.has("mem") ? "mem"
                : job.reqMem() != null && job.reqMem().per() == MemoryRequest.Per.CPU ? "mem-per-cpu" : "mem";
        int nodes = Math.max(1, job.nodes());
        int cpusPerTask = ScriptEdits.intOption(s, "cpus-per-task").orElse(1);
        Optional<Integer> scriptTasksPerNode = ScriptEdits.intOption(s, "ntasks-per-node")
                .or(() -> ScriptEdits.intOption(s, "ntasks").map(n -> Math.max(1, n / nodes)));
        int tasksPerNode = scriptTasksPerNode.orElse(1);
        int gpusPerNode = Math.max(1, job.gpus() / nodes);
        // the request's unit: per node, per CPU or per GPU; MaxRSS is the largest single task
        Optional<DataSize> limit = s.option(opt).flatMap(o -> DataSize.tryParse(o.value()));
        if (limit.isEmpty() && job.reqMem() != null) {
            limit = Optional.of(switch (opt) {
                case "mem" -> job.reqMem().perNode(job.cpus(), job.gpus(), nodes);
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
        // a peak scaled from the largest task's MaxRSS is a reckoning, and said as one
        String reckoned = job.maxRss() == null ? null : switch (opt) {
            case "mem-per-cpu" -> cpusPerTask > 1 ? "the largest task's MaxRSS " + job.maxRss() + " over its "
                    + cpusPerTask + " CPUs" : null;
            case "mem-per-gpu" -> tasksPerNode > 1 || gpusPerNode > 1 ? "the largest task's MaxRSS " + job.maxRss()
                    + " × " + tasksPerNode + " task" + (tasksPerNode == 1 ? "" : "s") + " per node over " + gpusPerNode
                    + " GPU" + (gpusPerNode == 1 ? "" : "s") : null;
            default -> tasksPerNode > 1 ? "the largest task's MaxRSS " + job.maxRss() + " × " + tasksPerNode
                    + " tasks per node" : null;
        };
        Optional<MemoryAdvice.Need> need = MemoryAdvice.need(limit, peak, unit, reckoned);
        if (need.isEmpty()) {
            return step.advise("Neither the memory request nor the peak is known: set `#SBATCH --mem=` to about"
                    + " twice what the job used before, and check the peak with"
                    + " `sacct -j <jobid> -o JobID,MaxRSS,ReqMem`.");
        }
        long rounded = need.get().bytes();
        String why = need.get().why();
        long multiplier = switch (opt) {
            case "mem-per-cpu" -> Math.max(1, job.cpus() / nodes);
            case "mem-per-gpu" -> gpusPerNode;
            default -> 1;
        };
        String was = limit.map(l -> " (was " + l + ")").orElse("");
        Optional<Partition> part = cx.partition(s);
        if (part.isPresent() && part.get().memoryPerNode() != null
                && rounded * multiplier > part.get().memoryPerNode().bytes()) {
            DataSize node = part.get().memoryPerNode();
            long capped = roundDown(node.bytes() / multiplier);
            long perNode = rounded * multiplier;
            boolean gpus = cx.usesGpus(s);
            String bigger = cx.search().besides(part.get().name()).holding(new DataSize(perNode)).withGpus(gpus)
                    .best(PartitionSearch.Rank.LEAST_MEMORY)
                    .map(p -> p.name() + " (" + p.memoryPerNode() + " per node)").orElse(null);
            step = step.advise("The job needs about " + new DataSize(rounded * multiplier) + " per node, more than the "
                    + node + " of a " + part.get().name() + " node"
                    + (bigger == null ? "" : ": use a partition with bigger nodes, e.g. " + bigger)
                    + ", or " + spread(scriptTasksPerNode.orElse(0), nodes, perNode, node.bytes()) + ".");
            if (limit.isPresent() && capped <= limit.get().bytes()) {
                return step;
            }
            return step.change(s.withOption(opt, size(capped)), "--" + opt + "=" + size(capped) + was,
                    why + "; capped at what a " + part.get().name() + " node has (" + node + ")");
        }
        return step.change(s.withOption(opt, size(rounded)), "--" + opt + "=" + size(rounded) + was, why);
    }

    /**
     * Advice without a change when the limit the deciding evidence names is not the job's {@code --mem}: an allocation
     * the program's own error names that is larger than a node of the partition (2021's numpy array of 1.16 TiB: no
     * {@code --mem} holds it), the JVM's own heap filled while the job's peak stayed below its limit (2020's
     * {@code -Xmx8g} under {@code --mem=64G}), or a workflow's task, a job of its own, killed while the head job stayed
     * below its limit (2019's Nextflow head). Each was patched to more {@code --mem} (an outside audit).
     */
    private static Optional<Step> notTheJobsLimit(FixContext cx, BatchScript s, Step step) {
        List<String> lines = cx.evidenceLines() == null ? List.of() : cx.evidenceLines();
        java.util.OptionalLong asked = io.slurmwise.classify.OwnMemoryError.requested(lines);
        Optional<Partition> part = cx.partition(s).filter(p -> p.memoryPerNode() != null);
        if (asked.isPresent() && part.isPresent() && asked.getAsLong() > part.get().memoryPerNode().bytes()) {
            return Optional.of(step.advise("The program asked for "
                    + io.slurmwise.classify.OwnMemoryError.describe(asked.getAsLong()) + " in one allocation, more than"
                    + " the " + part.get().memoryPerNode() + " of a " + part.get().name() + " node: no `--mem` can hold"
                    + " it. Process the data in chunks (`numpy.memmap`, `dask.array`), or use a smaller dtype."));
        }
        if (!MemoryAdvice.peakBelowLimit(cx.job())) {
            return Optional.empty();
        }
        if (io.slurmwise.classify.OwnMemoryError.javaHeap(lines)) {
            return Optional.of(step.advise("The JVM's own heap (`-Xmx`) was full while the job's peak (" + cx.job().maxRss()
                    + ") stayed below its memory limit: raise `-Xmx` within `--mem`, not `--mem`."));
        }
        if (io.slurmwise.classify.WorkflowTask.in(lines)) {
            return Optional.of(step.advise("The killed process was a workflow's task, a job of its own with a grid"
                    + " executor, while this job's peak (" + cx.job().maxRss() + ") stayed below its limit: set the"
                    + " task's memory in the workflow (Nextflow's `memory` directive, Cromwell's `memory` runtime"
                    + " attribute), not this job's `--mem`."));
        }
        return Optional.empty();
    }

    /**
     * How to spread the work so that each node holds its share: the tasks one node's memory takes at the job's need
     * per task, and the nodes that keep every task, when the script says how many tasks a node runs; else the words.
     *
     * @param tasksPerNode the script's tasks per node ({@code --ntasks-per-node}, or {@code --ntasks} over the nodes),
     *                     0 when it does not say
     */
    static String spread(int tasksPerNode, int nodes, long perNodeNeed, long nodeBytes) {
        if (tasksPerNode <= 1) {
            return "spread the work over more nodes";
        }
        long perTask = (perNodeNeed + tasksPerNode - 1) / tasksPerNode;
        int fit = (int) Math.max(1, Math.min(tasksPerNode - 1, nodeBytes / Math.max(1, perTask)));
        long tasks = (long) tasksPerNode * nodes;
        long more = (tasks + fit - 1) / fit;
        return "spread the " + tasks + " tasks (about " + new DataSize(perTask) + " each) over more nodes: `#SBATCH"
                + " --ntasks-per-node=" + fit + "` (was " + tasksPerNode + ") with `#SBATCH --nodes=" + more + "` (was "
                + nodes + ")";
    }

    static long roundDown(long bytes) {
        return MemoryAdvice.roundDown(bytes);
    }

    /** As sbatch takes it: {@code 48G}, or {@code 768M} when not a whole number of G. */
    static String size(long bytes) {
        return MemoryAdvice.sbatchSize(new DataSize(bytes));
    }
}
