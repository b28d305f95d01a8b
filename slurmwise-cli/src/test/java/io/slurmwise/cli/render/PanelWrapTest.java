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

    @Test
    void aLongWordWithLettersAfterTheCutIsStillBrokenWhereTheLineEnds() {
        String url = "https://example.org/" + "a".repeat(80);
        List<String> lines = Panel.wrap(url, 40);
        assertThat(lines.get(0)).hasSize(40);
        assertThat(String.join("", lines)).isEqualTo(url);
    }
}
