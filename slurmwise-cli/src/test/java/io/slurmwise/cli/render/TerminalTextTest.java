package io.slurmwise.cli.render;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class TerminalTextTest {

    @Test
    void colourIsDroppedAndEveryOtherControlShownEscaped() {
        assertThat(TerminalText.line("\u001b]52;c;aGk=\u0007x\u001b[1;31mred\u001b[0m\u009b2J\u202eabc\rz\u007f"))
                .isEqualTo("\\x1b]52;c;aGk=\\x07xred\\x9b2J\\u202eabc\\rz\\x7f");
        assertThat(TerminalText.line("a\nb\tc")).isEqualTo("a\\nb c");
        assertThat(TerminalText.text("a\r\nb\nc")).isEqualTo("a\nb\nc");
        assertThat(TerminalText.line("plain café ✓")).isSameAs(TerminalText.line("plain café ✓"));
        assertThat(TerminalText.line(null)).isNull();
    }

    private static String through(boolean colour, String... writes) {
        StringWriter sink = new StringWriter();
        PrintWriter w = TerminalWriter.wrap(new PrintWriter(sink), () -> colour);
        for (String s : writes) {
            w.print(s);
        }
        w.flush();
        return sink.toString();
    }

    @Test
    void theWriterLetsOurColoursThroughOnlyWhenColourIsOn() {
        String ours = "\u001b[1mbold\u001b[0m";
        assertThat(through(true, ours)).isEqualTo(ours);
        assertThat(through(false, ours)).isEqualTo("bold");
        // a sequence split across writes is still recognised
        assertThat(through(true, "\u001b", "[3", "1mx\u001b[0m")).isEqualTo("\u001b[31mx\u001b[0m");
        assertThat(through(true, "\u001b]0;t\u0007", "\u001b[2J")).isEqualTo("\\x1b]0;t\\x07\\x1b[2J");
        assertThat(through(false, "csv\r\n", "a\rb", "\u009b", "end\u001b")).isEqualTo("csv\r\na\\rb\\x9bend\\x1b");
        assertThat(through(false, "é ✓ \t\n")).isEqualTo("é ✓ \t\n");
    }
}
