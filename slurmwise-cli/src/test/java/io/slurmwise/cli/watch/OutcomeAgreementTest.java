package io.slurmwise.cli.watch;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.cli.render.Style;
import io.slurmwise.diagnose.Diagnosis;
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
                // watch: asks accounting for it, and reports it, exactly when the outcome says to diagnose it
                assertThat(WatchCommand.WATCHED.contains(state)).as(as).isEqualTo(o.diagnose());
                // jobs: the table colours it red only when it failed (KIND is given for failed jobs only)
                assertThat(colour.state(o, state.name()).contains("\u001b[31m")).as(as).isEqualTo(o == Outcome.FAILED);
                // diagnose: explains exactly the jobs the outcome says to diagnose; the rest get their status
                Diagnosis d = sw.diagnose(j, false);
                assertThat(d.<String>fold(nf -> "not found", so -> "status", f -> "explained")).as(as)
                        .isEqualTo(o.diagnose() ? "explained" : "status");
            }
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
