package io.slurmwise.backend;

import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.JobStatus;
import org.junit.jupiter.api.Test;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class JobListingTest {

    private static JobRecord run(String id, JobState state, LocalDateTime start, LocalDateTime end) {
        return JobRecord.builder(JobId.parse(id)).status(JobStatus.of(state)).submit(LocalDateTime.of(2026, 10, 7, 9, 0))
                .start(start).end(end).build();
    }

    /**
     * A requeued job's runs share its id and submit time: newest first puts the latest run (or the one still queued)
     * first whatever order accounting gave them in (list_jobs with limit 3 and 4 named different runs as the newest;
     * an outside audit).
     */
    @Test
    void aRequeuedJobsRunsAreInOrderOfTheirOwnTimes() {
        LocalDateTime t = LocalDateTime.of(2026, 10, 7, 10, 0);
        JobRecord first = run("3001512", JobState.PREEMPTED, t, t.plusHours(2));
        JobRecord second = run("3001512", JobState.FAILED, t.plusHours(3), t.plusHours(5));
        JobRecord queued = run("3001512", JobState.PENDING, null, null);
        for (List<JobRecord> given : List.of(List.of(first, second, queued), List.of(queued, second, first),
                List.of(second, queued, first))) {
            List<JobRecord> sorted = new ArrayList<>(given);
            sorted.sort(JobListing.NEWEST_FIRST);
            assertThat(sorted).containsExactly(queued, second, first);
        }
    }

    /**
     * A COMPLETED job whose srun step ran out of memory is failed to every command: a filter for failures lists it,
     * under FAILED and under its step's state, having asked accounting (which selects by SLURM's state) for
     * COMPLETED too; other filters ask as given and a COMPLETED job without a failed step stays out.
     */
    @Test
    void aFilterForFailuresListsACompletedJobWhoseStepFailed() {
        LocalDateTime t = LocalDateTime.of(2026, 10, 7, 10, 0);
        JobRecord stepOom = JobRecord.builder(JobId.parse("1062")).status(JobStatus.of(JobState.COMPLETED))
                .submit(t).start(t).end(t.plusHours(1)).failedStep(new io.slurmwise.job.FailedStep("1062.0",
                        JobStatus.of(JobState.OUT_OF_MEMORY), new io.slurmwise.job.ExitCode(0, 125))).build();
        JobRecord fine = run("1063", JobState.COMPLETED, t, t.plusHours(1));
        JobRecord failed = run("1064", JobState.FAILED, t, t.plusHours(1));
        JobRecord late = run("1065", JobState.TIMEOUT, t, t.plusHours(1));
        List<java.util.Set<JobState>> asked = new ArrayList<>();
        SlurmBackend b = new SlurmBackend() {
            @Override public String name() { return "list"; }
            @Override public JobLookup lookup(JobId id) { throw new UnsupportedOperationException(); }
            @Override public java.util.stream.Stream<JobRecord> jobs(JobQuery q) {
                asked.add(q.states());
                return java.util.stream.Stream.of(stepOom, fine, failed, late).filter(q::covers);
            }
            @Override public LogTail logTail(JobRecord job, LogStream stream, int maxLines) { throw new UnsupportedOperationException(); }
            @Override public java.util.Optional<String> batchScript(JobRecord job) { return java.util.Optional.empty(); }
            @Override public List<io.slurmwise.job.Partition> partitions() { return List.of(); }
        };
        java.util.function.Function<java.util.Set<JobState>, List<String>> list = states -> JobListing.list(b,
                JobQuery.window(null, null).withStates(states), null, true, 100).jobs().stream()
                .map(j -> j.id().toString()).sorted().toList();
        assertThat(list.apply(java.util.Set.of(JobState.FAILED))).containsExactly("1062", "1064");
        assertThat(asked.get(0)).containsExactlyInAnyOrder(JobState.FAILED, JobState.COMPLETED);
        assertThat(list.apply(java.util.Set.of(JobState.OUT_OF_MEMORY))).containsExactly("1062");
        assertThat(list.apply(java.util.Set.of(JobState.TIMEOUT))).containsExactly("1065");
        // SLURM's own state still selects it: COMPLETED lists both completed jobs, and asks for nothing more
        assertThat(list.apply(java.util.Set.of(JobState.COMPLETED))).containsExactly("1062", "1063");
        assertThat(asked.get(asked.size() - 1)).containsExactly(JobState.COMPLETED);
        assertThat(list.apply(java.util.Set.of(JobState.PENDING, JobState.CANCELLED))).isEmpty();
        assertThat(asked.get(asked.size() - 1)).containsExactlyInAnyOrder(JobState.PENDING, JobState.CANCELLED);
        assertThat(list.apply(java.util.Set.of())).hasSize(4);
    }
}
