package io.slurmwise.cli.render;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Wrapping never starts a line with the bare punctuation that followed a span too wide for a line. */
class PanelWrapTest {

    @Test
    void aSpanWiderThanTheLineIsNotCutBeforeItsTrailingComma() {
        String text = "point this one at the new run (`scontrol update JobId=<jobid> Dependency=afterok:<new jobid>`),"
                + " or cancel it";
        List<String> lines = Panel.wrap(text, 64);
        assertThat(lines).allSatisfy(l -> assertThat(l.strip()).doesNotStartWith(",").doesNotStartWith(")"));
        assertThat(String.join(" ", lines)).isEqualTo(text);
        assertThat(lines).allSatisfy(l -> assertThat(Panel.visibleLength(l)).isLessThanOrEqualTo(64));
    }

    /**
     * A command in a code span wider than the line goes on under {@code ↪}, as a diff line does: an outside audit
     * copied {@code wait $PI} and {@code D} from two lines that said nothing of being one.
     */
    @Test
    void aCommandCutInsideItsCodeSpanGoesOnUnderAnArrow() {
        String command = "`srun ./prog & PID=$!; trap 'kill -TERM $PID; wait $PID' TERM; wait $PID`";
        List<String> lines = Panel.wrap("run it in the background (" + command + "), and resume", 60);
        String joined = String.join("\n", lines);
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(60));
        assertThat(lines.stream().filter(l -> l.startsWith("↪ "))).isNotEmpty();
        // the pieces joined where the arrows are give the command back whole
        assertThat(joined.replace("\n↪ ", "").replace("\n", " ")).contains(command);
        // a URL outside code is broken as before, without an arrow
        assertThat(Panel.wrap("https://example.org/" + "a".repeat(80), 40)).noneMatch(l -> l.contains("↪"));
    }

    @Test
    void aLongWordWithLettersAfterTheCutIsStillBrokenWhereTheLineEnds() {
        String url = "https://example.org/" + "a".repeat(80);
        List<String> lines = Panel.wrap(url, 40);
        assertThat(lines.get(0)).hasSize(40);
        assertThat(String.join("", lines)).isEqualTo(url);
    }
    /**
     * An error for standard error wraps between words under the text after {@code slurmwise: }; a path or a command
     * wider than a line stays whole on a line of its own (copied from an error, a broken one is a wrong one).
     */
    @Test
    void anErrorWrapsUnderItsTextAndNeverBreaksAPathOrACommand() {
        String path = "/scratch/projects/climate-model/erik/cmip6/regrid/outputs/" + "tas_day_r360x180_".repeat(3) + ".nc";
        String text = "cannot read the mock fixtures in " + path + ": no such directory; set SLURMWISE_MOCK_DIR to a"
                + " folder holding sacct.psv, or run `sacct -P -a -S 2026-10-31 -E 2026-11-29 --format=JobID,State`";
        List<String> lines = Panel.message("slurmwise: ", text, 80);
        assertThat(lines.get(0)).startsWith("slurmwise: cannot read");
        assertThat(lines.subList(1, lines.size())).allSatisfy(l -> assertThat(l).startsWith(" ".repeat(11)));
        assertThat(lines).filteredOn(l -> l.contains(path)).singleElement().asString().isEqualTo(" ".repeat(11) + path + ":");
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("`sacct -P -a -S 2026-10-31 -E 2026-11-29"
                + " --format=JobID,State`"));
        // every line but the one a wider word needs fits; the words come back whole, in order
        assertThat(lines).filteredOn(l -> !l.contains(path)).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
        assertThat(String.join(" ", lines.stream().map(String::strip).toList())).isEqualTo("slurmwise: " + text);
        // a short one is left as it is
        assertThat(Panel.message("slurmwise: ", "job 42 is not known", 80)).containsExactly("slurmwise: job 42 is not known");
    }
}
