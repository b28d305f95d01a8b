package io.slurmwise.job;

/**
 * A partition and its limits, as sinfo reports them.
 *
 * @param maxTime    the partition's MaxTime ({@code UNLIMITED} when none)
 * @param cpusPerNode CPUs of its nodes (0 when unknown)
 * @param memoryPerNode memory of its nodes (null when unknown)
 * @param gres       generic resources of its nodes, e.g. {@code gpu:a100:4} ("" when none)
 */
public record Partition(String name, boolean isDefault, TimeLimit maxTime, int nodes, int cpusPerNode,
                        DataSize memoryPerNode, String gres, boolean up) {
}
