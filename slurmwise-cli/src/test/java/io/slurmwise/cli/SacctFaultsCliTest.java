package io.slurmwise.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.cli.context.ExitCodes;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a user sees when SLURM's commands answer badly (fake commands on PATH, the real backend): one line on
 * stderr that says what came and what to do, the backend's exit code, never the usage code, raw bytes, a stack
 * trace or "unknown job" for a job sacct printed.
 */
class SacctFaultsCliTest {

    static final String HEADER = "JobID|JobName|User|Account|Partition|QOS|State|ExitCode|DerivedExitCode|Submit|"
            + "Start|End|Elapsed|Timelimit|ReqMem|MaxRSS|AllocCPUS|AllocTRES|NodeList|TotalCPU|ConsumedEnergyRaw|"
            + "WorkDir|Reason";
    static final String ROW = "4711|train|alice|proj|cpu|normal|FAILED|1:0|0:0|2026-11-10T10:00:00|"
            + "2026-11-10T10:00:05|2026-11-10T10:10:00|00:09:55|01:00:00|4G||8|billing=8,cpu=8,mem=4G,node=1|n01|"
            + "00:10:00|0|/w|None";

    @TempDir
    Path dir;
    Path bin;

    @BeforeEach
    void setUp() throws IOException {
        bin = Files.createDirectories(dir.resolve("bin"));
        tool("squeue", "exit 0");
        tool("scontrol", "echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1");
        tool("sinfo", "echo 'PARTITION|TIMELIMIT|NODES|CPUS|MEMORY|GRES|AVAIL'; echo 'cpu*|2:00:00|1|2|4000|(null)|up'");
    }

    void tool(String name, String body) throws IOException {
        Path p = bin.resolve(name);
        Files.writeString(p, "#!/bin/bash\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** sacct answering --version, and printing {@code file} for any other call. */
    void sacctPrints(Path file) throws IOException {
        tool("sacct", "if [ \"$1\" = --version ]; then echo 'slurm-wlm 22.05.8'; exit 0; fi\n/bin/cat '" + file + "'");
    }

    CliTest.Result run(String... args) {
        Map<String, String> env = new HashMap<>(Map.of("SLURMWISE_BACKEND", "real", "PATH", bin.toString(),
                "SLURMWISE_HOME", dir.resolve("home").toString(), "SLURMWISE_EMBEDDINGS", "hash"));
        return CliTest.run(env, false, args);
    }

    static void oneCleanLine(CliTest.Result r) {
        assertThat(StderrText.messages(r.err())).as(r.err()).hasSize(1);
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("\u001b")
                .doesNotContain("\u0007").doesNotContain("internal error");
    }

    @Test
    void garbageFromSacctIsABackendErrorWithAPrintableExcerpt() throws IOException {
        Path junk = dir.resolve("junk");
        Files.write(junk, "\u001b]0;owned\u0007\u001b[2J\u0000\u00ff binary\nmore".getBytes(StandardCharsets.ISO_8859_1));
        sacctPrints(junk);
        CliTest.Result r = run("jobs", "--since", "2026-11-01", "--until", "2026-11-30");
        assertThat(r.code()).isEqualTo(ExitCodes.BACKEND);
        oneCleanLine(r);
        assertThat(StderrText.text(r.err())).contains("printed something that is not sacct -P output").contains("\\x1b]0;owned\\x07")
                .contains("sacct --version");
    }

    @Test
    void aJobWhoseRowWasCutIsNeverCalledUnknown() throws IOException {
        sacctPrints(Files.writeString(dir.resolve("cut.psv"), HEADER + "\n" + ROW.substring(0, 70) + "\n"));
        CliTest.Result r = run("diagnose", "4711");
        assertThat(r.code()).isEqualTo(ExitCodes.BACKEND);
        oneCleanLine(r);
        assertThat(StderrText.text(r.err())).contains("1 row of job 4711 that slurmwise could not read (line 2: `4711|train|alice|")
                .doesNotContainIgnoringCase("not known").doesNotContainIgnoringCase("unknown job");
    }

    @Test
    void cutRowsOfAWindowAreToldBesideTheJobsThatCouldBeRead() throws IOException {
        sacctPrints(Files.writeString(dir.resolve("window.psv"), HEADER + "\n" + ROW + "\n"
                + ROW.replace("4711", "4712").substring(0, 50) + "\n"));
        CliTest.Result r = run("jobs", "--since", "2026-11-01", "--until", "2026-11-30");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("4711").doesNotContain("4712");
        assertThat(StderrText.text(r.err())).contains("printed 1 row of the window that slurmwise could not read (line 3: `4712|")
                .contains("left out").contains("rerun");
    }

    @Test
    void doctorSaysWhatIsWrongWithACutOrBinarySinfo() throws IOException {
        sacctPrints(Files.writeString(dir.resolve("window.psv"), HEADER + "\n"));
        tool("sinfo", "echo 'PARTITION|TIMELIMIT|NODES|CPUS|MEMORY|GRES|AVAIL'; echo 'cpu*|2:00:00|1|2|4000|(nu'");
        assertThat(controller(run("doctor", "--json"))).startsWith("warn:").contains("that are no partition")
                .contains("`cpu*|2:00:00|1|2|4000|(nu`").contains("cut short");
        tool("sinfo", "printf '\\x00\\x01\\xff\\x1b[31mPK\\x03\\x04'");
        assertThat(controller(run("doctor", "--json"))).startsWith("warn:").contains("no header (first line: `\\x00\\x01")
                .doesNotContain("\u001b");
    }

    @Test
    void cutRowsOfAnExportAreCountedWithTheFirstOne() throws IOException {
        Path export = Files.writeString(dir.resolve("export.psv"), HEADER + "\n" + ROW + "\n" + ROW.substring(0, 30) + "\n");
        CliTest.Result r = run("stats", "--input", export.toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(StderrText.text(r.err())).contains("1 row of the export could not be read and is left out (first: " + export
                + ": `" + ROW.substring(0, 30) + "`)");
    }

    private static String controller(CliTest.Result r) throws IOException {
        JsonNode j = new ObjectMapper().readTree(r.out());
        for (JsonNode c : j.get("checks")) {
            if (c.get("name").asText().equals("controller")) {
                return c.get("status").asText() + ": " + c.get("detail").asText();
            }
        }
        throw new AssertionError("no controller check in " + r.out());
    }
}
