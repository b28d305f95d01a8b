package io.slurmwise.job;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The one search for another partition that holds a request: every patch and every piece of advice that names "a
 * partition that allows it" asks here, so they name the same ones. A partition qualifies when it is up, is not the
 * one the job is on, its MaxTime allows the time, its nodes hold the memory per node (and whatever {@link #where}
 * adds), and it has GPUs when the job uses them. For a CPU job the partitions without GPUs come first (GPU nodes are
 * for GPU work); then the ranking: the shortest MaxTime that is enough for a move for time, the least memory that is
 * enough for a move for memory.
 *
 * <pre>{@code
 * PartitionSearch.among(partitions).besides("gpuA100x4").allowing(Duration.ofHours(24)).withGpus(true)
 *         .best(PartitionSearch.Rank.SHORTEST_MAXTIME);   // Optional[gpuH100x8]
 * }</pre>
 */
public final class PartitionSearch {

    /** How qualifying partitions are ordered after the CPU-first rule. */
    public enum Rank {
        /** The shortest MaxTime first (UNLIMITED last): a move for time takes no more than it needs. */
        SHORTEST_MAXTIME,
        /** The least memory per node first: a move for memory takes no bigger nodes than it needs. */
        LEAST_MEMORY
    }

    private final List<Partition> all;
    private final String besides;
    private final Duration time;
    private final DataSize memory;
    private final boolean gpus;
    private final Predicate<Partition> also;

    private PartitionSearch(List<Partition> all, String besides, Duration time, DataSize memory, boolean gpus,
                            Predicate<Partition> also) {
        this.all = all;
        this.besides = besides;
        this.time = time;
        this.memory = memory;
        this.gpus = gpus;
        this.also = also;
    }

    /** A search over the cluster's partitions (null or empty: nothing qualifies). */
    public static PartitionSearch among(List<Partition> partitions) {
        return new PartitionSearch(partitions == null ? List.of() : partitions, null, null, null, false, p -> true);
    }

    /** Leaves out partition {@code name} (the job's own). */
    public PartitionSearch besides(String name) {
        return new PartitionSearch(all, name, time, memory, gpus, also);
    }

    /** Only partitions whose MaxTime allows {@code need} (none: no time condition). */
    public PartitionSearch allowing(Duration need) {
        return new PartitionSearch(all, besides, need, memory, gpus, also);
    }

    /** Only partitions whose nodes have at least {@code perNode} of memory (a partition that does not say is left out). */
    public PartitionSearch holding(DataSize perNode) {
        return new PartitionSearch(all, besides, time, perNode, gpus, also);
    }

    /** With {@code true}, only partitions with GPUs; with {@code false}, CPU partitions ranked first. */
    public PartitionSearch withGpus(boolean usesGpus) {
        return new PartitionSearch(all, besides, time, memory, usesGpus, also);
    }

    /** A further condition, for what only the caller knows (the GPUs per node the script asks for). */
    public PartitionSearch where(Predicate<Partition> condition) {
        return new PartitionSearch(all, besides, time, memory, gpus, also.and(condition));
    }

    /** The qualifying partitions, CPU ones first for a CPU job, then by {@code rank}. */
    public List<Partition> ranked(Rank rank) {
        Comparator<Partition> order = Comparator.comparing((Partition p) -> !gpus && p.hasGpus());
        order = rank == Rank.SHORTEST_MAXTIME
                ? order.thenComparing(p -> p.maxTimeLimit().orElse(Duration.ofDays(36500)))
                : order.thenComparingLong(p -> p.memoryPerNode() == null ? Long.MAX_VALUE : p.memoryPerNode().bytes());
        return all.stream()
                .filter(Partition::up)
                .filter(p -> besides == null || !p.name().equals(besides))
                .filter(p -> time == null || p.allows(time))
                .filter(p -> memory == null || (p.memoryPerNode() != null && p.memoryPerNode().bytes() >= memory.bytes()))
                .filter(p -> !gpus || p.hasGpus())
                .filter(also)
                .sorted(order)
                .toList();
    }

    /** The first of {@link #ranked}, when any qualifies. */
    public Optional<Partition> best(Rank rank) {
        return ranked(rank).stream().findFirst();
    }
}
