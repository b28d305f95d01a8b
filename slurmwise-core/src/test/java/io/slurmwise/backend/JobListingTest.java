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
}
