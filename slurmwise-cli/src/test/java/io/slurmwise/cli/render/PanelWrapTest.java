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
}
