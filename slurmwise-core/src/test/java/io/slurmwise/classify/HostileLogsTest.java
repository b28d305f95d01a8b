package io.slurmwise.classify;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.backend.LogTails;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hostile logs of issue 16, kept right: a 50 MB line, 20 MB of random bytes, NULs, invalid UTF-8, CRLF line ends
 * and 100k ANSI progress lines, each ending with the line that decides the cause. Read from a file and from a stream
 * as {@code classify} does, each is classified without an error, to the planted cause, with bounded output. How
 * fast is measured by scripts/bench/hostile-logs.sh (medians), not here.
 */
class HostileLogsTest {

    static final String CAUSE = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n";

    /** One hostile log each; {@link #write} makes its bytes, the planted cause last. */
    enum Hostile {
        LINE_50MB, RANDOM_20MB, NULS, INVALID_UTF8, CRLF, ANSI_PROGRESS_100K;

        void write(OutputStream o) throws IOException {
            Random r = new Random(16);
            byte[] block = new byte[1 << 20];
            switch (this) {
                case LINE_50MB -> {
                    java.util.Arrays.fill(block, (byte) 'A');
                    for (int i = 0; i < 50; i++) {
                        o.write(block);
                    }
                    o.write(' ');
                }
                case RANDOM_20MB -> {
                    for (int i = 0; i < 20; i++) {
                        r.nextBytes(block);
                        o.write(block);
                    }
                    o.write('\n');
                }
                case NULS -> {
                    for (int i = 0; i < 8; i++) {
                        o.write(block); // zeros
                    }
                    o.write("\0\0step 1\0\n".getBytes(StandardCharsets.UTF_8));
                }
                case INVALID_UTF8 -> {
                    byte[] bad = {(byte) 0xc3, 0x28, (byte) 0xa0, (byte) 0xa1, (byte) 0xe2, 0x28, (byte) 0xa1,
                            (byte) 0xf0, 0x28, (byte) 0x8c, (byte) 0xbc, (byte) 0xff, (byte) 0xfe, (byte) 0xed,
                            (byte) 0xa0, (byte) 0x80, '\n'};
                    for (int i = 0; i < 100_000; i++) {
                        o.write(bad);
                    }
                }
                case CRLF -> {
                    for (int i = 0; i < 100_000; i++) {
                        o.write(("epoch " + i + " loss 0.25\r\n").getBytes(StandardCharsets.UTF_8));
                    }
                }
                case ANSI_PROGRESS_100K -> {
                    for (int i = 0; i < 100_000; i++) {
                        int pct = i % 101;
                        o.write(("\u001b[2K\r\u001b[32m" + pct + "%|" + "#".repeat(pct / 5) + " ".repeat(20 - pct / 5)
                                + "|\u001b[0m " + i + "/100000 [00:01<00:00, 812.3it/s]\n").getBytes(StandardCharsets.UTF_8));
                    }
                }
                default -> throw new IllegalStateException(name());
            }
            o.write((this == CRLF ? CAUSE.replace("\n", "\r\n") : CAUSE).getBytes(StandardCharsets.UTF_8));
        }
    }

    static final Classifier CLASSIFIER = ClassifierTest.CLASSIFIER;

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Hostile.class)
    void eachHostileLogIsClassifiedToItsPlantedCauseWithBoundedOutput(Hostile h) throws IOException {
        Path file = dir.resolve(h.name().toLowerCase() + ".err");
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
            h.write(o);
        }
        LogTail fromFile = LogTails.read(file, LogStream.STDERR, 300);
        assertBounded(h, fromFile, Files.size(file));
        // the same bytes through standard input (classify -) keep the same tail
        LogTail fromStream = LogTails.ofStream(LogStream.STDERR, "<stdin>", new ByteArrayInputStream(Files.readAllBytes(file)), 300);
        assertThat(fromStream.content()).isEqualTo(fromFile.content());
        assertBounded(h, fromStream, Files.size(file));
    }

    private static void assertBounded(Hostile h, LogTail t, long size) {
        assertThat(t.problem()).isNull();
        assertThat(t.fileSize()).isEqualTo(size);
        assertThat(t.content().length).isLessThanOrEqualTo(LogTails.MAX_TAIL_BYTES);
        assertThat(t.lines().size()).isLessThanOrEqualTo(300);
        Finding f = CLASSIFIER.classify(JobFacts.NONE, List.of(t));
        assertThat(f.kindId()).as(h.name()).isEqualTo("cuda_oom");
        assertThat(f.evidence()).isNotEmpty().hasSizeLessThanOrEqualTo(50);
        assertThat(f.evidence()).allSatisfy(e -> assertThat(e.text().length()).isLessThanOrEqualTo(Evidence.MAX_TEXT + 3));
        // a 50 MB line's evidence is the part around what matched, not its first Evidence.MAX_TEXT characters
        assertThat(f.evidence().get(0).text()).contains("CUDA out of memory");
        assertThat(f.evidence().get(0).match()).isNotNull();
        assertThat(f.evidence().get(0).text()).contains(f.evidence().get(0).match());
    }
}
