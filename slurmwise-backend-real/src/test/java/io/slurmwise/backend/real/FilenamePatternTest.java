package io.slurmwise.backend.real;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FilenamePatternTest {

    /** Rows of filename-patterns.tsv: a pattern, the job it belonged to, and the file SLURM 22.05 really wrote. */
    static List<String[]> realCases() throws IOException {
        List<String[]> rows = new ArrayList<>();
        try (InputStream in = FilenamePatternTest.class.getResourceAsStream("/slurm-22.05/filename-patterns.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#") || line.startsWith("source\t")) {
                    continue;
                }
                rows.add(line.split("\t", -1));
            }
        }
        return rows;
    }

    static FilenamePattern.Context ctx(String[] r, boolean modulo) {
        return new FilenamePattern.Context(Long.parseLong(r[1]), r[2].equals("-") ? null : Long.valueOf(r[2]),
                r[3].equals("-") ? null : Long.valueOf(r[3]), r[4], r[5], r[6], r[7], modulo);
    }

    @Test
    void expandsExactlyAsSlurm2205NamedTheRealFiles() throws IOException {
        List<String[]> rows = realCases();
        assertThat(rows).hasSizeGreaterThanOrEqualTo(10);
        for (String[] r : rows) {
            assertThat(FilenamePattern.expand(r[8], ctx(r, false))).as(r[0] + " " + r[8]).isEqualTo(r[9]);
        }
    }

    static FilenamePattern.Context plain(long id) {
        return new FilenamePattern.Context(id, null, null, "train", "alice", "gpu03", "/scratch/alice/run", false);
    }

    @Test
    void paddingNumbersAndLiterals() {
        assertThat(FilenamePattern.expand("%4j-%2t-%3n.%x", plain(7))).isEqualTo("/scratch/alice/run/0007-00-000.train");
        assertThat(FilenamePattern.expand("%12j", plain(7))).as("padding is capped at 10").isEqualTo("/scratch/alice/run/0000000007");
        assertThat(FilenamePattern.expand("/abs/%u/%N/%%j-%j%", plain(42))).isEqualTo("/abs/alice/gpu03/%j-42%");
        assertThat(FilenamePattern.expand("a%qb%4Zc", plain(42))).as("unknown letters stay").isEqualTo("/scratch/alice/run/a%qb%4Zc");
        assertThat(FilenamePattern.expand("out-%s.log", plain(1))).isEqualTo("/scratch/alice/run/out-batch.log");
    }

    @Test
    void arrayTasksAndTheModuloPatternOfNewerReleases() {
        FilenamePattern.Context task = new FilenamePattern.Context(4250, 4242L, 13L, "sweep", "bob", "n1", "/w", true);
        assertThat(FilenamePattern.expand("%x-%A_%a.out", task)).isEqualTo("/w/sweep-4242_13.out");
        assertThat(FilenamePattern.expand("%A_%4a_%j_%b", task)).isEqualTo("/w/4242_0013_4250_3");
        FilenamePattern.Context old = new FilenamePattern.Context(4250, 4242L, 13L, "sweep", "bob", "n1", "/w", false);
        assertThat(FilenamePattern.expand("%A_%b", old)).as("22.05 leaves %b").isEqualTo("/w/4242_%b");
    }

    @Test
    void aBackslashTurnsExpansionOff() {
        assertThat(FilenamePattern.expand("/logs/job\\%j.out", plain(9))).isEqualTo("/logs/job%j.out");
        assertThat(FilenamePattern.expand("/logs/a\\\\b-%j", plain(9))).isEqualTo("/logs/a\\b-%j");
    }

    @Test
    void unknownValuesLeaveTheirPatternAndNoWorkDirLeavesItRelative() {
        FilenamePattern.Context bare = new FilenamePattern.Context(5, null, null, "n", null, null, null, false);
        assertThat(FilenamePattern.expand("%u-%N-%j.out", bare)).isEqualTo("%u-%N-5.out");
    }

    @Test
    void firstHostOfAHostlist() {
        assertThat(FilenamePattern.firstHost("vm")).isEqualTo("vm");
        assertThat(FilenamePattern.firstHost("gpu[03-05,07],cpu1")).isEqualTo("gpu03");
        assertThat(FilenamePattern.firstHost("cpu1,gpu[03-05]")).isEqualTo("cpu1");
        assertThat(FilenamePattern.firstHost("node[7]")).isEqualTo("node7");
        assertThat(FilenamePattern.firstHost("None assigned")).isNull();
        assertThat(FilenamePattern.firstHost("")).isNull();
    }
}
