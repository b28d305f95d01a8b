package io.slurmwise.stats;

import io.slurmwise.backend.JobQuery;
import io.slurmwise.testing.Streams;
import org.junit.jupiter.api.Test;

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
                .run(List.of(ExportStats.Source.of("big.psv", () -> Streams.concat(
                        Streams.utf8(head), Streams.endlessLine(40L << 20), Streams.utf8(tail)))),
                        new JobQuery(null, null, null, null, true, null));
        assertThat(r.counts().jobs()).isEqualTo(3);
        assertThat(r.counts().malformed()).isEqualTo(1);
        assertThat(r.counts().firstMalformed()).startsWith("a line longer than");
        assertThat(r.stats().report().total().failed()).isEqualTo(2);
    }
}
