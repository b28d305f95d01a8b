package io.slurmwise.cli.render;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A log line in a narrow column: its deciding words shown, never read as Markdown. */
class LogLineTest {

    private static final String HDF5 = ", filename = '/tmp/erik_1026/tas_day_EC-Earth3_ssp585_r1i1p1f1_gr_regrid_2071.nc',"
            + " file descriptor = 17, errno = 28, error message = 'No space left on device', buf = 0x2b1e4c000040,"
            + " total write size = 8388608, bytes this sub-write = 8388608, offset = 0";

    @Test
    void theMatchIsShownWhenTheLineIsTooLong() {
        String shown = Panel.logLine(HDF5, "No space left on device", 61, 2);
        assertThat(shown.lines()).hasSize(2).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(61));
        assertThat(shown.replace("\n", " ")).contains("No space left on device").startsWith("…").endsWith("…");
        // without a match: the line's start, cut at its end
        String plain = Panel.logLine(HDF5, null, 61, 2);
        assertThat(plain).startsWith(", filename =").endsWith("…").doesNotContain("No space");
    }

    /** A line ending in a short reason keeps it and loses its middle: 1010's "Permission denied" (an outside audit). */
    @Test
    void aShortReasonAtTheEndIsKeptAndTheMiddleCut() {
        String mkdir = "mkdir: cannot create directory '/projects/vision-lab/shared/coco2017/panoptic_cache': Permission denied";
        for (String match : new String[] {"cannot create directory", "Permission denied"}) {
            String shown = Panel.logLine(mkdir, match, 61, 2);
            assertThat(shown.lines()).hasSize(2).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(61));
            assertThat(shown).startsWith("mkdir: cannot create directory").endsWith("… Permission denied")
                    .contains("'/projects/vision-lab/");
        }
        // the match is never cut for a reason, and a long tail is no reason
        assertThat(Panel.logLine("x".repeat(30) + " " + "y".repeat(100) + ": Permission denied", "y".repeat(100), 61, 2))
                .doesNotContain("Permission denied");
        assertThat(Panel.logLine(HDF5, "No space left on device", 61, 2)).doesNotContain("offset = 0");
        // a closing parenthesis keeps the last parts of its path: 1037's library
        String glibcxx = "ImportError: /lib64/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by "
                + "/home/erik/.conda/envs/regrid2/lib/libesmf.so)";
        String lib = Panel.logLine(glibcxx, "version `GLIBCXX_3.4.29' not found", 61, 2);
        assertThat(lib.lines()).hasSize(2).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(61));
        assertThat(lib.replace("\n", " ")).contains("version `GLIBCXX_3.4.29' not found").contains("(required by …/").endsWith("/regrid2/lib/libesmf.so)");
        // a parenthesis without a path is no reason: the path before it stays
        String quota = "OSError: [Errno 122] Disk quota exceeded: '/scratch/erik/cmip6/out/tas_day_EC-Earth3_ssp585_r1i1p1f1_gr.nc'"
                + " (attempt 1/20)";
        assertThat(Panel.logLine(quota, "Disk quota exceeded", 61, 2)).doesNotContain("… (attempt");
    }

    @Test
    void aBacktickIsNoInlineCode() {
        String glibcxx = "ImportError: /lib64/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by "
                + "/home/erik/.conda/envs/regrid2/lib/libesmf.so)";
        String shown = Panel.logLine(glibcxx, "version `GLIBCXX_3.4.29' not found", 61, 2);
        assertThat(shown.lines()).hasSize(2).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(61));
        assertThat(shown.lines().findFirst().orElseThrow()).endsWith("`GLIBCXX_3.4.29'");
        assertThat(shown.replace("\n", " ")).contains("version `GLIBCXX_3.4.29' not found");
    }

    @Test
    void aLineThatFitsIsAsItIs() {
        assertThat(Panel.logLine("Killed", "Killed", 61, 1)).isEqualTo("Killed");
        assertThat(Panel.logLine("a ".repeat(40).strip(), null, 61, 2).lines()).hasSize(2);
        // a word wider than the line (a path) is broken where it must
        assertThat(Panel.logLine("/" + "p".repeat(150), null, 61, 3).lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(61));
    }

    @Test
    void aNarrowCellStartsNearTheMatch() {
        assertThat(Panel.fromMatch(HDF5, "No space left on device", 24)).startsWith("…'No space left on device'");
        assertThat(Panel.fromMatch("CUDA out of memory. Tried", "CUDA out of memory", 24)).isEqualTo("CUDA out of memory. Tried");
        assertThat(Panel.fromMatch("Killed", null, 24)).isEqualTo("Killed");
    }

    @Test
    void inlineCodeIsOneWordAndALoneBacktickIsACharacter() {
        assertThat(Panel.words("run `srun --mem=4G prog` now")).containsExactly("run", "`srun --mem=4G prog`", "now");
        // a message with a GNU-style quote inside a code span is one span
        assertThat(Panel.words("For `version `GLIBCXX_3.4.29' not found`: put it first"))
                .containsExactly("For", "`version `GLIBCXX_3.4.29' not found`:", "put", "it", "first");
        // a log line's quote opens no code: the words after it wrap
        assertThat(Panel.words("version `GLIBCXX_3.4.29' not found (required by x)"))
                .containsExactly("version", "`GLIBCXX_3.4.29'", "not", "found", "(required", "by", "x)");
        String quoted = "\"ImportError: /lib64/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by "
                + "/home/erik/.conda/envs/regrid2/lib/libesmf.so).\"";
        java.util.List<String> lines = Panel.wrap(quoted, 60);
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(60));
        assertThat(String.join(" ", lines)).as("broken between words only").isEqualTo(quoted);
    }
}
