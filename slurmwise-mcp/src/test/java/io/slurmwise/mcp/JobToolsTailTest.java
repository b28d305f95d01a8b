package io.slurmwise.mcp;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** read_job_log's lines: the newest that fit, a long line's start and end kept. */
class JobToolsTailTest {

    @Test
    void aLongLineKeepsItsEndWhereTheMessageIs() {
        String holed = "\u0000".repeat(100_000) + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB";
        List<String> out = JobTools.tail(List.of("step 1", holed), 4096);
        assertThat(out).hasSize(2);
        assertThat(out.get(1)).endsWith("CUDA out of memory. Tried to allocate 2.00 GiB").contains(" […] ")
                .hasSizeLessThan(520);
        assertThat(out.get(0)).isEqualTo("step 1");
        // the newest lines first fill the budget
        assertThat(JobTools.tail(List.of("a".repeat(300), "b".repeat(300)), 400)).containsExactly("b".repeat(300));
    }
}
