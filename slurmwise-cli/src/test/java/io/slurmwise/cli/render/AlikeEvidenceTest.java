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

    /** 1028: the watchdog's error line and its repeat after {@code what():} are one message with two prefixes. */
    @Test
    void theSameMessageAfterAnotherPrefixIsOne() {
        List<DiagnosisRenderer.Alike> a = DiagnosisRenderer.alike(List.of(
                new Evidence(Evidence.Source.STDERR, 2, true, "[rank2]:[E1113 12:21:46.823489807 ProcessGroupNCCL.cpp:1414]"
                        + " [PG 0 Rank 2] Process group watchdog thread terminated with exception: CUDA error: an illegal"
                        + " memory access was encountered", "cuda_error", 0.85, "CUDA error"),
                new Evidence(Evidence.Source.STDERR, 3, true, "CUDA kernel errors might be asynchronously reported at some"
                        + " other API call", "cuda_error", 0.6, "CUDA kernel errors might be asynchronously reported"),
                new Evidence(Evidence.Source.STDERR, 20, true, "what():  [PG 0 Rank 2] Process group watchdog thread"
                        + " terminated with exception: CUDA error: an illegal memory access was encountered", "cuda_error",
                        0.0, "CUDA error"),
                // a short tail after the match says too little: the whole lines decide
                new Evidence(Evidence.Source.STDERR, 30, true, "srun: error: node1: task 0: Killed", "oom", 0.5, "Killed"),
                new Evidence(Evidence.Source.STDERR, 31, true, "/var/spool/slurm_script: line 5: 99 Killed", "oom", 0.5,
                        "Killed")));
        assertThat(a).extracting(x -> x.evidence().line() + "×" + x.count())
                .containsExactly("2×2", "3×1", "30×1", "31×1");
    }
}
