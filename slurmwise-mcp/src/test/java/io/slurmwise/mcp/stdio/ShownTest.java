package io.slurmwise.mcp.stdio;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What the server quotes back of a client's text, or shows of a log in a text form, cannot steer a terminal. */
class ShownTest {

    @Test
    void steeringCharactersAndLoneSurrogatesAreShownAsQuestionMarks() {
        assertThat(Shown.oneLine("\u001b]0;pwned\u0007 1\u202e\u2066x\u2028y\u0000")).isEqualTo("?]0;pwned? 1??x?y?");
        assertThat(Shown.oneLine("a\ud800b\udc00c\ud83d\ude00")).isEqualTo("a?b?c\ud83d\ude00");
        assertThat(Shown.oneLine("two\nlines\tand a tab")).isEqualTo("two?lines?and a tab");
        assertThat(Shown.oneLine(null)).isEmpty();
    }

    @Test
    void linesKeepTheirBreaksTabsAndACrlfAsOneBreak() {
        assertThat(Shown.lines("step 1\r\nstep 2\tok\n\u001b[31mKilled\u001b[0m\r")).isEqualTo("step 1\nstep 2\tok\n"
                + "?[31mKilled?[0m?");
        assertThat(Shown.lines("é, 中文, 🙂")).isEqualTo("é, 中文, 🙂");
    }
}
