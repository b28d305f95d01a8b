package io.slurmwise.classify;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobState;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A memory limit the job's record does not speak to (a program's own failed allocation, a workflow's task run as a job
 * of its own) is not contradicted by a peak far below the record's limit; and after a program's MPI_Abort, srun's
 * "Killed" for the other ranks is the abort's doing, not a memory kill. Logs as the auditor's jobs 2018-2021 wrote them.
 */
class ProgramLimitsTest {

    private static final Classifier C = ClassifierTest.CLASSIFIER;

    /** FAILED 1:0 with --mem=64G and the given peak. */
    private static JobFacts failed(double peakGib) {
        return new JobFacts(JobState.FAILED, ExitCode.parse("1:0"), DataSize.ofGibibytes(peakGib), DataSize.ofGibibytes(64),
                null, null, null, null);
    }

    private static Finding classify(JobFacts facts, String log) {
        return C.classify(facts, List.of(LogTail.of(LogStream.STDERR, "job.err", log)));
    }

    static final String JAVA_HEAP = """
            Exception in thread "main" java.lang.OutOfMemoryError: Java heap space
            \tat java.base/java.util.Arrays.copyOf(Arrays.java:3537)
            \tat java.base/java.util.ArrayList.grow(ArrayList.java:237)
            \tat org.broadinstitute.hellbender.Main.main(Main.java:289)
            """;
    static final String NUMPY = """
            Traceback (most recent call last):
              File "/home/u/ml/features.py", line 54, in <module>
                X = np.zeros((n_samples, n_features), dtype=np.float64)
            numpy.core._exceptions._ArrayMemoryError: Unable to allocate 1.16 TiB for an array with shape (400000, 400000) and data type float64
            """;
    static final String NEXTFLOW = """
            executor >  slurm (12)
            ERROR ~ Error executing process > 'TRIM (S03)'

            Caused by:
              Process `TRIM (S03)` terminated with an error exit status (137)

            Command error:
              .command.sh: line 2:    71 Killed                  trim_galore --cores 8 --paired S03_R1.fastq.gz
            """;

    @Test
    void aProgramsOwnMemoryErrorIsOomWhateverTheRecordsPeak() {
        // 2020: -Xmx8g under --mem=64G, peak 8.58G; 2021: numpy asked 1.16 TiB, peak 2G (once "signs too weak: oom 43%")
        for (String log : List.of(JAVA_HEAP, NUMPY, "Error: cannot allocate vector of size 37.2 Gb\nExecution halted\n")) {
            Finding f = classify(failed(2), log);
            assertThat(f.kindId()).as(log).isEqualTo("oom");
            assertThat(f.confidence()).isGreaterThanOrEqualTo(0.8);
            assertThat(f.evidence()).anyMatch(e -> e.isLogLine() && OwnMemoryError.in(List.of(e.text())));
        }
    }

    @Test
    void aKillReportStillWeighsLessWhenThePeakStayedFarBelowTheLimit() {
        // the record does contradict a kill of this job's own processes
        Finding f = classify(failed(2), "bash: line 11: 33333 Killed   ./mybinary\n");
        assertThat(f.kindId()).isNotEqualTo("oom");
    }

    @Test
    void aWorkflowsTaskIsAnotherJobWhoseMemoryTheHeadsRecordDoesNotShow() {
        // 2019: the Nextflow head job, peak 1.2G of 4G
        JobFacts head = new JobFacts(JobState.FAILED, ExitCode.parse("1:0"), DataSize.ofGibibytes(1.2),
                DataSize.ofGibibytes(4), null, null, null, null);
        Finding f = classify(head, NEXTFLOW);
        assertThat(f.kindId()).isEqualTo("oom");
        assertThat(WorkflowTask.in(f.evidence().stream().map(Evidence::text).toList())).isTrue();
    }

    @Test
    void killedRanksAfterAnMpiAbortAreTheAbortsDoing() {
        Finding f = classify(JobFacts.NONE.withExitCode(ExitCode.parse("3:0")), """
                 ERROR: negative density detected in cell  1288131 on rank 217
                --------------------------------------------------------------------------
                MPI_ABORT was invoked on rank 217 in communicator MPI_COMM_WORLD
                with errorcode 3.

                NOTE: invoking MPI_ABORT causes Open MPI to kill all MPI processes.
                --------------------------------------------------------------------------
                slurmstepd: error: *** STEP 88123.0 ON cn044 CANCELLED AT 2026-11-30T12:01:55 ***
                srun: Job step aborted: Waiting up to 32 seconds for job step to finish.
                srun: error: cn044: tasks 0-127: Killed
                srun: error: cn047: tasks 384-511: Killed
                srun: error: cn045: task 217: Exited with exit code 3
                """);
        assertThat(f.kindId()).isNotEqualTo("oom");
        assertThat(f.others()).noneMatch(k -> k.kindId().equals("oom"));
        assertThat(f.leads().get(0).text()).startsWith("ERROR: negative density detected");
        assertThat(f.leads()).noneMatch(e -> e.text().contains("Killed"));
        // without the abort, the same Killed lines are still a weak sign of a memory kill
        Finding bare = classify(JobFacts.NONE, "srun: error: cn044: tasks 0-127: Killed\n");
        assertThat(bare.others()).anyMatch(k -> k.kindId().equals("oom"));
    }

    @Test
    void theSizesOfAProgramsOwnAllocation() {
        assertThat(OwnMemoryError.requested(List.of(NUMPY.split("\n")[3])).getAsLong())
                .isBetween((long) (1.15 * DataSize.TIB), (long) (1.17 * DataSize.TIB));
        assertThat(OwnMemoryError.requested(List.of("Error: cannot allocate vector of size 12.3 Gb")).getAsLong())
                .isBetween(12 * DataSize.GIB, 13 * DataSize.GIB);
        assertThat(OwnMemoryError.requested(List.of("java.lang.OutOfMemoryError: Java heap space"))).isEmpty();
        assertThat(OwnMemoryError.describe((long) (1.16 * DataSize.TIB))).isEqualTo("1.16 TiB");
        assertThat(OwnMemoryError.javaHeap(List.of("java.lang.OutOfMemoryError: GC overhead limit exceeded"))).isTrue();
    }
}
