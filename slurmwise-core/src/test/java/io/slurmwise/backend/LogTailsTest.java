package io.slurmwise.backend;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class LogTailsTest {

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void smallFilesAreReadWholeWithFileLineNumbers() throws IOException {
        LogTail t = LogTails.read(write("a.log", "one\ntwo\nthree\n"), LogStream.STDOUT, 10);
        assertThat(t.lines()).containsExactly("one", "two", "three");
        assertThat(t.firstLine()).isEqualTo(1);
        assertThat(t.problem()).isNull();
    }

    @Test
    void keepsOnlyTheLastLines() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= 1000; i++) {
            sb.append("line ").append(i).append('\n');
        }
        LogTail t = LogTails.read(write("b.log", sb.toString()), LogStream.STDERR, 3);
        assertThat(t.lines()).containsExactly("line 998", "line 999", "line 1000");
        assertThat(t.firstLine()).isZero(); // the tail does not reach the file's start
        LogTail noTrailingNewline = LogTails.read(write("c.log", "a\nb\nc"), LogStream.STDERR, 2);
        assertThat(noTrailingNewline.lines()).containsExactly("b", "c");
    }

    @Test
    void aHugeSparseFileCostsOnlyItsTail() throws IOException {
        // a 10 GB sparse file: reading its tail must not touch the rest
        Path p = dir.resolve("huge.log");
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            byte[] end = "\nalmost done\nCUDA out of memory\n".getBytes(StandardCharsets.UTF_8);
            f.setLength(10L << 30);
            f.seek((10L << 30) - end.length);
            f.write(end);
        }
        LogTail t = LogTails.read(p, LogStream.STDERR, 2);
        assertThat(t.lines()).containsExactly("almost done", "CUDA out of memory");
        assertThat(t.fileSize()).isEqualTo(10L << 30);
    }

    @Test
    void oneEndlessLineIsCutAtTheByteBound() throws IOException {
        Path p = write("long.log", "x".repeat(LogTails.MAX_TAIL_BYTES + 1000) + "\nend\n");
        LogTail t = LogTails.read(p, LogStream.STDERR, 5);
        assertThat(t.content().length).isLessThanOrEqualTo(LogTails.MAX_TAIL_BYTES);
        assertThat(t.lines()).last().isEqualTo("end");
    }

    @Test
    void invalidUtf8IsReplacedNotFatal() throws IOException {
        Path p = dir.resolve("bin.log");
        Files.write(p, new byte[] {'o', 'k', '\n', (byte) 0xff, (byte) 0xc3, '(', '\n'});
        assertThat(LogTails.read(p, LogStream.STDOUT, 10).lines()).containsExactly("ok", "\ufffd\ufffd(");
    }

    @Test
    void missingFilesAndDirectoriesAreProblemsNotExceptions() {
        assertThat(LogTails.read(dir.resolve("nope.log"), LogStream.STDOUT, 10).problem()).contains("does not exist")
                .contains("moved, deleted").doesNotContain("nor does its directory");
        // a log whose directory was never made: SLURM does not make it (a FAILED 0:53 job never wrote its log)
        assertThat(LogTails.read(dir.resolve("logs/run-7.out"), LogStream.STDOUT, 10).problem())
                .isEqualTo(dir.resolve("logs/run-7.out") + " does not exist, nor does its directory " + dir.resolve("logs")
                        + " on this host (SLURM does not create the directory of --output and --error; or it is on a file"
                        + " system this host does not mount)");
        assertThat(LogTails.read(dir, LogStream.STDOUT, 10).problem()).contains("is a directory");
    }

    @Test
    void inMemoryTailsMatchFileTails() {
        LogTail t = LogTails.ofBytes(LogStream.STDOUT, "x", "a\nb\nc\n".getBytes(StandardCharsets.UTF_8), 2);
        assertThat(t.lines()).containsExactly("b", "c");
        assertThat(LogTails.ofBytes(LogStream.STDOUT, "x", "a\nb\n".getBytes(StandardCharsets.UTF_8), 5).firstLine()).isEqualTo(1);
    }

    @Test
    void aTailIsDecodedOnceAndItsViewsAreShared() {
        LogTail t = LogTail.of(LogStream.STDERR, "job.err", "step 1/10\r\nstep 2/10\n\nKilled  \n\n");
        assertThat(t.lines()).containsExactly("step 1/10", "step 2/10", "", "Killed  ", "");
        // the same decoded list for every reader (classifier, fixers, renderer), and it cannot be changed
        assertThat(t.lines()).isSameAs(t.lines());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.lines().add("x"))
                .isInstanceOf(UnsupportedOperationException.class);
        LogTail.LastLine last = t.lastLine().orElseThrow();
        assertThat(last.text()).isEqualTo("Killed");
        assertThat(t.lineIndexAt(last.offset())).isEqualTo(3);
        assertThat(t.lastLine()).isSameAs(t.lastLine());
        assertThat(LogTail.of(LogStream.STDOUT, null, " \n\t\n").lastLine()).isEmpty();
    }

    @Test
    void theLastLineViewKeepsOnlyTheEndOfAnEndlessLine() {
        String endless = "x".repeat(3 * LogTail.LAST_LINE_WINDOW) + " Killed";
        LogTail t = LogTail.of(LogStream.STDOUT, null, "first\n" + endless + "\n");
        LogTail.LastLine last = t.lastLine().orElseThrow();
        assertThat(last.text()).hasSize(LogTail.LAST_LINE_WINDOW).endsWith(" Killed");
        assertThat(t.lineIndexAt(last.offset())).isEqualTo(1);
    }
}
