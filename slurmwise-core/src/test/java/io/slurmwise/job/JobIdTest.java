package io.slurmwise.job;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobIdTest {

    @Test
    void parsesEveryFormSlurmPrints() {
        assertThat(JobId.parse("1001")).satisfies(id -> {
            assertThat(id.jobId()).isEqualTo(1001);
            assertThat(id.isArrayTask()).isFalse();
        });
        JobId task = JobId.parse("4242_3");
        assertThat(task.arrayJobId()).isEqualTo(4242);
        assertThat(task.arrayTaskId()).contains(3L);
        assertThat(JobId.parse("4242_[1-5]").arraySpec()).isEqualTo("1-5");
        assertThat(JobId.parse("4242_[1,3,5-7%2]").toString()).isEqualTo("4242_[1,3,5-7%2]");
        assertThat(JobId.parse("123+1").hetOffset()).isEqualTo(1);
        JobId step = JobId.parse("123.batch");
        assertThat(step.isStep()).isTrue();
        assertThat(step.withoutStep()).isEqualTo(JobId.parse("123"));
        assertThat(JobId.parse("4242_3.0").withoutStep().toString()).isEqualTo("4242_3");
        assertThat(JobId.parse(" 17 ").toString()).isEqualTo("17");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "12;rm -rf /", "-1", "0", "1.2.3", "12_", "12_[", "1 2", "$(id)", "12\n13",
        "99999999999999999999", "123.foo", "123+x"})
    void rejectsAnythingElseWithAHelpfulMessage(String bad) {
        assertThatThrownBy(() -> JobId.parse(bad))
                .isInstanceOf(InvalidJobIdException.class)
                .hasMessageContaining("is not a SLURM job id")
                .hasMessageContaining("4242_3");
        assertThat(JobId.tryParse(bad)).isEmpty();
    }

    /**
     * An id in SLURM's form whose numbers SLURM cannot have says which number and the limit, then what a valid id looks
     * like (an outside audit: 2^70 read only "is not a SLURM job id", and 4294967296 went on to sacct).
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "1180591620717411303424|the job number 1180591620717411303424 is larger than SLURM allows (at most 4294967292:"
                + " SLURM's job ids are 32-bit)",
        "4294967293|the job number 4294967293 is larger than SLURM allows (at most 4294967292",
        "99999999999999999999|the job number 99999999999999999999 is larger",
        "0|job ids start at 1",
        "0000|job ids start at 1",
        "4242_4000001|the array task id 4000001 is larger than SLURM allows (at most 4000000: SLURM's MaxArraySize is"
                + " at most 4000001",
        "4242_4294967294|the array task id 4294967294 is larger",
        "4242_[1-4000001]|the array task id 4000001 is larger",
        "123+128|the het component offset 128 is larger than SLURM allows (at most 127: a het job has at most 128"
                + " components",
        "123+99999999999999999999|the het component offset 99999999999999999999 is larger",
        "4242_3+1|a job is an array task (4242_3) or a het job's component (123+1), never both",
        "123.4294967280|the step number 4294967280 is larger than SLURM allows (at most 4294967279)",
    })
    void saysWhatIsWrongWithAnIdSlurmCannotHave(String bad, String why) {
        assertThatThrownBy(() -> JobId.parse(bad))
                .isInstanceOf(InvalidJobIdException.class)
                .hasMessageStartingWith("'" + bad + "' is not a SLURM job id: ")
                .hasMessageContaining(why)
                .hasMessageEndingWith("; use a number such as 1001, an array task such as 4242_3, a het component such"
                        + " as 123+1, or a step such as 123.batch");
        assertThat(JobId.tryParse(bad)).isEmpty();
    }

    @Test
    void theLargestIdsSlurmCanHaveParse() {
        assertThat(JobId.parse("4294967292").jobId()).isEqualTo(JobId.MAX_JOB_ID);
        assertThat(JobId.parse("4242_4000000").arrayTask()).isEqualTo(JobId.MAX_ARRAY_TASK_ID);
        assertThat(JobId.parse("4242_[0-4000000%4000000]").taskCount()).isEqualTo(4_000_001);
        assertThat(JobId.parse("123+127").hetOffset()).isEqualTo(127);
        assertThat(JobId.parse("123.4294967279").toString()).isEqualTo("123.4294967279");
        assertThat(JobId.parse("0042_007").toString()).isEqualTo("42_7");
    }

    @Test
    void aPendingRowCoversItsTasks() {
        JobId row = JobId.parse("3000088_[50-99,120%5]");
        assertThat(row.coversTask(50)).isTrue();
        assertThat(row.coversTask(99)).isTrue();
        assertThat(row.coversTask(120)).isTrue();
        assertThat(row.coversTask(5)).as("the throttle is no task").isFalse();
        assertThat(row.coversTask(100)).isFalse();
        assertThat(row.coversTask(49)).isFalse();
        assertThat(JobId.parse("3000088_50").coversTask(50)).as("a task is no pending row").isFalse();
        assertThat(JobId.parse("3000088").coversTask(50)).isFalse();
    }

    @Test
    void rejectsVeryLongInputWithoutEchoingItAll() {
        String longId = "1".repeat(10_000);
        assertThatThrownBy(() -> JobId.parse(longId)).hasMessageContaining("...");
    }

    @org.junit.jupiter.api.Test
    void aPendingArraysRowStandsForItsTasks() {
        org.assertj.core.api.Assertions.assertThat(JobId.parse("700_[3-500%10]").taskCount()).isEqualTo(498);
        org.assertj.core.api.Assertions.assertThat(JobId.parse("700_[1,3,5-7]").taskCount()).isEqualTo(5);
        org.assertj.core.api.Assertions.assertThat(JobId.parse("700_4").taskCount()).isEqualTo(1);
        org.assertj.core.api.Assertions.assertThat(JobId.parse("700").taskCount()).isEqualTo(1);
        org.assertj.core.api.Assertions.assertThat(JobId.parse("700_[5-3]").taskCount()).isEqualTo(1);
    }
}
