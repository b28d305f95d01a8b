package io.slurmwise.backend;

import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A task of a pending array has no record of its own: SLURM keeps one row for the tasks that have not started
 * ({@code 3000088_[50-99]}), and {@code sacct -j 3000088_50} lists nothing. The lookup finds that row among the
 * array's records, for every backend (an outside audit: get_job and diagnose said there was no record of 3000088_50).
 */
class JobLookupTest {

    private static JobRecord job(String id, String state) {
        return JobRecord.builder(JobId.parse(id)).name("sweep").user("alice").status(JobStatus.parse(state)).build();
    }

    private final List<JobRecord> array = List.of(job("3000088_48", "COMPLETED"), job("3000088_49", "FAILED"),
            job("3000088_[50-99,120]", "PENDING"));

    @Test
    void aTaskInAPendingRangeIsThatRow() {
        for (String task : List.of("3000088_50", "3000088_77", "3000088_99", "3000088_120", "3000088_50.batch")) {
            JobLookup l = JobLookup.of(JobId.parse(task), array, UnaryOperator.identity());
            assertThat(l).as(task).isInstanceOfSatisfying(JobLookup.Found.class, f -> {
                assertThat(f.job().id().toString()).isEqualTo("3000088_[50-99,120]");
                assertThat(JobLookup.pendingRangeNote(JobId.parse(task), f.job())).get().asString()
                        .startsWith("task " + JobId.parse(task).arrayTask() + " of array 3000088 has not started: it is"
                                + " pending as part of 3000088_[50-99,120]").contains("(51 tasks)");
            });
        }
    }

    @Test
    void aTaskOfItsOwnIsItselfAndAnotherTaskIsNot() {
        JobLookup own = JobLookup.of(JobId.parse("3000088_49"), array, UnaryOperator.identity());
        assertThat(own).isInstanceOfSatisfying(JobLookup.Found.class, f -> {
            assertThat(f.job().id().toString()).isEqualTo("3000088_49");
            assertThat(JobLookup.pendingRangeNote(JobId.parse("3000088_49"), f.job())).isEmpty();
        });
        for (String task : List.of("3000088_100", "3000088_47", "3000088_0")) {
            assertThat(JobLookup.of(JobId.parse(task), array, UnaryOperator.identity())).as(task)
                    .isInstanceOf(JobLookup.Missing.class);
        }
        // the whole array's id still names its tasks and its pending row
        assertThat(JobLookup.of(JobId.parse("3000088"), array, UnaryOperator.identity()))
                .isInstanceOfSatisfying(JobLookup.Array.class, a -> assertThat(a.tasks()).hasSize(3));
        assertThat(JobLookup.arrayToAsk(JobId.parse("3000088_50.batch"))).contains(JobId.parse("3000088"));
        assertThat(JobLookup.arrayToAsk(JobId.parse("3000088"))).isEmpty();
    }
}
