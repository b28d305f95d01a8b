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
