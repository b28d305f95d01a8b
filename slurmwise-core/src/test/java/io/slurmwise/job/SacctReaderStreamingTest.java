package io.slurmwise.job;

import io.slurmwise.testing.Streams;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The reader's I/O shape: a per-line bound instead of a total one, and rows it skips named for messages. */
class SacctReaderStreamingTest {

    static final String HEADER = "JobID|JobName|State|ExitCode";

    static InputStream bytes(String s) {
        return Streams.utf8(s);
    }

    @Test
    void aLineBeyondTheBoundIsSkippedAndCountedAndTheRowsAfterItAreRead() {
        InputStream in = Streams.concat(
                bytes(HEADER + "\n1|a|FAILED|1:0\n"), Streams.endlessLine(64L << 20), bytes("\n2|b|COMPLETED|0:0\n"));
        try (SacctReader r = SacctReader.open(in)) {
            List<String> ids = SacctReader.toStream(r).map(j -> j.id().toString()).toList();
            assertThat(ids).containsExactly("1", "2");
            assertThat(r.malformedRows()).isEqualTo(1);
            assertThat(r.firstMalformedRow()).isEqualTo("line 3: a row longer than 1 MiB");
        }
    }

    @Test
    void theFirstSkippedRowIsNamedByLineWithControlCharactersShown() {
        String text = HEADER + "\n1|a|FAILED|1:0\n2|b\u001b]0;x\u0007|FAILED\n3|c|FAILED|1:0\n4|d\n";
        try (SacctReader r = SacctReader.open(bytes(text))) {
            assertThat(SacctReader.toStream(r).map(j -> j.id().toString()).toList()).containsExactly("1", "3");
            assertThat(r.malformedRows()).isEqualTo(2);
            assertThat(r.firstMalformedRow()).isEqualTo("line 3: `2|b\\x1b]0;x\\x07|FAILED`");
        }
    }

    @Test
    void aHeaderThatIsNoSacctHeaderIsSaidPrintably() {
        assertThatThrownBy(() -> SacctReader.open(bytes("\u001b[2J\u0000garbage\nmore\n")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no JobID column").hasMessageContaining("\\x1b[2J\\x00garbage")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\u001b").doesNotContain("\u0000"));
        assertThatThrownBy(() -> SacctReader.open(Streams.endlessLine(3L << 20)))
                .hasMessageContaining("its first line is longer than 1 MiB");
    }

    @Test
    void excerptsAreShortAndPrintable() {
        assertThat(Excerpt.of("a\tb\u009bc\uFFFD", 80)).isEqualTo("a\\x09b\\x9bc?");
        assertThat(Excerpt.of("x".repeat(200), 10)).isEqualTo("xxxxxxxxxx...");
        assertThat(Excerpt.of("\uD83D\uDE00 ok \uD83D", 80)).isEqualTo("\uD83D\uDE00 ok ?");
    }
}
