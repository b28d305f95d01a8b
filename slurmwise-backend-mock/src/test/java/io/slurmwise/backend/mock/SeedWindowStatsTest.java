package io.slurmwise.backend.mock;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.stats.FleetReport;
import io.slurmwise.stats.FleetScan;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The seed window's figures, computed by hand in its README, through the real mock backend and the full scan. */
class SeedWindowStatsTest {

    static final String SEED = "io/slurmwise/mock/seed-window";

    static FleetReport report(boolean logs, Duration slice) {
        try (Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled(SEED)).build()) {
            LocalDateTime now = LocalDateTime.now();
            return sw.fleetScan().readLogs(logs).sliceLength(slice).build()
                    .run(JobQuery.window(now.minusDays(30), now)).report();
        }
    }

    @Test
    void theSeedWindowGivesThePublishedFigures() {
        FleetReport r = report(true, FleetScan.DEFAULT_SLICE);
        FleetReport.Breakdown t = r.total();
        assertThat(t.jobs()).isEqualTo(12);
        assertThat(t.failed()).isEqualTo(2);
        assertThat(t.cancelled()).isEqualTo(6);
        assertThat(t.preempted()).isEqualTo(4);
        assertThat(t.ended()).isEqualTo(12);
        assertThat(pct(t.failureRate())).isEqualTo("17%");
        assertThat(one(t.wastedGpuHours())).isEqualTo("24.0");
        assertThat(one(t.wastedCpuHours())).isEqualTo("384.0");
        assertThat(one(t.wastedKwh())).isEqualTo("15.4");
        assertThat(one(t.wastedCo2Kg())).isEqualTo("5.7");
        assertThat(t.measuredWastedKwh()).isNull();
        FleetReport.Breakdown a100 = r.byPartition().get(0);
        assertThat(a100.key()).isEqualTo("gpuA100x4");
        assertThat(a100.failed() + "/" + a100.ended()).isEqualTo("2/9");
        assertThat(pct(a100.failureRate())).isEqualTo("22%");
        assertThat(r.byKind()).extracting(FleetReport.Breakdown::key).containsExactly("time_limit");
        assertThat(r.topJobs()).extracting(FleetReport.TopEntry::id).containsExactly("3101", "3102");
    }

    @Test
    void sliceLengthAndLogReadingDoNotChangeTheCounts() {
        FleetReport week = report(true, FleetScan.DEFAULT_SLICE);
        for (Duration d : new Duration[] {Duration.ofHours(1), Duration.ofHours(7), Duration.ofDays(1), Duration.ofDays(60)}) {
            FleetReport other = report(false, d);
            assertThat(other.total()).as("slices of %s", d).isEqualTo(week.total());
            assertThat(other.byPartition()).isEqualTo(week.byPartition());
            assertThat(other.byDay()).isEqualTo(week.byDay());
        }
    }

    @Test
    void interruptedJobsAreCountedApartWithTheirOwnCompute() {
        FleetReport.Breakdown t = report(false, FleetScan.DEFAULT_SLICE).total();
        // 3103 + 3104 + 3109 (1 GPU) and 3106 (2 GPUs), 3107, 3108, 3112 (2 H100): elapsed x GPUs
        double gpuHours = (1735 + 1734 + 312 + 2 * 5021 + 5020 + 2417 + 2 * 7308) / 3600.0;
        assertThat(t.interruptedGpuHours()).isCloseTo(gpuHours, within(1e-9));
        assertThat(t.usedGpuHours()).isCloseTo(gpuHours + (43203 + 43202) / 3600.0, within(1e-9));
    }

    static String pct(Double v) {
        return String.format(Locale.ROOT, "%.0f%%", v * 100);
    }

    static String one(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

}
