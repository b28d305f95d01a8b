package io.slurmwise.patch;

import io.slurmwise.job.DataSize;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.MemoryRequest;
import io.slurmwise.job.Partition;

import java.util.Comparator;
import java.util.Optional;

/**
 * {@code memory}: more memory from the measured peak, in the unit the script asks in (per node, per CPU or per
 * GPU), capped by what one node of the partition has.
 */
final class MemoryFixer implements Fixer {

    /** An OOM-killed job's peak is where it was stopped, not what it needed: ask for half again as much. */
    static final double MEMORY_HEADROOM = 1.5;

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        JobRecord job = cx.job();
        Step step = Step.none(s);
        String opt = s.has("mem-per-cpu") ? "mem-per-cpu" : s.has("mem-per-gpu") ? "mem-per-gpu" : s.has("mem") ? "mem"
                : job.reqMem() != null && job.reqMem().per() == MemoryRequest.Per.CPU ? "mem-per-cpu" : "mem";
        int nodes = Math.max(1, job.nodes());
        int cpusPerTask = ScriptEdits.intOption(s, "cpus-per-task").orElse(1);
        int tasksPerNode = ScriptEdits.intOption(s, "ntasks-per-node")
                .orElse(ScriptEdits.intOption(s, "ntasks").map(n -> Math.max(1, n / nodes)).orElse(1));
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
        long wanted;
        String why;
        if (limit.isEmpty()) {
            if (peak == null) {
                return step.advise("Neither the memory request nor the peak is known: set `#SBATCH --mem=` to about"
                        + " twice what the job used before, and check the peak with"
                        + " `sacct -j <jobid> -o JobID,MaxRSS,ReqMem`.");
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
        String was = limit.map(l -> " (was " + l + ")").orElse("");
        Optional<Partition> part = cx.partition(s);
        if (part.isPresent() && part.get().memoryPerNode() != null
                && rounded * multiplier > part.get().memoryPerNode().bytes()) {
            DataSize node = part.get().memoryPerNode();
            long capped = roundDown(node.bytes() / multiplier);
            long perNode = rounded * multiplier;
            boolean gpus = cx.usesGpus(s);
            String bigger = cx.partitions().stream()
                    .filter(p -> p.up() && p.memoryPerNode() != null && p.memoryPerNode().bytes() >= perNode)
                    .filter(p -> gpus == p.gres().contains("gpu"))
                    .sorted(Comparator.comparing(Partition::memoryPerNode))
                    .map(p -> p.name() + " (" + p.memoryPerNode() + " per node)").findFirst().orElse(null);
            step = step.advise("The job needs about " + new DataSize(rounded * multiplier) + " per node, more than the "
                    + node + " of a " + part.get().name() + " node"
                    + (bigger == null ? "" : ": use a partition with bigger nodes, e.g. " + bigger)
                    + ", or spread the work over more nodes.");
            if (limit.isPresent() && capped <= limit.get().bytes()) {
                return step;
            }
            return step.change(s.withOption(opt, size(capped)), "--" + opt + "=" + size(capped) + was,
                    why + "; capped at what a " + part.get().name() + " node has (" + node + ")");
        }
        return step.change(s.withOption(opt, size(rounded)), "--" + opt + "=" + size(rounded) + was, why);
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
}
