package io.slurmwise.classify;

import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A batch script's own exit status as SLURM records it: 127 and 126 are the shell's words for a command. */
class ExitStatusTest {

    private static Finding classify(String exit, String log) {
        return ClassifierTest.CLASSIFIER.classifyText(JobFacts.NONE.withState(JobState.FAILED)
                .withExitCode(ExitCode.parse(exit)), log);
    }

    @Test
    void exitCode127WithNoLogIsACommandNotFound() {
        Finding f = classify("127:0", "");
        assertThat(f.kindId()).isEqualTo("file_not_found");
        assertThat(f.evidence()).extracting(Evidence::text)
                .containsExactly("ExitCode=127:0 (the shell's exit status for a command not found)");
    }

    @Test
    void exitCode126IsACommandThatCouldNotBeExecuted() {
        assertThat(classify("126:0", "").kindId()).isEqualTo("permission");
    }

    @Test
    void otherExitStatusesAndSignalsSayNothingOfTheirOwn() {
        assertThat(classify("1:0", "").kindId()).isEqualTo("unknown");
        assertThat(classify("2:0", "").kindId()).isEqualTo("unknown");
    }

    @Test
    void theLogsCauseOutranksTheStatus() {
        // the environment-module command missing is also a command not found: the log says which
        assertThat(classify("127:0", """
                /var/spool/slurmd/job4242/slurm_script: line 5: module: command not found
                """).kindId()).isEqualTo("module_load");
        // the dynamic loader exits 127 too, for a library it cannot find
        assertThat(classify("127:0", """
                ./a.out: error while loading shared libraries: libmpi.so.40: cannot open shared object file: No such file or directory
                """).kindId()).isEqualTo("missing_shared_library");
    }

    /**
     * A job slurmd could not launch records slurmd's errno as its status: ESLURMD_IO_ERROR (4021, the --output file
     * could not be opened) shows as FAILED 0:53, RaisedSignal:53; the errno's own text is read by the notes.
     */
    @Test
    void slurmdsLaunchErrorInTheRecordIsReadAsItsMessage() {
        Finding f = classify("0:53", "");
        assertThat(f.kindId()).isEqualTo("file_not_found");
        assertThat(f.evidence()).extracting(Evidence::text).containsExactly("ExitCode=0:53 (slurmd's launch error 4021,"
                + " ESLURMD_IO_ERROR \"Slurmd could not connect IO\", which SLURM shows as signal 53)");
        assertThat(io.slurmwise.job.SlurmdLaunchError.of(ExitCode.parse("0:53")).map(e -> e.errno() & 0x7f)).hasValue(53);
        // another signal, or a code beside it, is no launch error
        assertThat(io.slurmwise.job.SlurmdLaunchError.of(ExitCode.parse("0:9"))).isEmpty();
        assertThat(io.slurmwise.job.SlurmdLaunchError.of(ExitCode.parse("1:53"))).isEmpty();
        assertThat(classify("0:52", "").kindId()).isEqualTo("unknown");
        // the log's own cause outranks it: a Permission denied on the output path
        assertThat(classify("0:53", "slurmstepd: error: Could not open stdout file /data/out.log: Permission denied")
                .kindId()).isEqualTo("permission");
    }

    @Test
    void noEvidenceAfterAnEventThatEndedTheJob() {
        Finding f = classify("127:0", """
                slurmstepd: error: *** JOB 4242 ON node12 CANCELLED AT 2024-05-01T10:00:00 DUE TO TIME LIMIT ***
                """);
        assertThat(f.kindId()).isEqualTo("time_limit");
        assertThat(f.others()).extracting(Finding.KindScore::kindId).doesNotContain("file_not_found");
    }

    @Test
    void aWrapperThatQuotesSlurmsCodeAndSignal() {
        // doepipeline's SLURM executor: "<job> has failed. (exit code 127:0)"
        assertThat(classify("1:0", "LINKSScaffolder_exp_7 has failed. (exit code 127:0)").kindId())
                .isEqualTo("file_not_found");
    }
}
