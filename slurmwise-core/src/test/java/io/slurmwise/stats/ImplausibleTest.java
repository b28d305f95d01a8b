package io.slurmwise.stats;

import io.slurmwise.job.JobRecord;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.time.LocalDateTime;

import static io.slurmwise.stats.Jobs.T0;
import static org.assertj.core.api.Assertions.assertThat;

/** Records whose times cannot be are set aside and counted, not added (an outside audit's fixture). */
class ImplausibleTest {

    static JobRecord ok(String id) {
        return Jobs.cpuJob(id, "FAILED", 1, 10);
    }

    @Test
    void timesThatCannotBeAreSaidWhy() {
        JobRecord j = ok("1");
        assertThat(Implausible.why(j)).isNull();
        // End before Start (no Elapsed: it would be 0, and the job "never started")
        assertThat(Implausible.why(j.toBuilder().start(T0.plusHours(12)).end(T0.plusHours(11)).elapsed(null).build()))
                .startsWith("End ").contains("before Start");
        // Start at the epoch, Elapsed empty: 56 years of CPUs
        assertThat(Implausible.why(j.toBuilder().start(LocalDateTime.of(1970, 1, 1, 0, 0)).elapsed(null).build()))
                .contains("before 2000");
        // Elapsed 1000 days between a Start and an End an hour apart
        assertThat(Implausible.why(j.toBuilder().elapsed(Duration.ofDays(1000)).build())).startsWith("Elapsed 1000-");
        // a clock change's hour more, and a suspended job's shorter Elapsed, can be
        assertThat(Implausible.why(j.toBuilder().elapsed(Duration.ofHours(2)).build())).isNull();
        assertThat(Implausible.why(j.toBuilder().elapsed(Duration.ofMinutes(5)).build())).isNull();
        // across the night the clocks go back (sacct prints wall-clock times): started 01:42 summer time, ran 34
        // minutes, ended 01:16 winter time; an End more than the hour before its Start, or an Elapsed that does not
        // fit the hour, cannot be
        LocalDateTime s = LocalDateTime.of(2026, 11, 1, 1, 42, 36);
        JobRecord autumn = j.toBuilder().start(s).end(s.minusMinutes(26).minusSeconds(13))
                .elapsed(Duration.ofMinutes(33).plusSeconds(47)).build();
        assertThat(Implausible.why(autumn)).isNull();
        assertThat(Implausible.why(autumn.toBuilder().elapsed(Duration.ofMinutes(50)).build())).contains("before Start");
        assertThat(Implausible.why(autumn.toBuilder().end(s.minusMinutes(70)).elapsed(Duration.ofMinutes(1)).build()))
                .contains("before Start");
        // a job still running: no End to compare with
        assertThat(Implausible.why(j.toBuilder().end(null).elapsed(Duration.ofDays(2)).build())).isNull();
        assertThat(Implausible.why(j.toBuilder().end(null).elapsed(Duration.ofDays(5000)).build())).isNotNull();
    }

    @Test
    void theyAreInNoFigureAndTheReportCountsThemThroughMergesAndEncoding() throws IOException {
        FleetStats a = FleetStats.builder().build();
        a.add(ok("1"), "unknown");
        a.add(ok("800002").toBuilder().elapsed(Duration.ofDays(1000)).build(), "unknown");
        FleetStats b = FleetStats.builder().build();
        b.add(ok("800007").toBuilder().start(LocalDateTime.of(1970, 1, 1, 0, 0)).elapsed(null).build(), "unknown");
        b.add(ok("2"), "unknown");
        FleetReport one = a.report();
        assertThat(one.total().jobs()).isEqualTo(1);
        assertThat(one.records()).isEqualTo(1);
        assertThat(one.total().wastedCpuHours()).isEqualTo(8.0);
        assertThat(one.implausibleRecords()).isEqualTo(1);
        assertThat(one.implausibleNote()).startsWith("1 implausible record left out (first: 800002 (Elapsed 1000-");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        b.writeTo(new DataOutputStream(bytes));
        FleetReport both = a.mergeFrom(new DataInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))).report();
        assertThat(both.total().jobs()).isEqualTo(2);
        assertThat(both.total().wastedCpuHours()).isEqualTo(16.0);
        assertThat(both.implausibleRecords()).isEqualTo(2);
        assertThat(both.firstImplausible()).startsWith("800002 ");
        // merged the other way round, the same record is the first: the lower job id
        FleetStats c = FleetStats.builder().build();
        c.add(ok("800007").toBuilder().start(LocalDateTime.of(1970, 1, 1, 0, 0)).elapsed(null).build(), "unknown");
        FleetStats d = FleetStats.builder().build();
        d.add(ok("800002").toBuilder().elapsed(Duration.ofDays(1000)).build(), "unknown");
        d.add(ok("99").toBuilder().elapsed(Duration.ofDays(1000)).build(), "unknown");
        assertThat(c.merge(d).report().firstImplausible()).startsWith("99 (Elapsed");
        assertThat(Implausible.first("800002 (x)", "10000000 (y)")).isEqualTo("800002 (x)");
        assertThat(Implausible.first(null, "7 (y)")).isEqualTo("7 (y)");
    }

    @Test
    void aRequeuedJobsLaterRunSetAsideLeavesTheEarlierRunTheJob() {
        JobRecord lost = Jobs.cpuJob("7", "NODE_FAIL", 2, 5);
        JobRecord bad = lost.toBuilder().status(io.slurmwise.job.JobStatus.parse("COMPLETED")).start(T0.plusHours(7))
                .end(T0.plusHours(6)).elapsed(null).build();
        FleetStats s = FleetStats.builder().build();
        s.add(lost, "node_failure");
        s.add(bad, null);
        FleetReport r = s.report();
        assertThat(r.total().jobs()).isEqualTo(1);
        assertThat(r.total().failed()).isEqualTo(1);
        assertThat(r.implausibleRecords()).isEqualTo(1);
    }
}
