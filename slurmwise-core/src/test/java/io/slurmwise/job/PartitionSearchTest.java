package io.slurmwise.job;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The one search for "another partition that holds the request", on the mock cluster's sinfo. */
class PartitionSearchTest {

    private static final List<Partition> CLUSTER = SinfoParser.parse("""
            PARTITION|TIMELIMIT|NODES|CPUS|MEMORY|GRES|AVAIL
            cpu*|2-00:00:00|124|128|256000|(null)|up
            gpuA100x4|12:00:00|60|64|256000|gpu:a100:4|up
            gpuH100x8|2-00:00:00|12|96|2063000|gpu:h100:8|up
            long|7-00:00:00|28|128|256000|(null)|up
            largemem|infinite|4|128|2063000|(null)|up
            debug|30:00|4|128|256000|(null)|up
            old|7-00:00:00|4|128|4126000|(null)|down
            """);

    private static List<String> names(List<Partition> ps) {
        return ps.stream().map(Partition::name).toList();
    }

    @Test
    void aCpuJobNeedingTimeGetsCpuPartitionsFirstShortestMaxTimeFirst() {
        List<Partition> found = PartitionSearch.among(CLUSTER).besides("cpu").allowing(Duration.ofDays(3))
                .withGpus(false).ranked(PartitionSearch.Rank.SHORTEST_MAXTIME);
        // long (7 days) before largemem (no limit); the down partition never
        assertThat(names(found)).containsExactly("long", "largemem");
    }

    @Test
    void aGpuJobOnlyGetsGpuPartitions() {
        assertThat(names(PartitionSearch.among(CLUSTER).besides("gpuA100x4").allowing(Duration.ofHours(24))
                .withGpus(true).ranked(PartitionSearch.Rank.SHORTEST_MAXTIME))).containsExactly("gpuH100x8");
        assertThat(PartitionSearch.among(CLUSTER).besides("gpuH100x8").allowing(Duration.ofDays(3)).withGpus(true)
                .best(PartitionSearch.Rank.SHORTEST_MAXTIME)).isEmpty();
    }

    @Test
    void aMoveForMemoryTakesTheLeastMemoryThatHoldsItCpuPartitionsBeforeGpuOnes() {
        // gpuH100x8 and largemem both hold 1T; a CPU job goes to largemem
        assertThat(PartitionSearch.among(CLUSTER).besides("cpu").holding(DataSize.ofGibibytes(1024)).withGpus(false)
                .best(PartitionSearch.Rank.LEAST_MEMORY).map(Partition::name)).contains("largemem");
        // and a time the partition's MaxTime does not allow leaves it out
        assertThat(names(PartitionSearch.among(CLUSTER).besides("cpu").holding(DataSize.ofGibibytes(1024))
                .allowing(Duration.ofDays(3)).withGpus(false).ranked(PartitionSearch.Rank.LEAST_MEMORY)))
                .containsExactly("largemem");
    }

    @Test
    void aFurtherConditionNarrowsIt() {
        assertThat(names(PartitionSearch.among(CLUSTER).withGpus(true).where(p -> p.gpusPerNode() >= 8)
                .ranked(PartitionSearch.Rank.SHORTEST_MAXTIME))).containsExactly("gpuH100x8");
        assertThat(PartitionSearch.among(null).best(PartitionSearch.Rank.LEAST_MEMORY)).isEmpty();
    }

    @Test
    void aPartitionSaysItsGpusAndLimits() {
        Partition a100 = CLUSTER.get(1);
        assertThat(a100.gpusByType()).containsEntry("a100", 4).hasSize(1);
        assertThat(a100.gpusPerNode()).isEqualTo(4);
        assertThat(a100.hasGpuModel("A100")).isTrue();
        assertThat(a100.hasGpuModel("h100")).isFalse();
        assertThat(a100.allows(Duration.ofHours(12))).isTrue();
        assertThat(a100.allows(Duration.ofHours(13))).isFalse();
        assertThat(a100.describe()).isEqualTo("gpuA100x4 (MaxTime 12:00:00, gpu:a100:4)");
        assertThat(CLUSTER.get(4).maxTimeLimit()).isEmpty();
        assertThat(CLUSTER.get(4).allows(Duration.ofDays(400))).isTrue();
        assertThat(Partition.gpus("gpu")).containsEntry("", 1);
    }
}
