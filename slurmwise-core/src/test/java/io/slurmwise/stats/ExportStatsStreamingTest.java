package io.slurmwise.stats;

import io.slurmwise.backend.JobQuery;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** An export's lines are bounded, not its size: a line longer than any block is dropped and counted, never held. */
class ExportStatsStreamingTest {

    @Test
    void aLineLongerThanABlockIsSkippedAndTheRestIsRead() {
        String head = "JobID|JobName|State|ExitCode|Elapsed|AllocCPUS\n1|a|FAILED|1:0|01:00:00|4\n";
        String tail = "\n2|b|COMPLETED|0:0|01:00:00|4\n3|c|FAILED|1:0|01:00:00|4\n";
        FleetScan scan = ExportStatsTest.scan();
        ExportStats.Result r = ExportStats.builder(scan::newStats, scan::add).threads(2).blockSize(1 << 10).build()
                .run(List.of(ExportStats.Source.of("big.psv", () -> new SequenceInputStream(
                        java.util.Collections.enumeration(List.of(bytes(head),
                                Endless.endless(40L << 20), bytes(tail)))))),
                        new JobQuery(null, null, null, null, true, null));
        assertThat(r.counts().jobs()).isEqualTo(3);
        assertThat(r.counts().malformed()).isEqualTo(1);
        assertThat(r.counts().firstMalformed()).startsWith("a line longer than");
        assertThat(r.stats().report().total().failed()).isEqualTo(2);
    }

    static InputStream bytes(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }

    /** A line of 'x' made as it is read. */
    static final class Endless {
        static InputStream endless(long n) {
            return new InputStream() {
                long left = n;

                @Override
                public int read() {
                    return left-- > 0 ? 'x' : -1;
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    if (left <= 0) {
                        return -1;
                    }
                    int k = (int) Math.min(len, left);
                    java.util.Arrays.fill(b, off, off + k, (byte) 'x');
                    left -= k;
                    return k;
                }
            };
        }
    }
}
