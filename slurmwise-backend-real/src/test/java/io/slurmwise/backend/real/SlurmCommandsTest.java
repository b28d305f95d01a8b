package io.slurmwise.backend.real;

import io.slurmwise.backend.real.SlurmCommandException.Failure;
import io.slurmwise.job.JobId;
import io.slurmwise.testing.Captures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Error texts of the real SLURM 22.05 (captures), replayed by fake commands, become clear messages. */
class SlurmCommandsTest {

    static String block(String capture, String commandPrefix) {
        String text = Captures.read(capture);
        int i = text.indexOf("$ " + commandPrefix);
        int start = text.indexOf('\n', i) + 1;
        return text.substring(start, text.indexOf("[rc=", start));
    }

    @Test
    void slurmdbdDownIsReportedAsAccountingDown(@TempDir Path dir) {
        String text = Captures.read("daemon_down_errors.txt");
        String err = text.substring(text.indexOf("sacct: error: slurm_persist_conn_open"), text.indexOf("[rc=1, 0.0s]"));
        FakeSlurm fake = new FakeSlurm(dir).printing("sacct", "", err, 1);
        SlurmCommands slurm = new SlurmCommands(fake.config());
        assertThatThrownBy(() -> slurm.sacct(List.of("-P", "-j", "1", "-o", "JobID,State")))
                .isInstanceOfSatisfying(SlurmCommandException.class, e -> assertThat(e.failure()).isEqualTo(Failure.ACCOUNTING_DOWN))
                .hasMessageStartingWith("sacct cannot reach the accounting database (slurmdbd): sacct: error: slurm_persist_conn_open")
                .hasMessageContaining("check that slurmdbd is running");
    }

    @Test
    void slurmctldDownIsReportedOnceThenNotAskedAgain(@TempDir Path dir) {
        String err = block("daemon_down_errors.txt", "squeue");
        FakeSlurm fake = new FakeSlurm(dir).printing("squeue", "", err, 1).printing("scontrol", "", err, 1);
        SlurmCommands slurm = new SlurmCommands(fake.config());
        assertThatThrownBy(() -> slurm.squeueReasons(List.of(JobId.parse("46")), null))
                .isInstanceOfSatisfying(SlurmCommandException.class, e -> {
                    assertThat(e.failure()).isEqualTo(Failure.CONTROLLER_DOWN);
                    assertThat(e.controllerUnavailable()).isTrue();
                })
                .hasMessageContaining("could not reach slurmctld")
                .hasMessageContaining("Unable to contact slurm controller (connect failure)")
                .hasMessageContaining("scontrol ping");
        assertThatThrownBy(() -> slurm.scontrolShowJob(JobId.parse("46")))
                .hasMessageStartingWith("not asking slurmctld again (`scontrol show job 46`)");
        assertThat(fake.calls()).containsExactly("squeue -h -o %i|%r -j 46");
        assertThat(slurm.controllerFailure()).isPresent();
    }

    @Test
    void invalidFieldSaysWhatToReport(@TempDir Path dir) {
        String err = Captures.read("cgroup/sacct_requested_format.txt");
        err = err.substring(err.indexOf("sacct: error"), err.indexOf("[rc=1]"));
        FakeSlurm fake = new FakeSlurm(dir).printing("sacct", "", err, 1);
        assertThatThrownBy(() -> new SlurmCommands(fake.config()).sacct(List.of("-P", "-j", "1", "-o", "JobID,StdOut")))
                .isInstanceOfSatisfying(SlurmCommandException.class, e -> assertThat(e.failure()).isEqualTo(Failure.INVALID_FIELD))
                .hasMessageContaining("Invalid field requested: \"StdOut\"")
                .hasMessageContaining("sacct --version");
    }

    @Test
    void unknownJobsAreEmptyNotErrors(@TempDir Path dir) {
        FakeSlurm fake = new FakeSlurm(dir)
                .printing("scontrol", "", block("unknown_job_ids.txt", "scontrol show job"), 1)
                .printing("squeue", "", block("unknown_job_ids.txt", "squeue"), 1)
                .printing("sacct", RealCaptures.output("sacct_batch_script_unknown.txt"), "", 0);
        SlurmCommands slurm = new SlurmCommands(fake.config());
        assertThat(slurm.scontrolShowJob(JobId.parse("999999"))).isEmpty();
        assertThat(slurm.squeueReasons(List.of(JobId.parse("999999")), null)).isEmpty();
        assertThat(slurm.sacctBatchScript(JobId.parse("999999"))).isEmpty();
        FakeSlurm write = new FakeSlurm(dir.resolve("w"))
                .printing("scontrol", "", RealCaptures.output("scontrol_write_batch_script_unknown.txt"), 0);
        assertThat(RealCaptures.rc("scontrol_write_batch_script_unknown.txt")).as("22.05 exits 0 here").isZero();
        assertThat(new SlurmCommands(write.config()).scontrolBatchScript(JobId.parse("999999"))).isEmpty();
    }

    @Test
    void batchScriptsFromBothSources(@TempDir Path dir) {
        FakeSlurm fake = new FakeSlurm(dir)
                .printing("scontrol", RealCaptures.output("scontrol_write_batch_script.txt"), "", 0)
                .printing("sacct", RealCaptures.output("sacct_batch_script.txt"), "", 0);
        SlurmCommands slurm = new SlurmCommands(fake.config());
        assertThat(slurm.scontrolBatchScript(JobId.parse("45")).orElseThrow())
                .startsWith("#!/bin/bash\n#SBATCH --job-name=import_error").contains("python3 train.py");
        assertThat(slurm.sacctBatchScript(JobId.parse("53_2")).orElseThrow())
                .startsWith("#!/bin/bash\n#SBATCH --job-name=array").doesNotContain("Batch Script for").doesNotContain("-----");
        assertThat(fake.calls()).containsExactly("scontrol write batch_script 45 -", "sacct -j 53_2 --batch-script");
        assertThat(SlurmCommands.unwrapBatchScript("Batch Script for 7\n------\nNONE\n")).isEmpty();
        // 22.05 prints the script and a newline of its own: the script is the file's bytes, as scontrol gives them
        assertThat(slurm.sacctBatchScript(JobId.parse("53_2")).orElseThrow()).doesNotEndWith("\n\n").endsWith("\n");
        assertThat(SlurmCommands.unwrapBatchScript("Batch Script for 8\n------\n#!/bin/bash\necho a\n\n"))
                .contains("#!/bin/bash\necho a\n");
        assertThat(SlurmCommands.unwrapBatchScript("Batch Script for 8\n------\n#!/bin/bash\necho a\n\n\n"))
                .contains("#!/bin/bash\necho a\n\n");
    }

    @Test
    void otherFailuresQuoteTheCommandAndItsError(@TempDir Path dir) {
        FakeSlurm fake = new FakeSlurm(dir).printing("sacct", "", RealCaptures.output("sacct_invalid_state.txt"), 1);
        assertThatThrownBy(() -> new SlurmCommands(fake.config()).sacct(List.of("-X", "-P", "-s", "COMPLETING")))
                .isInstanceOfSatisfying(SlurmCommandException.class, e -> assertThat(e.failure()).isEqualTo(Failure.FAILED))
                .hasMessage("`sacct -X -P $'--delimiter=\\x1f|' -s COMPLETING` failed with exit code 1: sacct: fatal: job state COMPLETING"
                        + " is not supported / accounted");
    }

    /** The version is asked once per process and sacct binary, however many backends are made. */
    @Test
    void theVersionIsProbedOncePerProcess(@TempDir Path dir) {
        FakeSlurm fake = new FakeSlurm(dir).printing("sacct", "slurm 23.02.7\n", "", 0);
        for (int i = 0; i < 3; i++) {
            assertThat(RealBackend.create(fake.config()).version()).isEqualTo(new SlurmVersion(23, 2, 7));
        }
        assertThat(fake.calls()).containsExactly("sacct --version");
        FakeSlurm odd = new FakeSlurm(dir.resolve("odd")).printing("sacct", "sacct (custom build)\n", "", 0);
        assertThat(new SlurmCommands(odd.config()).version()).as("unreadable: the safe oldest field list")
                .isEqualTo(SlurmVersion.OLDEST_TESTED);
    }

    @Test
    void aSlowControllerMakesLaterControllerCallsFailFast(@TempDir Path dir) {
        FakeSlurm fake = new FakeSlurm(dir).tool("scontrol", "exec /bin/sleep 30").tool("squeue", "exec /bin/sleep 30");
        SlurmCommands slurm = new SlurmCommands(fake.config().withTimeouts(Duration.ofSeconds(5), Duration.ofMillis(700)));
        assertThatThrownBy(() -> slurm.scontrolShowJob(JobId.parse("1"))).hasMessageContaining("did not answer within 700 ms");
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> slurm.squeueReasons(List.of(), null)).hasMessageContaining("not asking slurmctld again");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(500));
        assertThat(fake.calls()).containsExactly("scontrol show job 1");
    }
}
