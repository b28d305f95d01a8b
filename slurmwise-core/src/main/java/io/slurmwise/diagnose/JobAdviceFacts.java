package io.slurmwise.diagnose;

import io.slurmwise.job.DataSize;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.Partition;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.job.TimeLimit;
import io.slurmwise.patch.MemoryAdvice;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The facts of one job and its cluster that advice is fitted to: its partition and that partition's limits, the
 * partitions that allow longer, its GPU model and the partitions that have it, its measured peak memory and the memory
 * to ask for after an OOM kill (by {@link MemoryAdvice}, the memory patch's own rule). Taken from
 * the job's accounting record and the backend's partition list (the same one the time fix is capped by).
 *
 * @param job        the job (never null)
 * @param partitions the cluster's partitions; empty when the backend could not say
 */
public record JobAdviceFacts(JobRecord job, List<Partition> partitions) {

    public JobAdviceFacts {
        partitions = partitions == null ? List.of() : List.copyOf(partitions);
    }

    /** The job's partition (its first when it asked for several), when the cluster lists it. */
    public Optional<Partition> partition() {
        if (job.partition() == null) {
            return Optional.empty();
        }
        String first = job.partition().split(",")[0];
        return partitions.stream().filter(p -> p.name().equals(first)).findFirst();
    }

    /** The partition's MaxTime when it has one. */
    public Optional<Duration> maxTime() {
        return partition().flatMap(p -> p.maxTime().kind() == TimeLimit.Kind.LIMITED ? p.maxTime().limit()
                : Optional.empty());
    }

    /** The job's own time limit when it is a duration. */
    public Optional<Duration> timeLimit() {
        return job.timeLimit().limit();
    }

    /** The GPU model the job ran on ({@code a100}), from its allocation. */
    public Optional<String> gpuModel() {
        return job.allocTres().gpuModel().map(m -> m.toLowerCase(Locale.ROOT));
    }

    /** Whether the job used or asked for GPUs, as far as its record says. */
    public boolean usesGpus() {
        return job.gpus() > 0 || partition().map(p -> p.gres().contains("gpu")).orElse(false);
    }

    /** The partitions (up, not the job's) whose MaxTime is longer than the job's partition's, shortest first. */
    public List<Partition> longerPartitions() {
        Optional<Duration> max = maxTime();
        if (max.isEmpty()) {
            return List.of();
        }
        boolean gpus = usesGpus();
        return partitions.stream()
                .filter(p -> p.up() && !p.name().equals(partition().map(Partition::name).orElse(null)))
                .filter(p -> p.maxTime().kind() == TimeLimit.Kind.UNLIMITED
                        || p.maxTime().limit().map(m -> m.compareTo(max.get()) > 0).orElse(false))
                .filter(p -> !gpus || p.gres().contains("gpu"))
                .sorted(Comparator.comparing((Partition p) -> p.maxTime().limit().orElse(Duration.ofDays(36500))))
                .toList();
    }

    /** Whether a partition's nodes have the GPU model. */
    public static boolean hasGpu(Partition p, String model) {
        return (":" + p.gres().toLowerCase(Locale.ROOT) + ":").contains(":" + model + ":");
    }

    /** The value of a placeholder, when the job and cluster know it (names in knowledge/README.md). */
    public Optional<String> value(String name) {
        return switch (name) {
            case "job_id" -> Optional.of(job.id().toString());
            case "partition" -> Optional.ofNullable(job.partition()).map(p -> p.split(",")[0]);
            case "max_time" -> partition().map(p -> p.maxTime().kind() == TimeLimit.Kind.LIMITED
                    ? SlurmTime.format(p.maxTime().limit().orElseThrow()) : p.maxTime().toString());
            case "longer_partitions" -> partition().map(p -> {
                List<Partition> longer = longerPartitions();
                return longer.isEmpty() ? "none on this cluster" + (usesGpus() ? " with GPUs" : "")
                        : String.join(", ", longer.stream().map(JobAdviceFacts::describe).toList());
            });
            case "gpu_model" -> gpuModel();
            case "gpus_per_node" -> job.gpus() > 0 ? Optional.of(Integer.toString(Math.max(1, job.gpus() / job.nodes())))
                    : Optional.empty();
            case "gpu_partitions" -> gpuModel().map(m -> partitionsWhere(p -> hasGpu(p, m)));
            case "other_gpu_partitions" -> gpuModel().map(m -> partitionsWhere(p -> p.gres().contains("gpu")
                    && !hasGpu(p, m)));
            case "peak_mem" -> Optional.ofNullable(job.maxRss()).map(DataSize::toString);
            case "mem_limit" -> job.memoryLimitText();
            case "suggested_mem" -> MemoryAdvice.perNode(job).map(MemoryAdvice::sbatchSize);
            case "suggested_mem_per_cpu" -> MemoryAdvice.perCpu(job).map(MemoryAdvice::sbatchSize);
            case "node_mem" -> partition().map(Partition::memoryPerNode).map(DataSize::toString);
            case "work_dir" -> Optional.ofNullable(job.workDir());
            default -> Optional.empty();
        };
    }

    private String partitionsWhere(java.util.function.Predicate<Partition> p) {
        List<String> names = partitions.stream().filter(Partition::up).filter(p).map(JobAdviceFacts::describe).toList();
        return names.isEmpty() ? "none on this cluster" : String.join(", ", names);
    }

    private static String describe(Partition p) {
        return p.name() + " (MaxTime " + (p.maxTime().kind() == TimeLimit.Kind.LIMITED
                ? SlurmTime.format(p.maxTime().limit().orElseThrow()) : p.maxTime().toString())
                + (p.gres().isBlank() ? "" : ", " + p.gres()) + ")";
    }
}
