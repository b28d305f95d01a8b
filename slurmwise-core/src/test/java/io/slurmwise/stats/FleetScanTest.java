package io.slurmwise.stats;

import io.slurmwise.backend.JobLookup;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.classify.Classifier;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.Partition;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static io.slurmwise.stats.Jobs.T0;
import static org.assertj.core.api.Assertions.assertThat;

class FleetScanTest {

    static final Classifier CLASSIFIER = new Classifier(Taxonomy.load(null));

    /** Answers like sacct -S/-E: every job that overlaps the window; counts the queries and log reads. */
    static final class OverlapBackend implements SlurmBackend {
        final List<JobRecord> jobs;
        final List<JobQuery> queries = new ArrayList<>();
        int logReads;

        OverlapBackend(List<JobRecord> jobs) {
            this.jobs = jobs;
        }

        @Override
        public String name() {
            return "test";
        }

        @Override
        public JobLookup lookup(JobId id) {
            return new JobLookup.Missing(id);
        }

        @Override
        public Stream<JobRecord> jobs(JobQuery q) {
            queries.add(q);
            return jobs.stream().filter(j -> {
                LocalDateTime first = j.submit() != null ? j.submit() : j.start();
                return (first == null || !first.isAfter(q.until())) && (j.end() == null || !j.end().isBefore(q.since()));
            });
        }

        @Override
        public LogTail logTail(JobRecord job, LogStream stream, int maxLines) {
            logReads++;
            return LogTail.of(stream, "x", stream == LogStream.STDERR
                    ? "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n" : "step 1\n");
        }

        @Override
        public Optional<String> batchScript(JobRecord job) {
            return Optional.empty();
        }

        @Override
        public List<Partition> partitions() {
            return List.of();
        }
    }

    @Test
    void slicesCoverTheWindowBackToBack() {
        List<FleetScan.Slice> s = FleetScan.slices(T0, T0.plusDays(30), Duration.ofDays(7));
        assertThat(s).hasSize(5);
        assertThat(s.get(0).start()).isEqualTo(T0);
        for (int i = 1; i < s.size(); i++) {
            assertThat(s.get(i).start()).isEqualTo(s.get(i - 1).end());
        }
        assertThat(s.get(4).end()).isEqualTo(T0.plusDays(30));
        assertThat(s.get(4).isLast()).isTrue();
        assertThat(FleetScan.slices(T0, T0, Duration.ofDays(7))).hasSize(1);
        assertThat(FleetScan.slices(null, T0, Duration.ofDays(7))).hasSize(1);
    }

    @Test
    void anAllTimeWindowIsRefusedBeforeItBecomesAHundredThousandQueries() {
        // twenty years of weeks is a long history, and fine
        assertThat(FleetScan.slices(T0.minusYears(20), T0, Duration.ofDays(7))).hasSize(1044);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> FleetScan.slices(LocalDateTime.of(1, 1, 1, 0, 0), T0, Duration.ofDays(7)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0001-01-01 .. 2026-11-01 is 105").hasMessageContaining("weeks")
                .hasMessageContaining("start the window later").hasMessageContaining("--input");
    }

    @Test
    void aScanWhoseCallerGaveUpStopsAtTheNextSlice() {
        OverlapBackend b = new OverlapBackend(List.of(Jobs.cpuJob("1", "FAILED", 1, 24)));
        JobQuery q = new JobQuery(T0.minusDays(60), T0.plusDays(1), null, null, true, null);
        Thread.currentThread().interrupt();
        try {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> FleetScan.builder(b, CLASSIFIER).build().run(q))
                    .isInstanceOf(java.util.concurrent.CancellationException.class)
                    .hasMessageContaining("cancelled or timed out");
        } finally {
            Thread.interrupted();
        }
    }

    /**
     * A window that ends while a job runs sees it running, not as it ended later (an outside audit: a one-hour window
     * of bob's counted his 16-core job, timed out the next day, as failed with all its 768 CPU-hours).
     */
    @Test
    void aJobThatEndedAfterTheWindowWasRunningAtItsEnd() {
        List<JobRecord> jobs = List.of(
                // ran from hour 1 to hour 49, timed out: the window [10, 11) holds its 11th hour only
                Jobs.job("1", "TIMEOUT", "cpu", "bob", 16, 0, null, 48, 49).build(),
                // submitted before the window's end, started after it
                Jobs.cpuJob("2", "FAILED", 1, 30),
                // ended inside the window
                Jobs.cpuJob("3", "FAILED", 2, 10.5));
        JobQuery hour = JobQuery.window(T0.plusHours(10), T0.plusHours(11));
        FleetReport r = FleetScan.builder(new OverlapBackend(jobs), CLASSIFIER).build().run(hour).report();
        assertThat(r.total().jobs()).isEqualTo(2);
        assertThat(r.total().running()).isEqualTo(1);
        assertThat(r.total().failed()).isEqualTo(1);
        assertThat(r.total().wastedCpuHours()).isEqualTo(16.0); // job 3's 2 hours on 8 CPUs; job 1's none yet
        // the window that holds its end counts it as it ended, with all its hours
        FleetReport day2 = FleetScan.builder(new OverlapBackend(jobs), CLASSIFIER).build()
                .run(JobQuery.window(T0.plusHours(24), T0.plusHours(50))).report();
        assertThat(day2.total().failed()).isEqualTo(2);
        assertThat(day2.total().wastedCpuHours()).isEqualTo(16 * 48 + 8);
        // as the query sees it, directly
        JobRecord at = hour.atWindowEnd(jobs.get(0));
        assertThat(at.state()).isEqualTo(io.slurmwise.job.JobState.RUNNING);
        assertThat(at.end()).isNull();
        assertThat(at.elapsed()).isEqualTo(Duration.ofHours(10));
        assertThat(JobQuery.window(T0.plusHours(1), T0.plusHours(2)).atWindowEnd(jobs.get(1)).state())
                .isEqualTo(io.slurmwise.job.JobState.PENDING);
        assertThat(JobQuery.window(T0, null).atWindowEnd(jobs.get(0))).isSameAs(jobs.get(0));
        // running now, but started after the window's end: the window saw it pending (an outside audit counted it
        // running in a window it never ran in)
        JobRecord runningNow = Jobs.job("9", "RUNNING", "cpu", "ann", 4, 0, null, 1, 13).end(null).build();
        assertThat(hour.atWindowEnd(runningNow).state()).isEqualTo(io.slurmwise.job.JobState.PENDING);
        assertThat(hour.atWindowEnd(runningNow).elapsed()).isZero();
        assertThat(JobQuery.window(T0, T0.plusHours(12).plusMinutes(30)).atWindowEnd(runningNow).state())
                .isEqualTo(io.slurmwise.job.JobState.RUNNING);
    }

    @Test
    void aJobThatSpansSlicesIsCountedOnceWhateverTheSliceLength() {
        List<JobRecord> jobs = new ArrayList<>();
        // ran 9 days, across several weekly and daily slices
        jobs.add(Jobs.job("1", "TIMEOUT", "long", "ann", 32, 0, null, 9 * 24, 10 * 24).build());
        jobs.add(Jobs.cpuJob("2", "COMPLETED", 1, 5 * 24));
        jobs.add(Jobs.job("3", "RUNNING", "cpu", "ann", 4, 0, null, 50, 29 * 24).end(null).build());
        // ended exactly at the end of the window: belongs to the last slice
        jobs.add(Jobs.cpuJob("4", "FAILED", 1, 30 * 24));
        // ended before the window: sacct does not return it
        jobs.add(Jobs.cpuJob("5", "FAILED", 1, -2));
        JobQuery q = JobQuery.window(T0, T0.plusDays(30));
        FleetReport reference = null;
        for (Duration d : new Duration[] {Duration.ofHours(5), Duration.ofDays(1), Duration.ofDays(7), Duration.ofDays(31)}) {
            OverlapBackend b = new OverlapBackend(jobs);
            FleetReport r = FleetScan.builder(b, CLASSIFIER).sliceLength(d).build().run(q).report();
            assertThat(r.total().jobs()).as("slices of %s", d).isEqualTo(4);
            assertThat(r.total().failed()).isEqualTo(2);
            assertThat(r.total().running()).isEqualTo(1);
            assertThat(b.queries).hasSize(FleetScan.slices(q.since(), q.until(), d).size());
            if (reference == null) {
                reference = r;
            }
            assertThat(r).isEqualTo(reference);
        }
        assertThat(reference.since()).isEqualTo(T0);
        assertThat(reference.until()).isEqualTo(T0.plusDays(30));
    }

    @Test
    void aRequeuedJobWhoseRunsEndInDifferentSlicesCountsOnceAsInOnePass() {
        // the outside audit's fixture: a run ends by NODE_FAIL late on day 6, the requeued run completes on day 7;
        // sacct -D returns both runs for the first week (the later run was queued in it), the later alone after
        LocalDateTime submit = T0.plusDays(6).plusHours(10);
        JobRecord lost = Jobs.job("777001", "NODE_FAIL", "gpu", "ann", 96, 8, "h100", 12, 6 * 24 + 22).submit(submit).build();
        JobRecord done = Jobs.job("777001", "COMPLETED", "gpu", "ann", 96, 8, "h100", 6, 7 * 24 + 4).submit(submit).build();
        // an array task requeued across the boundary too, and a job of its own around them
        JobRecord task1 = Jobs.job("900_3", "PREEMPTED", "cpu", "bob", 8, 0, null, 2, 6 * 24 + 23).submit(submit).build();
        JobRecord task2 = Jobs.job("900_3", "FAILED", "cpu", "bob", 8, 0, null, 1, 7 * 24 + 2).submit(submit).build();
        List<JobRecord> jobs = List.of(Jobs.cpuJob("1", "COMPLETED", 1, 24), lost, done, task1, task2,
                Jobs.cpuJob("2", "FAILED", 1, 8 * 24));
        JobQuery q = JobQuery.window(T0, T0.plusDays(14));
        FleetReport onePass = FleetScan.builder(new OverlapBackend(jobs), CLASSIFIER).sliceLength(Duration.ofDays(14))
                .build().run(q).report();
        assertThat(onePass.total().jobs()).isEqualTo(4);
        assertThat(onePass.total().completed()).isEqualTo(2);
        assertThat(onePass.total().failed()).isEqualTo(2);
        assertThat(onePass.total().interruptedGpuHours()).isEqualTo(96.0);
        for (Duration d : new Duration[] {Duration.ofHours(5), Duration.ofDays(1), Duration.ofDays(7)}) {
            FleetReport r = FleetScan.builder(new OverlapBackend(jobs), CLASSIFIER).sliceLength(d).build().run(q).report();
            assertThat(r).as("slices of %s", d).isEqualTo(onePass);
        }
    }

    @Test
    void failureKindsComeFromTheRecordAndFromLogTailsOnlyWhenAsked() {
        List<JobRecord> jobs = List.of(
                Jobs.job("1", "TIMEOUT", "gpu", "ann", 8, 1, "a100", 12, 20).build(),
                Jobs.job("2", "FAILED", "gpu", "ann", 8, 1, "a100", 1, 20).build(),
                Jobs.cpuJob("3", "COMPLETED", 1, 20));
        JobQuery q = JobQuery.window(T0, T0.plusDays(2));
        OverlapBackend noLogs = new OverlapBackend(jobs);
        FleetReport r = FleetScan.builder(noLogs, CLASSIFIER).build().run(q).report();
        assertThat(r.byKind()).extracting(FleetReport.Breakdown::key).containsExactlyInAnyOrder("time_limit", "unknown");
        assertThat(noLogs.logReads).isZero();
        OverlapBackend logs = new OverlapBackend(jobs);
        FleetReport withLogs = FleetScan.builder(logs, CLASSIFIER).readLogs(true).build().run(q).report();
        assertThat(withLogs.byKind()).extracting(FleetReport.Breakdown::key).contains("cuda_oom");
        assertThat(logs.logReads).as("two tails per failed job, none for the completed one").isEqualTo(4);
    }

    @Test
    void progressIsToldPerSlice() {
        List<String> seen = new ArrayList<>();
        OverlapBackend b = new OverlapBackend(List.of(Jobs.cpuJob("1", "FAILED", 1, 30)));
        FleetScan.builder(b, CLASSIFIER).sliceLength(Duration.ofDays(1)).progress(new FleetScan.Progress() {
            @Override
            public void sliceStarted(FleetScan.Slice s) {
                seen.add("start " + s.index() + "/" + s.count());
            }

            @Override
            public void sliceDone(FleetScan.Slice s, long jobs) {
                seen.add("done " + s.index() + " " + jobs);
            }
        }).build().run(JobQuery.window(T0, T0.plusDays(3)));
        assertThat(seen).containsExactly("start 0/3", "done 0 0", "start 1/3", "done 1 1", "start 2/3", "done 2 0");
    }
}
