package io.slurmwise.backend.real;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThatCode;

/** Proves the backend cannot run anything outside the allowlist: by rule, by running it, and by its sources. */
class AllowlistTest {

    record Cmd(SlurmTool tool, List<String> args) {
        static Cmd of(SlurmTool tool, String... args) {
            return new Cmd(tool, List.of(args));
        }

        @Override
        public String toString() {
            // as FakeSlurm logs it: the unit separator of sacct's --delimiter shows as ^_
            return (tool.executable() + " " + String.join(" ", args)).replace("\u001f", "^_");
        }
    }

    /** Every invocation the backend builds (see SlurmCommands and RealBackend). */
    static final List<Cmd> ALLOWED = List.of(
            Cmd.of(SlurmTool.SACCT, "--version"),
            Cmd.of(SlurmTool.SACCT, "-P", "-j", "45", "-o", "JobID,State,ExitCode,JobIDRaw"),
            Cmd.of(SlurmTool.SACCT, "-P", "--delimiter=\u001f|", "-j", "45", "-o", "JobID,JobName,State"),
            Cmd.of(SlurmTool.SACCT, "-P", "-j", "53_2", "-o", "JobID,SubmitLine"),
            Cmd.of(SlurmTool.SACCT, "-X", "-P", "-o", "JobID,State", "-S", "2026-11-01T00:00:00",
                    "-E", "2026-11-30T12:00:00", "-a", "-r", "gpuA100x4", "-s", "FAILED,TIMEOUT,OUT_OF_MEMORY"),
            Cmd.of(SlurmTool.SACCT, "-P", "-n", "-o", "JobID,MaxRSS", "-S", "2026-11-01T00:00:00",
                    "-E", "2026-11-30T12:00:00", "-u", "alice.smith"),
            Cmd.of(SlurmTool.SACCT, "-j", "53_2", "--batch-script"),
            Cmd.of(SlurmTool.SCONTROL, "show", "job", "53_2"),
            Cmd.of(SlurmTool.SCONTROL, "show", "job", "123+1"),
            Cmd.of(SlurmTool.SCONTROL, "show", "partition"),
            Cmd.of(SlurmTool.SCONTROL, "show", "partition", "gpuA100x4"),
            Cmd.of(SlurmTool.SCONTROL, "show", "node", "vm"),
            Cmd.of(SlurmTool.SCONTROL, "show", "reservation"),
            Cmd.of(SlurmTool.SCONTROL, "write", "batch_script", "45", "-"),
            Cmd.of(SlurmTool.SCONTROL, "--version"),
            Cmd.of(SlurmTool.SINFO, "-o", "%P|%l|%D|%c|%m|%G|%a"),
            Cmd.of(SlurmTool.SQUEUE, "-h", "-o", "%i|%r", "-t", "PENDING", "-u", "slurmtest"),
            Cmd.of(SlurmTool.SQUEUE, "-h", "-o", "%i|%r", "-j", "46,55,53_[1-3]"),
            Cmd.of(SlurmTool.SACCTMGR, "-n", "-P", "show", "qos", "format=Name,MaxWall,Preempt"),
            Cmd.of(SlurmTool.SACCTMGR, "-n", "-P", "show", "assoc", "where", "user=alice.smith",
                    "format=Account,User,Partition,QOS"),
            Cmd.of(SlurmTool.SACCTMGR, "--version"),
            Cmd.of(SlurmTool.SSHARE, "-n", "-P", "-o", "Account,User,GrpTRESMins,GrpTRESRaw,TRESRunMins", "-A", "genomics"),
            Cmd.of(SlurmTool.SSHARE, "--version"));

    /** Writes, cancels, reconfigures, files, option smuggling and malformed values: all refused. */
    static final List<Cmd> FORBIDDEN = List.of(
            // the delimiter option only with the unit separator; other control characters nowhere
            Cmd.of(SlurmTool.SACCT, "-P", "--delimiter=,", "-j", "45"),
            Cmd.of(SlurmTool.SACCT, "-P", "--delimiter=\u001e", "-j", "45"),
            Cmd.of(SlurmTool.SACCT, "-P", "-j", "45", "-o", "JobID\u001f"),
            Cmd.of(SlurmTool.SQUEUE, "-h", "--delimiter=\u001f|"),
            Cmd.of(SlurmTool.SACCT, "-P", "--delimiter=\u001f", "-j", "45"),
            Cmd.of(SlurmTool.SCONTROL, "update", "JobId=45", "TimeLimit=1:00:00"),
            Cmd.of(SlurmTool.SCONTROL, "requeue", "45"),
            Cmd.of(SlurmTool.SCONTROL, "hold", "45"),
            Cmd.of(SlurmTool.SCONTROL, "release", "45"),
            Cmd.of(SlurmTool.SCONTROL, "suspend", "45"),
            Cmd.of(SlurmTool.SCONTROL, "reconfigure"),
            Cmd.of(SlurmTool.SCONTROL, "shutdown"),
            Cmd.of(SlurmTool.SCONTROL, "create", "reservation", "starttime=now"),
            Cmd.of(SlurmTool.SCONTROL, "delete", "reservation=r1"),
            Cmd.of(SlurmTool.SCONTROL, "write", "batch_script", "45"),
            Cmd.of(SlurmTool.SCONTROL, "write", "batch_script", "45", "/tmp/x.sh"),
            Cmd.of(SlurmTool.SCONTROL, "write", "config"),
            Cmd.of(SlurmTool.SCONTROL, "show", "job", "45", "extra"),
            Cmd.of(SlurmTool.SCONTROL, "show", "job", "45;rm -rf /"),
            Cmd.of(SlurmTool.SCONTROL, "show", "job", "$(id)"),
            Cmd.of(SlurmTool.SCONTROL, "show", "job", "45,46"),
            Cmd.of(SlurmTool.SCONTROL, "show", "config"),
            Cmd.of(SlurmTool.SCONTROL, "show", "partition", "--all"),
            Cmd.of(SlurmTool.SCONTROL, "show", "reservation", "maint"),
            Cmd.of(SlurmTool.SCONTROL, "create", "reservation"),
            Cmd.of(SlurmTool.SCONTROL, "-o", "show", "job", "45"),
            Cmd.of(SlurmTool.SCONTROL),
            Cmd.of(SlurmTool.SACCT, "-j", "45", "--env-vars"),
            Cmd.of(SlurmTool.SACCT, "-f", "/etc/shadow"),
            Cmd.of(SlurmTool.SACCT, "--delimiter=,"),
            Cmd.of(SlurmTool.SACCT, "-j", "45", "-j", "46"),
            Cmd.of(SlurmTool.SACCT, "-j", "-a"),
            Cmd.of(SlurmTool.SACCT, "-j", "045"),
            Cmd.of(SlurmTool.SACCT, "-j"),
            Cmd.of(SlurmTool.SACCT, "-o", "JobID State"),
            Cmd.of(SlurmTool.SACCT, "-S", "now-1day"),
            Cmd.of(SlurmTool.SACCT, "-u", "-alice"),
            Cmd.of(SlurmTool.SACCT, "-u", "../etc"),
            Cmd.of(SlurmTool.SACCT, "--batch-script"),
            Cmd.of(SlurmTool.SACCT, "-j", "45\n46"),
            Cmd.of(SlurmTool.SACCT, "-j", ""),
            Cmd.of(SlurmTool.SACCT, "-s", "failed"),
            Cmd.of(SlurmTool.SINFO, "--format=%P"),
            Cmd.of(SlurmTool.SINFO, "-o", "%P %l"),
            Cmd.of(SlurmTool.SINFO, "-N"),
            Cmd.of(SlurmTool.SQUEUE, "-o", "%i", "--me"),
            Cmd.of(SlurmTool.SQUEUE, "-o", "%i;id"),
            Cmd.of(SlurmTool.SQUEUE, "-j", "1", "-h", "-h"),
            // sacctmgr changes the accounting database with its other commands: only the one QOS read runs
            Cmd.of(SlurmTool.SACCTMGR, "-i", "add", "qos", "long"),
            Cmd.of(SlurmTool.SACCTMGR, "-i", "modify", "qos", "normal", "set", "MaxWall=-1"),
            Cmd.of(SlurmTool.SACCTMGR, "-i", "delete", "user", "alice"),
            Cmd.of(SlurmTool.SACCTMGR, "-n", "-P", "show", "qos", "format=Name,MaxWall,Preempt", "-i"),
            Cmd.of(SlurmTool.SACCTMGR, "-n", "-P", "show", "qos", "format=Name,Priority"),
            Cmd.of(SlurmTool.SACCTMGR, "-n", "-P", "show", "user", "format=Name,AdminLevel"),
            Cmd.of(SlurmTool.SACCTMGR, "dump", "cluster", "file=/tmp/x.cfg"),
            Cmd.of(SlurmTool.SACCTMGR, "show", "qos"),
            // the association read: one user by name, these columns, nothing added
            Cmd.of(SlurmTool.SACCTMGR, "-n", "-P", "show", "assoc", "where", "user=-i", "format=Account,User,Partition,QOS"),
            Cmd.of(SlurmTool.SACCTMGR, "-n", "-P", "show", "assoc", "where", "user=alice,bob", "format=Account,User,Partition,QOS"),
            Cmd.of(SlurmTool.SACCTMGR, "-n", "-P", "show", "assoc", "where", "user=", "format=Account,User,Partition,QOS"),
            Cmd.of(SlurmTool.SACCTMGR, "-n", "-P", "show", "assoc", "where", "account=lab", "format=Account,User,Partition,QOS"),
            Cmd.of(SlurmTool.SACCTMGR, "-n", "-P", "show", "assoc", "where", "user=alice", "format=Account,User,GrpTRES"),
            Cmd.of(SlurmTool.SACCTMGR, "-n", "-P", "show", "assoc", "where", "user=alice", "format=Account,User,Partition,QOS", "-i"),
            Cmd.of(SlurmTool.SACCTMGR, "-i", "modify", "user", "where", "user=alice", "set", "qos+=long"),
            Cmd.of(SlurmTool.SACCTMGR),
            // sshare: the one account read, the account a name (never an option), nothing added
            Cmd.of(SlurmTool.SSHARE, "-n", "-P", "-o", "Account,User,GrpTRESMins,GrpTRESRaw,TRESRunMins", "-A", "-a"),
            Cmd.of(SlurmTool.SSHARE, "-n", "-P", "-o", "Account,User,GrpTRESMins,GrpTRESRaw,TRESRunMins", "-A",
                    "genomics", "-a"),
            Cmd.of(SlurmTool.SSHARE, "-n", "-P", "-o", "Account,User,RawUsage", "-A", "genomics"),
            Cmd.of(SlurmTool.SSHARE, "-a"),
            Cmd.of(SlurmTool.SSHARE));

    @Test
    void everyInvocationTheBackendBuildsIsAllowed() {
        for (Cmd c : ALLOWED) {
            assertThatCode(() -> Allowlist.check(c.tool(), c.args())).as(c.toString()).doesNotThrowAnyException();
        }
    }

    @Test
    void everythingElseIsRefusedWithAMessageThatNamesIt() {
        for (Cmd c : FORBIDDEN) {
            assertThatThrownBy(() -> Allowlist.check(c.tool(), c.args())).as(c.toString())
                    .isInstanceOf(ForbiddenCommandException.class)
                    .hasMessageContaining("refused to run `" + c.tool().executable())
                    .hasMessageContaining("only reads the cluster");
            assertThat(Allowlist.allows(c.tool(), c.args())).isFalse();
        }
        assertThatThrownBy(() -> Allowlist.check(null, List.of("-V"))).isInstanceOf(ForbiddenCommandException.class);
    }

    @Test
    void onlyTheSixProgramsExist() {
        assertThat(Arrays.stream(SlurmTool.values()).map(SlurmTool::executable))
                .containsExactly("sacct", "scontrol", "sinfo", "squeue", "sacctmgr", "sshare");
    }

    /**
     * Real executables named like the SLURM tools (and like the ones that change things: scancel, sbatch, and
     * sacctmgr beyond its two reads) record every start. Forbidden invocations never start anything; allowed ones do.
     */
    @Test
    void theRunnerStartsNothingOutsideTheAllowlist(@TempDir Path dir) {
        FakeSlurm fake = new FakeSlurm(dir);
        for (String name : List.of("sacct", "scontrol", "sinfo", "squeue", "scancel", "sbatch", "sacctmgr", "sshare", "sh")) {
            fake.tool(name, "exit 0");
        }
        CommandRunner runner = new CommandRunner(fake.env());
        for (Cmd c : FORBIDDEN) {
            if (c.tool() == null) {
                continue;
            }
            Invocation inv = new Invocation(c.tool(), c.args(), Duration.ofSeconds(5), 1 << 16);
            assertThatThrownBy(() -> runner.run(inv)).as(c.toString()).isInstanceOf(ForbiddenCommandException.class);
        }
        assertThat(fake.calls()).as("processes started by refused commands").isEmpty();
        for (Cmd c : ALLOWED) {
            assertThat(runner.run(new Invocation(c.tool(), c.args(), Duration.ofSeconds(10), 1 << 16)).exitCode())
                    .isZero();
        }
        List<String> expected = ALLOWED.stream().map(Cmd::toString).toList();
        assertThat(fake.calls()).containsExactlyElementsOf(expected);
        assertThat(fake.calls()).noneMatch(l -> l.startsWith("scancel") || l.startsWith("sbatch") || l.startsWith("sh "));
        // sacctmgr started only for its two reads and its version
        assertThat(fake.calls()).filteredOn(l -> l.startsWith("sacctmgr"))
                .containsExactly("sacctmgr -n -P show qos format=Name,MaxWall,Preempt",
                        "sacctmgr -n -P show assoc where user=alice.smith format=Account,User,Partition,QOS",
                        "sacctmgr --version");
        assertThat(fake.calls()).filteredOn(l -> l.startsWith("sshare")).containsExactly(
                "sshare -n -P -o Account,User,GrpTRESMins,GrpTRESRaw,TRESRunMins -A genomics", "sshare --version");
    }

    /** Arguments reach the program verbatim: no shell, no quoting, no splitting. */
    @Test
    void argumentsArePassedAsAnArrayNeverThroughAShell(@TempDir Path dir) throws IOException {
        FakeSlurm fake = new FakeSlurm(dir);
        fake.tool("squeue", "for a in \"$@\"; do printf '[%s]' \"$a\"; done");
        CommandRunner runner = new CommandRunner(fake.env());
        CommandResult r = runner.run(new Invocation(SlurmTool.SQUEUE, List.of("-h", "-o", "%i|%r", "-u", "a.b@c"),
                Duration.ofSeconds(10), 1 << 16));
        assertThat(r.stdout()).isEqualTo("[-h][-o][%i|%r][-u][a.b@c]");
    }

    /**
     * The runner is the only code that can start a process; nothing else in the module imports a way to. The
     * running command holds the started process (and kills it and its children) but cannot start one.
     */
    @Test
    void onlyTheRunnerCanStartProcesses() throws IOException {
        Path main = Path.of("src/main/java");
        assertThat(main).isDirectory();
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(main)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String src = Files.readString(f);
                boolean spawns = src.contains("org.apache.commons.exec") || src.contains("ProcessBuilder")
                        || src.contains("Runtime.getRuntime") || src.contains("ProcessHandle");
                String name = f.getFileName().toString();
                boolean holdsProcess = name.equals("RunningCommand.java") && !src.contains("ProcessBuilder")
                        && !src.contains("Runtime.getRuntime") && !src.contains("org.apache.commons.exec");
                if (spawns && !name.equals("CommandRunner.java") && !holdsProcess) {
                    offenders.add(f.toString());
                }
            }
        }
        assertThat(offenders).isEmpty();
        String runner = Files.readString(main.resolve("io/slurmwise/backend/real/CommandRunner.java"));
        int check = runner.indexOf("Allowlist.check(inv.tool(), inv.args());");
        assertThat(check).isPositive();
        assertThat(check).as("the allowlist is checked before the program is looked up or started")
                .isLessThan(runner.indexOf("locate(inv.tool())")).isLessThan(runner.indexOf("pb.start()"));
    }
}
