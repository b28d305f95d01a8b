package io.slurmwise.cli.render;

import io.slurmwise.classify.Evidence;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A message every rank or worker printed is shown once, with how many lines printed it (an outside audit). */
class AlikeEvidenceTest {

    private static Evidence err(long line, String text) {
        return new Evidence(Evidence.Source.STDERR, line, true, text, "nccl", 0.9, "Watchdog caught");
    }

    @Test
    void linesThatDifferOnlyInNumbersAreOneCountedAtTheFirst() {
        List<DiagnosisRenderer.Alike> a = DiagnosisRenderer.alike(List.of(
                err(1, "0: [E ProcessGroupNCCL.cpp:475] [Rank 0] Watchdog caught collective operation timeout"),
                err(2, "1: [E ProcessGroupNCCL.cpp:475] [Rank 1] Watchdog caught collective operation timeout"),
                err(5, "NCCL WARN NET/IB : Got completion with error 12, opcode 0, len 0, vendor err 129"),
                err(9, "11: [E ProcessGroupNCCL.cpp:475] [Rank 11] Watchdog caught collective operation timeout"),
                new Evidence(Evidence.Source.ACCOUNTING, 0, false, "State=FAILED", "nccl", 0.2, null),
                new Evidence(Evidence.Source.ACCOUNTING, 0, false, "State=FAILED", "nccl", 0.2, null)));

        assertThat(a).extracting(x -> x.evidence().line() + "×" + x.count())
                .containsExactly("1×3", "5×1", "0×1", "0×1"); // accounting fields are never merged
    }
}
