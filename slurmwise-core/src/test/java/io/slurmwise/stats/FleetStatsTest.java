package io.slurmwise.stats;

import io.slurmwise.job.JobRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class FleetStatsTest {

    static final String[] STATES = {"COMPLETED", "COMPLETED", "COMPLETED", "FAILED", "TIMEOUT", "OUT_OF_MEMORY",
        "NODE_FAIL", "CANCELLED by 1001", "PREEMPTED", "PENDING", "RUNNING"};
    static final String[] PARTITIONS = {"cpu", "gpuA100x4", "gpuH100x8", "debug"};
    static final String[] KINDS = {"oom", "cuda_oom", "time_limit", "unknown"};

    /** A deterministic mix of jobs: plain and array tasks, every outcome, GPU and CPU partitions. */
    static List<JobRecord> mix(int n, long seed) {
        Random r = new Random(seed);
        List<JobRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String p = PARTITIONS[r.nextInt(PARTITIONS.length)];
            int gpus = p.startsWith("gpu") ? 1 + r.nextInt(4) : 0;
            String model = p.equals("gpuA100x4") ? "a100" : p.equals("gpuH100x8") ? "h100" : null;
            String id = r.nextInt(5) == 0 ? (500 + r.nextInt(40)) + "_" + r.nextInt(50) : String.valueOf(10_000 + i);
            JobRecord.Builder b = Jobs.job(id, STATES[r.nextInt(STATES.length)], p, "u" + r.nextInt(7),
                    1 + r.nextInt(64), gpus, model, r.nextDouble() * 30, r.nextDouble() * 24 * 40);
            if (r.nextBoolean()) {
                b.totalCpu(Duration.ofSeconds(r.nextInt(200_000)));
                b.maxRss(Jobs.gib(r.nextDouble() * 64));
            }
            if (r.nextInt(4) == 0) {
                b.consumedEnergyJoules((long) r.nextInt(50_000_000) + 1);
            }
            out.add(b.build());
        }
        return out;
    }

    static FleetStats aggregate(List<JobRecord> jobs, int top) {
        FleetStats s = FleetStats.builder().topJobs(top).build();
        for (JobRecord j : jobs) {
            s.add(j, KINDS[Math.floorMod(j.id().toString().hashCode(), KINDS.length)]);
        }
        return s;
    }

    @Test
    void mergingSlicesInAnyOrderGivesExactlyTheSinglePassReport() {
        List<JobRecord> jobs = mix(5_000, 42);
        FleetReport single = aggregate(jobs, 15).report();
        for (long seed = 1; seed <= 5; seed++) {
            List<JobRecord> shuffled = new ArrayList<>(jobs);
            Collections.shuffle(shuffled, new Random(seed));
            int parts = 2 + (int) seed;
            List<FleetStats> pieces = new ArrayList<>();
            int per = shuffled.size() / parts + 1;
            for (int i = 0; i < shuffled.size(); i += per) {
                pieces.add(aggregate(shuffled.subList(i, Math.min(shuffled.size(), i + per)), 15));
            }
            Collections.shuffle(pieces, new Random(seed * 7));
            FleetStats merged = FleetStats.builder().topJobs(15).build();
            pieces.forEach(merged::merge);
            // records: every double is computed from the same whole-number counters, so equals is exact
            assertThat(merged.report()).isEqualTo(single);
        }
        assertThat(single.records()).isEqualTo(5_000);
        assertThat(single.topJobs()).hasSize(15);
    }

    /** The bytes another process would get: written, then merged into an empty aggregate built alike. */
    static FleetStats shipped(FleetStats s, int top) throws java.io.IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        s.writeTo(new java.io.DataOutputStream(bytes));
        return FleetStats.builder().topJobs(top).build()
                .mergeFrom(new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())));
    }

    @Test
    void slicesWrittenAsBytesAndMergedGiveExactlyTheSinglePassReport() throws java.io.IOException {
        List<JobRecord> jobs = mix(5_000, 7);
        FleetStats whole = aggregate(jobs, 12);
        whole.coverWindow(java.time.LocalDateTime.of(2026, 1, 1, 0, 0), java.time.LocalDateTime.of(2026, 3, 1, 12, 30));
        assertThat(shipped(whole, 12).report()).isEqualTo(whole.report());
        FleetStats merged = FleetStats.builder().topJobs(12).build();
        for (int i = 0; i < jobs.size(); i += 700) {
            merged.merge(shipped(aggregate(jobs.subList(i, Math.min(jobs.size(), i + 700)), 12), 12));
        }
        FleetStats single = aggregate(jobs, 12);
        assertThat(merged.report()).isEqualTo(single.report());
        assertThat(merged.report().topJobs()).anyMatch(FleetReport.TopEntry::array);
    }

    @Test
    void bytesOfOtherLimitsOrNotAnAggregateAreRefused() throws java.io.IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        aggregate(mix(50, 3), 5).writeTo(new java.io.DataOutputStream(bytes));
        assertThatThrownBy(() -> FleetStats.builder().topJobs(6).build().mergeFrom(
                new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limits");
        assertThatThrownBy(() -> FleetStats.builder().build().mergeFrom(
                new java.io.DataInputStream(new java.io.ByteArrayInputStream(new byte[16]))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("format");
    }

    @Test
    void cancelledAndPreemptedAreApartFromFailuresButInTheDenominator() {
        FleetStats s = FleetStats.builder().build();
        s.add(Jobs.cpuJob("1", "FAILED", 2, 3), "oom");
        s.add(Jobs.cpuJob("2", "COMPLETED", 2, 3), null);
        s.add(Jobs.cpuJob("3", "CANCELLED by 1001", 1, 3), null);
        s.add(Jobs.cpuJob("4", "PREEMPTED", 1, 3), null);
        s.add(Jobs.job("5", "PENDING", "cpu", "ann", 8, 0, null, 0, 3).end(null).build(), null);
        FleetReport.Breakdown t = s.report().total();
        assertThat(t.failureRate()).isEqualTo(0.25);
        assertThat(t.ended()).isEqualTo(4);
        assertThat(t.pending()).isEqualTo(1);
        assertThat(t.wastedCpuHours()).isEqualTo(16.0);
        assertThat(t.interruptedCpuHours()).isEqualTo(16.0);
        assertThat(t.usedCpuHours()).isEqualTo(48.0);
        assertThat(s.report().byKind()).extracting(FleetReport.Breakdown::key).containsExactly("oom");
    }

    @Test
    void measuredEnergyIsReportedApartAndNeverAddedToTheEstimate() {
        FleetStats s = FleetStats.builder().build();
        JobRecord measured = Jobs.job("1", "FAILED", "gpuA100x4", "ann", 16, 1, "a100", 1, 2)
                .consumedEnergyJoules(1_800_000L).build();
        JobRecord unmeasured = Jobs.job("2", "FAILED", "gpuA100x4", "ann", 16, 1, "a100", 1, 2).build();
        s.add(measured, "oom");
        s.add(unmeasured, "oom");
        FleetReport.Breakdown t = s.report().total();
        assertThat(t.wastedKwh()).isCloseTo(2 * 0.640, within(1e-12));
        assertThat(t.measuredWastedKwh()).isCloseTo(0.5, within(1e-12));
        assertThat(t.measuredWastedJobs()).isEqualTo(1);
        FleetStats none = FleetStats.builder().build();
        none.add(unmeasured, "oom");
        assertThat(none.report().total().measuredWastedKwh()).as("unknown, not zero").isNull();
    }

    @Test
    void anArrayJobIsOneTopEntryWithItsTaskCounts() {
        FleetStats s = FleetStats.builder().build();
        for (int task = 1; task <= 5; task++) {
            String state = task <= 3 ? "OUT_OF_MEMORY" : "COMPLETED";
            s.add(Jobs.job("4242_" + task, state, "cpu", "bob", 4, 0, null, 2, 10 + task).build(), "oom");
        }
        s.add(Jobs.cpuJob("77", "FAILED", 1, 5), "segfault");
        List<FleetReport.TopEntry> top = s.report().topJobs();
        assertThat(top).extracting(FleetReport.TopEntry::id).containsExactly("4242_[1-5]", "77");
        FleetReport.TopEntry array = top.get(0);
        assertThat(array.array()).isTrue();
        assertThat(array.taskCount()).isEqualTo(5);
        assertThat(array.tasks()).containsEntry("failed", 3L).containsEntry("completed", 2L);
        assertThat(array.kinds()).containsEntry("oom", 3L);
        assertThat(array.state()).isEqualTo("OUT_OF_MEMORY");
        assertThat(array.wastedCpuHours()).isEqualTo(24.0);
        assertThat(s.report().total().jobs()).isEqualTo(6);
    }

    @Test
    void aHeterogeneousJobIsOneJobWithEveryComponentsResources() throws java.io.IOException {
        // sacct prints one row per component (5000+0 on cpu, 5000+1 on gpu): one job, one top line, not two
        FleetStats s = FleetStats.builder().build();
        s.add(Jobs.job("5000+0", "CANCELLED", "cpu", "eve", 16, 0, null, 3, 10).build(), null);
        s.add(Jobs.job("5000+1", "FAILED", "gpu", "eve", 8, 4, "a100", 3, 10).build(), "nccl");
        s.add(Jobs.cpuJob("77", "FAILED", 1, 5), "segfault");
        FleetReport r = s.report();
        assertThat(r.records()).isEqualTo(3);
        assertThat(r.total().jobs()).isEqualTo(2);
        assertThat(r.total().failed()).as("the job failed: one component failed").isEqualTo(2);
        assertThat(r.total().cancelled()).isZero();
        // both components' hours are the failure's waste, each on its own partition
        assertThat(r.total().wastedCpuHours()).isEqualTo(3.0 * 24 + 8);
        assertThat(r.total().wastedGpuHours()).isEqualTo(12.0);
        // and the job is in each partition it has a component on: a partition's waste never stands beside "0 of 0
        // jobs failed" (an outside audit's "cpu - (0/0) 640.0 CPU-hours")
        assertThat(r.byPartition()).filteredOn(b -> b.key().equals("gpu")).singleElement()
                .satisfies(b -> assertThat(b.wastedGpuHours()).isEqualTo(12.0))
                .satisfies(b -> assertThat(b.jobs()).isEqualTo(1))
                .satisfies(b -> assertThat(b.failed()).isEqualTo(1));
        assertThat(r.byPartition()).filteredOn(b -> b.key().equals("cpu")).singleElement()
                .satisfies(b -> assertThat(b.jobs()).isEqualTo(2));
        assertThat(r.byUser()).filteredOn(b -> b.key().equals("eve")).singleElement()
                .satisfies(b -> assertThat(b.jobs()).as("once for its user").isEqualTo(1));
        assertThat(r.byKind()).filteredOn(b -> b.key().equals("nccl")).singleElement()
                .satisfies(b -> assertThat(b.failed()).isEqualTo(1));
        List<FleetReport.TopEntry> top = r.topJobs();
        assertThat(top).extracting(FleetReport.TopEntry::id).containsExactly("5000", "77");
        assertThat(top.get(0).kinds()).containsOnlyKeys("nccl");
        assertThat(top.get(0).state()).isEqualTo("FAILED");
        assertThat(top.get(0).wastedGpuHours()).isEqualTo(12.0);
        // merged from two slices, the same figures (a merge ends the gathering)
        FleetStats a = FleetStats.builder().build();
        a.add(Jobs.job("5000+0", "CANCELLED", "cpu", "eve", 16, 0, null, 3, 10).build(), null);
        a.add(Jobs.job("5000+1", "FAILED", "gpu", "eve", 8, 4, "a100", 3, 10).build(), "nccl");
        FleetStats b = FleetStats.builder().build();
        b.add(Jobs.cpuJob("77", "FAILED", 1, 5), "segfault");
        assertThat(a.merge(b).report().total()).isEqualTo(r.total());
        // a completed het job's efficiency holds every component's cores, the job once
        FleetStats done = FleetStats.builder().build();
        done.add(Jobs.job("6000+0", "COMPLETED", "gpu", "eve", 8, 1, "a100", 10, 10).totalCpu(Duration.ofHours(40)).build(), null);
        done.add(Jobs.job("6000+1", "COMPLETED", "cpu", "eve", 64, 0, null, 10, 10).totalCpu(Duration.ofHours(320)).build(), null);
        FleetReport.Efficiency e = done.report().efficiency();
        assertThat(e.completedJobs()).isEqualTo(1);
        assertThat(e.cpuJobs()).isEqualTo(1);
        assertThat(e.reservedCpuHours()).isEqualTo(720.0);
    }

    @Test
    void arraysWithOneIdOnTwoClustersStayTwoJobs() throws java.io.IOException {
        // sacct -M a,b: each cluster numbers its own jobs, so both may run an array 4242; they were one top line
        FleetStats s = FleetStats.builder().build();
        for (int task = 1; task <= 3; task++) {
            s.add(Jobs.job("4242_" + task, "FAILED", "cpu", "bob", 4, 0, null, 2, 10 + task).cluster("a").build(), "oom");
            s.add(Jobs.job("4242_" + task, "FAILED", "cpu", "eve", 2, 0, null, 1, 10 + task).cluster("b").build(), "oom");
        }
        s.add(Jobs.job("77", "FAILED", "cpu", "bob", 1, 0, null, 1, 5).cluster("a").build(), "segfault");
        List<FleetReport.TopEntry> top = s.report().topJobs();
        assertThat(top).extracting(FleetReport.TopEntry::label).containsExactly("a:4242_[1-3]", "b:4242_[1-3]", "a:77");
        assertThat(top.get(0).wastedCpuHours()).isEqualTo(24.0);
        assertThat(top.get(1).user()).isEqualTo("eve");
        assertThat(top.get(1).wastedCpuHours()).isEqualTo(6.0);
        // and so they stay through a worker's encoding (stats --input with several workers, Spark)
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        s.writeTo(new java.io.DataOutputStream(bytes));
        FleetStats copy = FleetStats.builder().build()
                .mergeFrom(new java.io.DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray())));
        assertThat(copy.report().topJobs()).isEqualTo(top);
        // one cluster: ids alone, as before
        FleetStats one = FleetStats.builder().build();
        one.add(Jobs.job("4242_1", "FAILED", "cpu", "bob", 4, 0, null, 2, 10).cluster("a").build(), "oom");
        assertThat(one.report().topJobs()).extracting(FleetReport.TopEntry::label).containsExactly("4242_[1]");
    }

    @Test
    void arrayEntriesAreBoundedAndTotalsStayExact() {
        List<JobRecord> jobs = new ArrayList<>();
        for (int a = 1; a <= 300; a++) {
            jobs.add(Jobs.job(a + "_1", "FAILED", "cpu", "bob", a, 0, null, 1, a).build());
        }
        FleetStats bounded = FleetStats.builder().arrayLimit(20).topJobs(5).build();
        FleetStats exact = FleetStats.builder().arrayLimit(1000).topJobs(5).build();
        jobs.forEach(j -> {
            bounded.add(j, "oom");
            exact.add(j, "oom");
        });
        assertThat(bounded.report().arraysTruncated()).isTrue();
        assertThat(exact.report().arraysTruncated()).isFalse();
        assertThat(bounded.report().total()).isEqualTo(exact.report().total());
        // the most wasteful arrays are the ones kept
        assertThat(bounded.report().topJobs()).isEqualTo(exact.report().topJobs());
        assertThat(bounded.report().topJobs().get(0).id()).isEqualTo("300_[1]");
    }

    @Test
    void efficiencyOfCompletedJobsIsTotalCpuOverElapsedTimesCpusAndMaxRssOverTheLimit() {
        FleetStats s = FleetStats.builder().build();
        // 8 CPUs x 1 h = 8 core-hours reserved, 4 used; 32G requested, 8G peak
        s.add(Jobs.cpuJob("1", "COMPLETED", 1, 2).toBuilder().totalCpu(Duration.ofHours(4)).maxRss(Jobs.gib(8)).build(), null);
        // 8 core-hours reserved, 1 used (low); 32G requested, 30G peak
        s.add(Jobs.cpuJob("2", "COMPLETED", 1, 2).toBuilder().totalCpu(Duration.ofHours(1)).maxRss(Jobs.gib(30)).build(), null);
        // failed jobs do not count toward efficiency
        s.add(Jobs.cpuJob("3", "FAILED", 1, 2).toBuilder().totalCpu(Duration.ZERO).build(), "oom");
        FleetReport.Efficiency e = s.report().efficiency();
        assertThat(e.completedJobs()).isEqualTo(2);
        assertThat(e.cpuEfficiency()).isCloseTo(5.0 / 16, within(1e-12));
        assertThat(e.unusedCpuHours()).isCloseTo(11.0, within(1e-9));
        assertThat(e.lowCpuJobs()).isEqualTo(1);
        assertThat(e.memoryEfficiency()).isCloseTo(38.0 / 64, within(1e-3));
        assertThat(e.unusedMemoryGbHours()).isCloseTo(26.0, within(1e-3));
        assertThat(e.lowMemoryJobs()).isZero();
    }

    @Test
    void memoryEfficiencyIsWeightedByRunTimeLikeTheUnusedGbHoursBesideIt() {
        FleetStats s = FleetStats.builder().build();
        // 32G for 1 h, all used; 32G for 100 h, 3.2G used: 3,200 of 3,232 GB-hours unused at peak
        s.add(Jobs.job("1", "COMPLETED", "cpu", "ann", 8, 0, null, 1, 1).maxRss(Jobs.gib(32)).build(), null);
        s.add(Jobs.job("2", "COMPLETED", "cpu", "ann", 8, 0, null, 100, 101).maxRss(Jobs.gib(3.2)).build(), null);
        FleetReport.Efficiency e = s.report().efficiency();
        assertThat(e.unusedMemoryGbHours()).isCloseTo(2880.0, within(0.5));
        assertThat(e.memoryEfficiency()).isCloseTo(1 - 2880.0 / 3232, within(1e-3));
        // a completed job that ran no time reserved nothing and is left out, as it is of the CPU figure
        s.add(Jobs.job("3", "COMPLETED", "cpu", "ann", 8, 0, null, 0, 102).maxRss(Jobs.gib(1)).build(), null);
        assertThat(s.report().efficiency().memoryJobs()).isEqualTo(2);
    }

    @Test
    void aPeakJustUnderAQuarterOfTheLimitIsLowInBytesNotRoundedToMib() {
        FleetStats s = FleetStats.builder().build();
        // 1,048,161 KiB of 4 GiB is 24.99%
        s.add(Jobs.job("1", "COMPLETED", "cpu", "ann", 1, 0, null, 1, 1)
                .maxRss(new io.slurmwise.job.DataSize(1_048_161L * 1024)).build(), null);
        assertThat(s.report().efficiency().lowMemoryJobs()).isEqualTo(1);
    }

    @Test
    void aRequeuedRunOfSacctDIsInterruptedTimeNotAJobStillWaiting() {
        FleetStats s = FleetStats.builder().build();
        // sacct -D: the run that was requeued (REQUEUED, with its start and end), then the run that completed
        s.add(Jobs.job("77", "REQUEUED", "gpu", "ann", 8, 2, "a100", 3, 3).build(), null);
        s.add(Jobs.job("77", "COMPLETED", "gpu", "ann", 8, 2, "a100", 5, 9).build(), null);
        // a job waiting in REQUEUED right now (no end yet) is still pending
        s.add(Jobs.job("78", "REQUEUED", "gpu", "ann", 8, 2, "a100", 0, 0).end(null).build(), null);
        FleetReport.Breakdown t = s.report().total();
        // the job counts once, as its last run ended; the requeued run's hours are interrupted time
        assertThat(t.jobs()).isEqualTo(2);
        assertThat(t.cancelled()).isZero();
        assertThat(t.completed()).isEqualTo(1);
        assertThat(t.interruptedGpuHours()).isCloseTo(6.0, within(1e-9));
        assertThat(t.pending()).isEqualTo(1);
        // a lone REQUEUED run (its later run in another export) is still an interrupted job
        FleetStats lone = FleetStats.builder().build();
        lone.add(Jobs.job("77", "REQUEUED", "gpu", "ann", 8, 2, "a100", 3, 3).build(), null);
        assertThat(lone.report().total().cancelled()).isEqualTo(1);
    }

    /**
     * A job that hit NODE_FAIL, was requeued and completed is one completed job, not a failed one and a completed one
     * (an outside audit counted three jobs for it under sacct -D); the failed run's hours are interrupted time.
     */
    @Test
    void aNodeFailedRunThatWasRequeuedIsNotAFailedJob() {
        FleetStats s = FleetStats.builder().topJobs(5).build();
        s.add(Jobs.job("90", "NODE_FAIL", "gpu", "ann", 8, 2, "a100", 4, 4).build(), "node_fail");
        s.add(Jobs.job("90", "COMPLETED", "gpu", "ann", 8, 2, "a100", 5, 10).build(), null);
        s.add(Jobs.job("91", "FAILED", "gpu", "bob", 8, 1, "a100", 2, 12).build(), "oom");
        FleetReport r = s.report();
        assertThat(r.total().jobs()).isEqualTo(2);
        assertThat(r.total().failed()).isEqualTo(1);
        assertThat(r.total().completed()).isEqualTo(1);
        assertThat(r.total().wastedGpuHours()).isCloseTo(2.0, within(1e-9));
        assertThat(r.total().interruptedGpuHours()).isCloseTo(8.0, within(1e-9));
        assertThat(r.byKind()).extracting(FleetReport.Breakdown::key).doesNotContain("node_fail");
        assertThat(r.byUser().stream().filter(b -> b.key().equals("ann")).findFirst().orElseThrow().failed()).isZero();
        assertThat(r.topJobs()).extracting(FleetReport.TopEntry::id).containsExactly("91");
        assertThat(r.byDay().stream().mapToLong(FleetReport.Breakdown::jobs).sum()).isEqualTo(2);
    }

    /**
     * An array task's runs under sacct -D are one task too (an outside audit: a task requeued after a node failure
     * counted as two tasks, one failed, in the totals and on its array's line).
     */
    @Test
    void aRequeuedArrayTaskIsOneTask() {
        FleetStats s = FleetStats.builder().topJobs(5).build();
        s.add(Jobs.job("300_1", "NODE_FAIL", "gpu", "ann", 8, 2, "a100", 4, 4).build(), "node_fail");
        s.add(Jobs.job("300_1", "COMPLETED", "gpu", "ann", 8, 2, "a100", 5, 10).build(), null);
        s.add(Jobs.job("300_2", "FAILED", "gpu", "ann", 8, 1, "a100", 2, 12).build(), "oom");
        FleetReport r = s.report();
        assertThat(r.total().jobs()).isEqualTo(2);
        assertThat(r.total().failed()).isEqualTo(1);
        assertThat(r.total().completed()).isEqualTo(1);
        assertThat(r.total().interruptedGpuHours()).isCloseTo(8.0, within(1e-9));
        assertThat(r.byKind()).extracting(FleetReport.Breakdown::key).containsExactly("oom");
        FleetReport.TopEntry array = r.topJobs().get(0);
        assertThat(array.id()).isEqualTo("300_[1-2]");
        assertThat(array.taskCount()).isEqualTo(2);
        assertThat(array.kinds()).containsOnlyKeys("oom");
        assertThat(array.wastedGpuHours()).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void anElapsedThatSacctCouldNotGiveIsTakenFromStartAndEnd() {
        FleetStats s = FleetStats.builder().build();
        s.add(Jobs.job("5", "FAILED", "cpu", "ann", 8, 0, null, 2, 2).elapsed(null).build(), "unknown");
        assertThat(s.report().total().wastedCpuHours()).isCloseTo(16.0, within(1e-9));
    }

    @Test
    void unknownResourcesCountAsNothingNotAsErrors() {
        FleetStats s = FleetStats.builder().build();
        JobRecord bare = JobRecord.builder(io.slurmwise.job.JobId.parse("9"))
                .status(io.slurmwise.job.JobStatus.parse("FAILED")).build();
        s.add(bare, null);
        FleetReport r = s.report();
        assertThat(r.total().failed()).isEqualTo(1);
        assertThat(r.total().wastedKwh()).isZero();
        assertThat(r.byPartition().get(0).key()).isEqualTo(FleetStats.UNKNOWN_KEY);
        assertThat(r.byKind().get(0).key()).isEqualTo("unknown");
        assertThat(r.byDay()).isEmpty();
        assertThat(r.efficiency().cpuEfficiency()).isNull();
    }

    @Test
    void statsOfDifferentEnergyModelsDoNotMerge() {
        FleetStats a = FleetStats.builder().build();
        FleetStats b = FleetStats.builder().energy(EnergyModel.builder().pue(1.2).build()).build();
        assertThatThrownBy(() -> a.merge(b)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("different energy models");
    }

    @Test
    void aPendingArraysRowCountsItsTasks() {
        FleetStats s = FleetStats.builder().topJobs(5).build();
        s.add(JobRecord.builder(io.slurmwise.job.JobId.parse("700_[3-500%10]")).partition("cpu").user("ann")
                .status(io.slurmwise.job.JobStatus.parse("PENDING")).submit(Jobs.T0).build(), null);
        s.add(Jobs.cpuJob("700_1", "COMPLETED", 1, 2), null);
        s.add(Jobs.cpuJob("700_2", "FAILED", 1, 2), "oom");
        FleetReport r = s.report();
        assertThat(r.total().pending()).isEqualTo(498);
        assertThat(r.total().jobs()).isEqualTo(500);
        assertThat(r.byPartition().get(0).pending()).isEqualTo(498);
        assertThat(r.total().failed()).isEqualTo(1);
    }

    /** The same array cancelled before its tasks started is one row of them all: its tasks count, as when pending. */
    @Test
    void anArrayCancelledBeforeItsTasksStartedCountsItsTasks() {
        FleetStats s = FleetStats.builder().topJobs(5).build();
        s.add(JobRecord.builder(io.slurmwise.job.JobId.parse("700_[3-500%10]")).partition("cpu").user("ann")
                .status(io.slurmwise.job.JobStatus.parse("CANCELLED by 1001")).submit(Jobs.T0).end(Jobs.T0.plusHours(1))
                .elapsed(java.time.Duration.ZERO).build(), null);
        s.add(Jobs.cpuJob("700_1", "COMPLETED", 1, 2), null);
        s.add(Jobs.cpuJob("700_2", "FAILED", 1, 2), "oom");
        FleetReport r = s.report();
        assertThat(r.total().cancelled()).isEqualTo(498);
        assertThat(r.total().jobs()).isEqualTo(500);
        assertThat(r.total().failed()).isEqualTo(1);
        assertThat(r.total().wastedCpuHours()).isEqualTo(8.0); // the cancelled tasks never ran
    }

    /** A pending array's 499 tasks cancelled before any started, a job past its deadline in the queue, and some that ran. */
    static FleetStats neverStartedMix() {
        FleetStats s = FleetStats.builder().topJobs(5).build();
        s.add(JobRecord.builder(io.slurmwise.job.JobId.parse("700_[1-499]")).partition("cpu").user("ann")
                .status(io.slurmwise.job.JobStatus.parse("CANCELLED by 1001")).submit(Jobs.T0.minusDays(3))
                .end(Jobs.T0.plusHours(30)).elapsed(Duration.ZERO).nodeList("None assigned").build(), null);
        s.add(JobRecord.builder(io.slurmwise.job.JobId.parse("805")).partition("cpu").user("ann")
                .status(io.slurmwise.job.JobStatus.parse("DEADLINE")).submit(Jobs.T0).end(Jobs.T0.plusHours(2))
                .elapsed(Duration.ZERO).build(), "unknown");
        s.add(Jobs.job("804", "FAILED", "cpu", "ann", 4, 0, null, 0, 5).build(), "unknown"); // started, failed at once
        s.add(Jobs.cpuJob("801", "TIMEOUT", 10, 20), "time_limit"); // started T0+10h
        s.add(Jobs.cpuJob("802", "COMPLETED", 1, 40), null); // ended T0+40h
        return s;
    }

    /**
     * Jobs cancelled or refused before they started are ended jobs, in the rate's denominator as before, and the report
     * says how many of them never started (an outside audit: 499 such tasks weighed on the rate unsaid).
     */
    @Test
    void endedJobsThatNeverStartedAreCountedAsEndedAndSaidApart() throws java.io.IOException {
        FleetReport r = neverStartedMix().report();
        assertThat(r.total().ended()).isEqualTo(503);
        assertThat(r.total().failed()).isEqualTo(3);
        assertThat(r.total().failureRate()).isEqualTo(3 / 503.0);
        assertThat(r.total().neverStarted()).isEqualTo(500);
        assertThat(r.total().failedNeverStarted()).isEqualTo(1);
        assertThat(r.byPartition()).singleElement().satisfies(b -> assertThat(b.neverStarted()).isEqualTo(500));
        // by kind: the kind's failed job that never started, once (kinds count jobs, not a range row's tasks)
        FleetReport.Breakdown unknown = r.byKind().stream().filter(b -> b.key().equals("unknown")).findFirst().orElseThrow();
        assertThat(unknown.failed()).isEqualTo(2);
        assertThat(unknown.failedNeverStarted()).isEqualTo(1);
        // the figures travel between processes exactly
        assertThat(shipped(neverStartedMix(), 5).report()).isEqualTo(r);
    }

    /** A failed job that held nothing cannot rank among the top jobs, and the report counts those it leaves out. */
    @Test
    void failedJobsWithoutHoursAreCountedNotRanked() throws java.io.IOException {
        FleetReport r = neverStartedMix().report();
        assertThat(r.failedWithoutHours()).isEqualTo(2); // 805 never started, 804 failed in no time
        assertThat(r.topJobs()).extracting(FleetReport.TopEntry::id).containsExactly("801");
        // a run that sacct -D keeps before the job's next is taken back here too: 804 failed at once, ran again, completed
        FleetStats s = FleetStats.builder().topJobs(5).build();
        s.add(Jobs.job("804", "FAILED", "cpu", "ann", 4, 0, null, 0, 5).build(), "unknown");
        assertThat(s.report().failedWithoutHours()).isEqualTo(1);
        s.add(Jobs.job("804", "COMPLETED", "cpu", "ann", 4, 0, null, 1, 7).build(), null);
        assertThat(s.report().failedWithoutHours()).isZero();
        assertThat(s.report().total().failed()).isZero();
    }

    /** The count of jobs without a CPU count travels between processes (writeTo dropped it: spark's reports said 0). */
    @Test
    void jobsWithoutACpuCountSurviveBeingWrittenAndMerged() throws java.io.IOException {
        FleetStats s = FleetStats.builder().topJobs(5).build();
        s.add(JobRecord.builder(io.slurmwise.job.JobId.parse("900")).partition("cpu").user("ann")
                .status(io.slurmwise.job.JobStatus.parse("COMPLETED")).start(Jobs.T0).end(Jobs.T0.plusHours(1))
                .elapsed(Duration.ofHours(1)).build(), null);
        assertThat(s.report().jobsWithoutCpus()).isEqualTo(1);
        assertThat(shipped(s, 5).report().jobsWithoutCpus()).isEqualTo(1);
    }

    /** An export read whole has no query window: the report spans its jobs, from the earliest end to the latest. */
    @Test
    void theDataSpanIsTheJobsEarliestStartAndLatestEnd() throws java.io.IOException {
        FleetReport r = neverStartedMix().report();
        assertThat(r.since()).isNull();
        // 805 never started: its end, T0+2h, the earliest end (804 ended T0+5h, 801 T0+20h); 802 ended last, T0+40h
        assertThat(r.dataFrom()).isEqualTo(Jobs.T0.plusHours(2));
        assertThat(r.dataUntil()).isEqualTo(Jobs.T0.plusHours(40));
        assertThat(r.coveredFrom()).isEqualTo(Jobs.T0.plusHours(2));
        assertThat(r.coveredUntil()).isEqualTo(Jobs.T0.plusHours(40));
        assertThat(shipped(neverStartedMix(), 5).report().dataFrom()).isEqualTo(Jobs.T0.plusHours(2));
        FleetStats windowed = neverStartedMix();
        windowed.coverWindow(Jobs.T0.plusHours(1), Jobs.T0.plusHours(48));
        assertThat(windowed.report().coveredFrom()).isEqualTo(Jobs.T0.plusHours(1)); // a query's window wins
    }

    /**
     * The days are the window's: a running job that started before it is on its first day, and the days without jobs
     * between the first and the last are rows too (a chart's mark per day).
     */
    @Test
    void byDayHasEveryDayOfTheWindowThatHoldsJobs() {
        FleetStats s = FleetStats.builder().build();
        s.coverWindow(Jobs.T0, Jobs.T0.plusDays(5));
        s.add(Jobs.cpuJob("1", "FAILED", 1, 24 + 2), "oom");
        s.add(Jobs.cpuJob("2", "COMPLETED", 1, 4 * 24 + 2), null);
        s.add(Jobs.job("3", "RUNNING", "cpu", "ann", 4, 0, null, 90, -70).end(null).build(), null);
        List<FleetReport.Breakdown> days = s.report().byDay();
        assertThat(days).extracting(FleetReport.Breakdown::key).containsExactly(
                Jobs.T0.toLocalDate().toString(), Jobs.T0.toLocalDate().plusDays(1).toString(),
                Jobs.T0.toLocalDate().plusDays(2).toString(), Jobs.T0.toLocalDate().plusDays(3).toString(),
                Jobs.T0.toLocalDate().plusDays(4).toString());
        assertThat(days.get(0).running()).isEqualTo(1);
        assertThat(days.get(1).failed()).isEqualTo(1);
        assertThat(days.get(2).jobs()).isZero();
        assertThat(days.stream().mapToLong(FleetReport.Breakdown::jobs).sum()).isEqualTo(s.report().total().jobs());
    }

    /**
     * An export read whole is named by the days its rows are: the span of its jobs' ends (running: start; pending:
     * submit), the moment a job is dated and counted by in a window, not its earliest start (an outside audit: the
     * header began with a job's start, ten days before the first day row, the day the first job ended). A job that
     * ran three days counts, with its hours, on the day it ended, as in a query's window of that day.
     */
    @Test
    void anExportReadWholeSpansTheDaysItsJobsAreDatedBy() throws java.io.IOException {
        FleetStats whole = FleetStats.builder().build();
        whole.add(Jobs.cpuJob("1", "FAILED", 3 * 24, 3 * 24 + 5), "oom"); // T0+5h to T0+3d+5h
        whole.add(Jobs.cpuJob("2", "COMPLETED", 1, 4 * 24 + 2), null); // ends T0+4d+2h
        whole.add(Jobs.job("3", "RUNNING", "cpu", "ann", 4, 0, null, 1, 2 * 24 + 21).end(null).build(), null); // started T0+2d+20h
        FleetReport r = whole.report();
        assertThat(r.coveredFrom()).isEqualTo(Jobs.T0.plusDays(2).plusHours(20)); // 3's start, not 1's
        assertThat(r.coveredUntil()).isEqualTo(Jobs.T0.plusDays(4).plusHours(2));
        assertThat(r.byDay()).extracting(FleetReport.Breakdown::key).containsExactly(
                Jobs.T0.toLocalDate().plusDays(2).toString(), Jobs.T0.toLocalDate().plusDays(3).toString(),
                Jobs.T0.toLocalDate().plusDays(4).toString());
        assertThat(r.byDay().get(0).key()).isEqualTo(r.coveredFrom().toLocalDate().toString());
        assertThat(r.byDay().get(r.byDay().size() - 1).key()).isEqualTo(r.coveredUntil().toLocalDate().toString());
        assertThat(r.byDay().get(1).failed()).isEqualTo(1);
        assertThat(r.byDay().get(1).wastedCpuHours()).isEqualTo(72 * 8.0);
        // merged from bytes, the same span
        FleetReport merged = shipped(whole, 10).report();
        assertThat(merged.dataFrom()).isEqualTo(r.dataFrom());
        assertThat(merged.byDay()).isEqualTo(r.byDay());
        // the span given as a window counts the same jobs with the same hours
        FleetStats windowed = FleetStats.builder().build();
        windowed.coverWindow(r.coveredFrom(), r.coveredUntil());
        for (JobRecord j : List.of(Jobs.cpuJob("1", "FAILED", 3 * 24, 3 * 24 + 5), Jobs.cpuJob("2", "COMPLETED", 1, 4 * 24 + 2),
                Jobs.job("3", "RUNNING", "cpu", "ann", 4, 0, null, 1, 2 * 24 + 21).end(null).build())) {
            if (io.slurmwise.backend.JobQuery.window(r.coveredFrom(), r.coveredUntil()).covers(j)) {
                windowed.add(j, j.id().toString().equals("1") ? "oom" : null);
            }
        }
        assertThat(windowed.report().total()).isEqualTo(r.total());
    }

    /**
     * A window that ends at midnight ends with the day before: {@code --until 2026-11-03} holds no moment of November
     * 3rd, so no day row is dated then (an outside audit: a 7-day window had 8 day rows).
     */
    @Test
    void aWindowEndingAtMidnightEndsWithTheDayBefore() {
        FleetStats s = FleetStats.builder().build();
        s.coverWindow(Jobs.T0, Jobs.T0.plusDays(2));
        s.add(Jobs.cpuJob("1", "FAILED", 1, 10), "oom");
        s.add(Jobs.job("2", "PENDING", "cpu", "ann", 4, 0, null, 0, 48).start(null).end(null)
                .submit(Jobs.T0.plusDays(2)).build(), null);
        assertThat(s.report().byDay()).extracting(FleetReport.Breakdown::key).containsExactly(
                Jobs.T0.toLocalDate().toString(), Jobs.T0.toLocalDate().plusDays(1).toString());
        assertThat(FleetStats.lastDay(Jobs.T0, Jobs.T0.plusDays(2))).isEqualTo(Jobs.T0.toLocalDate().plusDays(1));
        assertThat(FleetStats.lastDay(Jobs.T0, Jobs.T0.plusDays(2).plusHours(3))).isEqualTo(Jobs.T0.toLocalDate().plusDays(2));
        assertThat(FleetStats.lastDay(null, Jobs.T0)).isEqualTo(Jobs.T0.toLocalDate().minusDays(1));
    }

    /** Seven MIG slices of one A100 for 10 hours are 10 GPU-hours of one board, not 70 of seven. */
    @Test
    void aMigSliceCountsItsShareOfTheGpu() {
        assertThat(io.slurmwise.job.Tres.gpuShare("nvidia_a100_1g.5gb")).isEqualTo(1 / 7.0);
        assertThat(io.slurmwise.job.Tres.gpuShare("3g.40gb")).isEqualTo(3 / 7.0);
        assertThat(io.slurmwise.job.Tres.gpuShare("nvidia_h100_7g.80gb")).isEqualTo(1.0);
        assertThat(io.slurmwise.job.Tres.gpuShare("nvidia_h100_80gb_hbm3")).isEqualTo(1.0);
        assertThat(io.slurmwise.job.Tres.gpuShare("a100")).isEqualTo(1.0);
        FleetStats s = FleetStats.builder().build();
        JobRecord mig = Jobs.cpuJob("9", "FAILED", 10, 12).toBuilder()
                .allocTres(io.slurmwise.job.Tres.parse("cpu=8,mem=32G,node=1,gres/gpu=7,gres/gpu:nvidia_a100_1g.5gb=7"))
                .build();
        assertThat(mig.gpus()).isEqualTo(7);
        assertThat(mig.gpuEquivalents()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        s.add(mig, "oom");
        FleetReport r = s.report();
        assertThat(r.total().wastedGpuHours()).isCloseTo(10.0, org.assertj.core.data.Offset.offset(0.01));
        // 8 cores at 15 W and one A100's 400 W (seven sevenths), 10 hours: 5.2 kWh
        assertThat(r.total().wastedKwh()).isCloseTo(5.2, org.assertj.core.data.Offset.offset(0.01));
    }
}
