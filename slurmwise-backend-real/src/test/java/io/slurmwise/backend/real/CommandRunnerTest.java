package io.slurmwise.backend.real;

import io.slurmwise.backend.real.SlurmCommandException.Failure;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommandRunnerTest {

    static Invocation inv(SlurmTool tool, Duration timeout, long max, String... args) {
        return new Invocation(tool, List.of(args), timeout, max);
    }

    @Test
    void aMissingProgramSaysWhereItLookedAndWhatToDo(@TempDir Path dir) {
        CommandRunner runner = new CommandRunner(Map.of("PATH", dir.toString()));
        assertThat(runner.locate(SlurmTool.SACCT)).isEmpty();
        assertThatThrownBy(() -> runner.run(inv(SlurmTool.SACCT, Duration.ofSeconds(5), 100, "--version")))
                .isInstanceOfSatisfying(SlurmCommandException.class, e -> assertThat(e.failure()).isEqualTo(Failure.MISSING))
                .hasMessageContaining("sacct is not on PATH [" + dir)
                .hasMessageContaining("login node").hasMessageContaining("SLURMWISE_BACKEND=mock");
        assertThatThrownBy(() -> new CommandRunner(Map.of()).run(inv(SlurmTool.SINFO, Duration.ofSeconds(5), 100, "-h")))
                .hasMessageContaining("PATH is empty or not set");
    }

    @Test
    void relativeAndEmptyPathEntriesAreNeverSearched(@TempDir Path dir) throws Exception {
        FakeSlurm fake = new FakeSlurm(dir);
        fake.tool("sacct", "echo found");
        // "" and "." mean the current directory to a shell; slurmwise never runs a tool from there
        CommandRunner runner = new CommandRunner(Map.of("PATH", ":.:bin:relative/dir"));
        assertThat(runner.locate(SlurmTool.SACCT)).isEmpty();
        Path notExecutable = Files.createDirectories(dir.resolve("plain")).resolve("sacct");
        Files.writeString(notExecutable, "#!/bin/sh\necho hi\n");
        assertThat(new CommandRunner(Map.of("PATH", notExecutable.getParent().toString())).locate(SlurmTool.SACCT))
                .isEmpty();
        assertThat(new CommandRunner(fake.env()).locate(SlurmTool.SACCT)).contains(fake.bin().resolve("sacct"));
    }

    @Test
    void aHangingCommandIsKilledAtItsTimeoutWithAClearMessage(@TempDir Path dir) {
        FakeSlurm fake = new FakeSlurm(dir).tool("scontrol", "exec /bin/sleep 60").tool("sacct", "exec /bin/sleep 60");
        CommandRunner runner = new CommandRunner(fake.env());
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> runner.run(inv(SlurmTool.SCONTROL, Duration.ofMillis(800), 1000, "show", "job", "46")))
                .isInstanceOfSatisfying(SlurmCommandException.class, e -> {
                    assertThat(e.failure()).isEqualTo(Failure.TIMEOUT);
                    assertThat(e.controllerUnavailable()).isTrue();
                })
                .hasMessageContaining("`scontrol show job 46` did not answer within 800 ms")
                .hasMessageContaining("slurmctld").hasMessageContaining("scontrol ping")
                .hasMessageContaining(RealBackendConfig.CONTROLLER_TIMEOUT_VARIABLE);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("killed, not waited for").isLessThan(Duration.ofSeconds(20));
        assertThatThrownBy(() -> runner.run(inv(SlurmTool.SACCT, Duration.ofSeconds(1), 1000, "--version")))
                .hasMessageContaining("within 1 s").hasMessageContaining("slurmdbd")
                .hasMessageContaining(RealBackendConfig.SACCT_TIMEOUT_VARIABLE)
                .isInstanceOfSatisfying(SlurmCommandException.class, e -> assertThat(e.controllerUnavailable()).isFalse());
    }

    @Test
    void endlessOutputIsCutAndTheCommandKilled(@TempDir Path dir) {
        FakeSlurm fake = new FakeSlurm(dir).tool("sacct", "exec /usr/bin/yes '1|FAILED|1:0'");
        CommandRunner runner = new CommandRunner(fake.env());
        assertThatThrownBy(() -> runner.run(inv(SlurmTool.SACCT, Duration.ofSeconds(60), 64 << 10, "-P", "-n")))
                .isInstanceOfSatisfying(SlurmCommandException.class,
                        e -> assertThat(e.failure()).isEqualTo(Failure.OUTPUT_TOO_LARGE))
                .hasMessageContaining("printed more than 64 KiB")
                .hasMessageContaining("one job's answer is small");
    }

    @Test
    void stderrIsBoundedWithoutFailingTheCommand(@TempDir Path dir) {
        FakeSlurm fake = new FakeSlurm(dir).tool("sinfo",
                "/usr/bin/head -c 3000000 /dev/zero | /usr/bin/tr '\\0' 'e' >&2; echo 'cpu*|2:00:00'; exit 0");
        CommandResult r = new CommandRunner(fake.env()).run(inv(SlurmTool.SINFO, Duration.ofSeconds(30), 1000, "-h"));
        assertThat(r.ok()).isTrue();
        assertThat(r.stdout()).isEqualTo("cpu*|2:00:00\n");
        assertThat(r.stderr()).hasSize(CommandRunner.MAX_STDERR_BYTES);
    }

    @Test
    void exitCodesAndBothStreamsAreKept(@TempDir Path dir) {
        FakeSlurm fake = new FakeSlurm(dir).tool("squeue",
                "echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1");
        CommandResult r = new CommandRunner(fake.env()).run(inv(SlurmTool.SQUEUE, Duration.ofSeconds(10), 1000,
                "-h", "-j", "999999"));
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.firstErrorLine()).isEqualTo("slurm_load_jobs error: Invalid job id specified");
    }

    /** SLURM_TIME_FORMAT=relative or a personal SACCT_FORMAT would change what the parsers read. */
    @Test
    void theUsersSlurmFormatVariablesNeverReachTheCommands(@TempDir Path dir) {
        FakeSlurm fake = new FakeSlurm(dir).tool("sacct",
                "echo \"T=${SLURM_TIME_FORMAT-unset} F=${SACCT_FORMAT-unset} H=${HOME-unset}\"");
        Map<String, String> env = new HashMap<>(fake.env());
        env.put("SLURM_TIME_FORMAT", "relative");
        env.put("SACCT_FORMAT", "jobid,user");
        env.put("HOME", "/home/alice");
        CommandResult r = new CommandRunner(env).run(inv(SlurmTool.SACCT, Duration.ofSeconds(10), 1000, "--version"));
        assertThat(r.stdout().strip()).isEqualTo("T=standard F=unset H=/home/alice");
    }
}
