package io.slurmwise.cli.watch;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.cli.render.Style;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.FailedStep;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.JobStatus;
import io.slurmwise.job.Outcome;
import io.slurmwise.stats.FleetReport;
import io.slurmwise.stats.FleetStats;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Is this a failure?" is decided once ({@link Outcome}): every SLURM state, walked through stats, watch, jobs and
 * diagnose, means the same thing to each of them.
 */
class OutcomeAgreementTest {

    private static JobRecord job(JobState state) {
        LocalDateTime end = LocalDateTime.of(2026, 11, 2, 10, 0);
        return JobRecord.builder(JobId.parse("990001")).name("walk").user("alice").partition("cpu")
                .status(JobStatus.of(state)).submit(end.minusHours(2)).start(end.minusHours(1))
                .end(state.outcome().isEnded() ? end : null).elapsed(Duration.ofHours(1)).build();
    }

    /** The outcome stats counted the one job under. */
    private static Outcome counted(FleetReport.Breakdown t) {
        Map<Outcome, Long> counts = Map.of(Outcome.COMPLETED, t.completed(), Outcome.FAILED, t.failed(),
                Outcome.CANCELLED, t.cancelled(), Outcome.PREEMPTED, t.preempted(), Outcome.PENDING, t.pending(),
                Outcome.RUNNING, t.running(), Outcome.UNKNOWN, t.unknown());
        assertThat(counts.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(1);
        return counts.entrySet().stream().filter(e -> e.getValue() == 1).findFirst().orElseThrow().getKey();
    }

    @Test
    void everyStateMeansTheSameToStatsWatchJobsAndDiagnose() {
        Style colour = new Style(true, 100);
        try (Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).build()) {
            for (JobState state : JobState.values()) {
                Outcome o = Outcome.of(state);
                JobRecord j = job(state);
                String as = state + " (" + o.id() + ")";
                // stats: counted under its outcome; a failure rate is taken over the ended ones
                FleetStats stats = FleetStats.builder().build();
                stats.add(j, o == Outcome.FAILED ? "unknown" : null);
                FleetReport.Breakdown total = stats.report().total();
                assertThat(counted(total)).as(as).isEqualTo(o);
                assertThat(total.ended()).as(as).isEqualTo(o.isEnded() ? 1 : 0);
                // watch: asks accounting for it when the outcome says to diagnose it, and for COMPLETED, whose record
                // may carry a failed step (its outcome then says failed: see below)
                assertThat(WatchCommand.WATCHED.contains(state)).as(as)
                        .isEqualTo(o.diagnose() || state == JobState.COMPLETED);
                // jobs: the table colours it red only when it failed (KIND is given for failed jobs only)
                assertThat(colour.state(o, state.name()).contains("\u001b[31m")).as(as).isEqualTo(o == Outcome.FAILED);
                // diagnose: explains exactly the jobs the outcome says to diagnose; the rest get their status
                Diagnosis d = sw.diagnose(j, false);
                assertThat(d.<String>fold(nf -> "not found", so -> "status", f -> "explained")).as(as)
                        .isEqualTo(o.diagnose() ? "explained" : "status");
            }
        }
    }

    /**
     * A COMPLETED job whose srun step ran out of memory (the real lab's 198: COMPLETED 0:0, DerivedExitCode 0:125,
     * step 198.0 OUT_OF_MEMORY 0:125) is a failure to every command, as diagnose explained it while stats counted it
     * completed, watch never reported it and jobs gave it no kind. Without the failed step it stays a success.
     */
    @Test
    void aCompletedJobWithAFailedStepIsAFailureForEveryCommand() {
        JobRecord completed = job(JobState.COMPLETED).toBuilder().exitCode(ExitCode.parse("0:0")).allocCpus(4)
                .reqMem(io.slurmwise.job.MemoryRequest.tryParse("8G").orElseThrow())
                .maxRss(io.slurmwise.job.DataSize.tryParse("8388212K").orElseThrow())
                .build();
        JobRecord stepFailed = completed.toBuilder().failedStep(new FailedStep("990001.0",
                JobStatus.parse("OUT_OF_MEMORY"), ExitCode.parse("0:125"))).build();
        assertThat(completed.outcome()).isEqualTo(Outcome.COMPLETED);
        assertThat(stepFailed.outcome()).isEqualTo(Outcome.FAILED);
        assertThat(stepFailed.state()).isEqualTo(JobState.COMPLETED); // the record stays as SLURM wrote it
        // a failed job's own failed step changes nothing: its state already says how it ended
        JobRecord failed = job(JobState.FAILED).toBuilder().failedStep(stepFailed.failedStep()).build();
        assertThat(failed.failedStepOfCompleted()).isEmpty();
        assertThat(JobFacts.of(failed).state()).isEqualTo(JobState.FAILED);
        try (Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).build()) {
            // stats and jobs: classified from the step (the same facts diagnose reads), counted as a failure
            String kind = sw.fleetScan().build().failureKind(stepFailed);
            assertThat(kind).isEqualTo("oom");
            io.slurmwise.stats.FleetScan scan = sw.fleetScan().build();
            FleetStats stats = scan.newStats();
            scan.add(stats, stepFailed);
            scan.add(stats, completed.toBuilder().id(JobId.parse("990003")).build()); // another job: not a rerun
            FleetReport r = stats.report();
            assertThat(r.total().failed()).isEqualTo(1);
            assertThat(r.total().completed()).isEqualTo(1);
            assertThat(r.byKind()).extracting(FleetReport.Breakdown::key).containsExactly("oom");
            assertThat(r.topJobs()).singleElement().extracting(FleetReport.TopEntry::state)
                    .isEqualTo("OUT_OF_MEMORY (step 990001.0)");
            // watch: asked for (COMPLETED), then reported by its outcome
            assertThat(WatchCommand.WATCHED).contains(JobState.COMPLETED);
            assertThat(stepFailed.outcome().diagnose()).isTrue();
            assertThat(completed.outcome().diagnose()).isFalse();
            // jobs: red, as a failure
            assertThat(new Style(true, 100).state(stepFailed.outcome(), "COMPLETED")).contains("\u001b[31m");
            // diagnose: explained from the step
            Diagnosis d = sw.diagnose(stepFailed, false);
            assertThat(d).isInstanceOf(Diagnosis.Failed.class);
            assertThat(((Diagnosis.Failed) d).finding().kindId()).isEqualTo("oom");
            assertThat(sw.diagnose(completed, false)).isInstanceOf(Diagnosis.StatusOnly.class);
        }
    }

    @Test
    void theEdgesAreDecidedOnce() {
        // held after a site's special exit code: waiting to run again, not a failure (stats said pending, diagnose
        // explained it as a failure, watch ignored it)
        assertThat(Outcome.of(JobState.SPECIAL_EXIT)).isEqualTo(Outcome.PENDING);
        assertThat(Outcome.of(JobState.SPECIAL_EXIT).diagnose()).isFalse();
        // a revoked federation sibling is cancelled: watched and diagnosed as cancelled jobs are
        assertThat(Outcome.of(JobState.REVOKED)).isEqualTo(Outcome.CANCELLED);
        assertThat(Outcome.of(JobState.DEADLINE).diagnose()).isTrue();
        assertThat(Outcome.of(JobState.PREEMPTED).isInterrupted()).isTrue();
        assertThat(Outcome.of(JobState.UNKNOWN).diagnose()).isFalse();
    }

    @Test
    void anEarlierRunOfARequeuedJobIsInterruptedForEveryCommand() {
        // sacct -D keeps each run of a requeued job; an earlier one is a REQUEUED record with its start and end.
        // Stats once counted it as pending (its hours went nowhere) while its state alone said pending everywhere.
        LocalDateTime end = LocalDateTime.of(2026, 11, 2, 10, 0);
        JobRecord earlier = JobRecord.builder(JobId.parse("990002")).name("walk").user("alice").partition("cpu")
                .status(JobStatus.of(JobState.REQUEUED)).submit(end.minusHours(2)).start(end.minusHours(1))
                .end(end).allocCpus(4).build();
        JobRecord between = earlier.toBuilder().end(null).elapsed(null).build();
        assertThat(earlier.outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(between.outcome()).isEqualTo(Outcome.PENDING);
        // its Elapsed is taken from Start and End when sacct left it empty, for every command
        assertThat(earlier.elapsed()).isEqualTo(Duration.ofHours(1));
        FleetStats stats = FleetStats.builder().build();
        stats.add(earlier, null);
        stats.add(between, null);
        FleetReport.Breakdown total = stats.report().total();
        // the job counts once, as it is now (pending again); its earlier run's hours are interrupted time
        assertThat(total.jobs()).isEqualTo(1);
        assertThat(total.cancelled()).isZero();
        assertThat(total.pending()).isEqualTo(1);
        assertThat(total.interruptedCpuHours()).isEqualTo(4.0);
        // the earlier run alone (its later record elsewhere) is an interrupted job
        FleetStats alone = FleetStats.builder().build();
        alone.add(earlier, null);
        assertThat(alone.report().total().cancelled()).isEqualTo(1);
        try (Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).build()) {
            assertThat(sw.diagnose(earlier, false).<String>fold(nf -> "not found", so -> "status", f -> "explained"))
                    .isEqualTo("explained");
            assertThat(sw.diagnose(between, false).<String>fold(nf -> "not found", so -> "status", f -> "explained"))
                    .isEqualTo("status");
        }
    }
}
