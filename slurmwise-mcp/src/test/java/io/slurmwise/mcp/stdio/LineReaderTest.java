package io.slurmwise.mcp.stdio;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class LineReaderTest {

    static String text(LineReader.Frame f) {
        assertThat(f).isInstanceOf(LineReader.Line.class);
        LineReader.Line l = (LineReader.Line) f;
        return new String(l.bytes(), 0, l.length(), StandardCharsets.UTF_8);
    }

    /** Hands out one byte per read, so every line crosses buffer boundaries. */
    static InputStream trickle(byte[] bytes) {
        return new FilterInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, 1));
            }
        };
    }

    @Test
    void splitsLinesDropsCarriageReturnsAndKeepsALastLineWithoutNewline() throws IOException {
        for (boolean slow : new boolean[] {false, true}) {
            byte[] in = "{\"a\":1}\r\n\n  \nlast".getBytes(StandardCharsets.UTF_8);
            LineReader r = new LineReader(slow ? trickle(in) : new ByteArrayInputStream(in), 1024);
            assertThat(text(r.next())).isEqualTo("{\"a\":1}");
            assertThat(r.endedWithoutNewline()).isFalse();
            assertThat(text(r.next())).isEmpty();
            assertThat(text(r.next())).isEqualTo("  ");
            assertThat(r.endedWithoutNewline()).isFalse();
            assertThat(text(r.next())).isEqualTo("last");
            assertThat(r.endedWithoutNewline()).as("cut by the end of input").isTrue();
            assertThat(r.next()).isInstanceOf(LineReader.End.class);
        }
    }

    @Test
    void aLineOverTheCapIsSkippedKeepingItsHeadAndTheNextLineIsWhole() throws IOException {
        String huge = "{\"id\":7," + "x".repeat(200_000) + "}";
        byte[] in = (huge + "\nafter\n" + "y".repeat(1024) + "\n").getBytes(StandardCharsets.UTF_8);
        LineReader r = new LineReader(new ByteArrayInputStream(in), 1024);
        LineReader.Frame f = r.next();
        assertThat(f).isInstanceOf(LineReader.TooLong.class);
        LineReader.TooLong t = (LineReader.TooLong) f;
        assertThat(t.length()).isEqualTo(huge.length());
        assertThat(t.head().length).as("no more than the cap is kept").isEqualTo(1024);
        assertThat(new String(t.head(), StandardCharsets.UTF_8)).startsWith("{\"id\":7,xxx");
        assertThat(text(r.next())).isEqualTo("after");
        assertThat(text(r.next()).length()).as("exactly the cap is still a line").isEqualTo(1024);
        assertThat(r.next()).isInstanceOf(LineReader.End.class);
    }

    @Test
    void anUnterminatedHugeLineAtTheEndIsReportedAsTooLong() throws IOException {
        LineReader r = new LineReader(trickle("z".repeat(5000).getBytes(StandardCharsets.UTF_8)), 1024);
        assertThat(r.next()).isInstanceOf(LineReader.TooLong.class);
        assertThat(r.next()).isInstanceOf(LineReader.End.class);
    }
}
