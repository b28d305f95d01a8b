package io.slurmwise.job;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.BackendException;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.testing.DelegatingBackend;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A maintenance window as scontrol lists it, and what a job that waits for one is told. */
class ReservationTest {

    private static final String TWO = """
            ReservationName=maint StartTime=2026-12-09T06:00:00 EndTime=2026-12-09T18:00:00 Duration=12:00:00
               Nodes=cn[001-064] NodeCnt=64 CoreCnt=8192 Features=(null) PartitionName=(null) Flags=MAINT,SPEC_NODES
               TRES=cpu=8192
               Users=root Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a
               MaxStartDelay=(null)

            ReservationName=course StartTime=2026-12-02T09:00:00 EndTime=2026-12-02T17:00:00 Duration=08:00:00
               Nodes=cn[065-068] NodeCnt=4 CoreCnt=512 Features=(null) PartitionName=cpu Flags=SPEC_NODES
            """;

    @Test
    void blocksAreReadWithTheirTimesNodesAndFlags() {
        List<Reservation> rs = Reservation.parse(TWO);
        assertThat(rs).extracting(Reservation::name).containsExactly("maint", "course");
        assertThat(rs.get(0).maintenance()).isTrue();
        assertThat(rs.get(1).maintenance()).isFalse();
        assertThat(rs.get(0).partition()).isEmpty();
        assertThat(rs.get(1).partition()).isEqualTo("cpu");
        LocalDateTime now = LocalDateTime.of(2026, 12, 8, 10, 30);
        assertThat(rs.get(0).timeUntilStart(now)).isEqualTo(Duration.ofMinutes(19 * 60 + 30));
        assertThat(rs.get(0).describe()).isEqualTo("maintenance reservation maint (cn[001-064]) from 2026-12-09 06:00 to 2026-12-09 18:00");
        // the next maintenance window not over: the course is none, a past window is none
        assertThat(Reservation.nextMaintenance(rs, now)).map(Reservation::name).contains("maint");
        assertThat(Reservation.nextMaintenance(rs, LocalDateTime.of(2026, 12, 10, 0, 0))).isEmpty();
        assertThat(Reservation.parse("No reservations in the system\n")).isEmpty();
        assertThat(Reservation.parse(null)).isEmpty();
        assertThatThrownBy(() -> Reservation.parse("ReservationName=x Nodes=a\n")).hasMessageContaining("reservation 'x'"
                + " has no StartTime or EndTime");
    }

    /**
     * 1052 waits on "ReqNodeNotAvail, Reserved for maintenance": its answer names the window on its partition and the
     * longest --time that starts it now; a cluster that cannot list its reservations gets where to read it.
     */
    @Test
    void aJobWaitingForMaintenanceIsToldTheWindowAndTheLongestTimeThatStartsNow() {
        LocalDateTime start = LocalDateTime.now().plusHours(20).plusMinutes(10);
        List<Reservation> windows = List.of(new Reservation("other", start.minusHours(2), start.plusHours(1), "gpua[001-060]",
                "gpuA100x4", java.util.Set.of("MAINT")), new Reservation("maint_long", start, start.plusHours(12),
                "cn[097-124]", "long", java.util.Set.of("MAINT", "SPEC_NODES")));
        DelegatingBackend listing = new DelegatingBackend() {
            @Override
            public List<Reservation> reservations() {
                return windows;
            }
        };
        try (Slurmwise sw = Slurmwise.builder().backend(listing).build()) {
            Diagnosis.StatusOnly d = (Diagnosis.StatusOnly) sw.diagnose("1052");
            // the window on its partition (long), not the sooner one elsewhere; 20 hours less the minutes of the run
            assertThat(d.pending().notices()).singleElement().asString()
                    .startsWith("maintenance reservation maint_long (cn[097-124]) from ")
                    .contains(": the job starts after it ends, or now with `#SBATCH --time=` at most 20:")
                    .endsWith(" (until the window starts) if the run fits in that.");
        }
        DelegatingBackend refused = new DelegatingBackend() {
            @Override
            public List<Reservation> reservations() {
                throw new BackendException("scontrol show reservation failed: Unable to contact slurm controller");
            }
        };
        try (Slurmwise sw = Slurmwise.builder().backend(refused).build()) {
            Diagnosis.StatusOnly d = (Diagnosis.StatusOnly) sw.diagnose("1052");
            // where to read the window is said once, where the window would be (the Waiting line pointed to the
            // command above a note that gave the times)
            assertThat(d.pending().notices()).containsExactly(
                    "`scontrol show reservation` shows the maintenance window's times");
            assertThat(d.pending().meaning()).contains("reserved for maintenance").doesNotContain("scontrol");
        }
        try (Slurmwise sw = Slurmwise.builder().backend(listing).build()) {
            Diagnosis.StatusOnly d = (Diagnosis.StatusOnly) sw.diagnose("1052");
            assertThat(d.pending().meaning()).doesNotContain("scontrol show reservation");
        }
        // a job waiting for something else asks no reservations
        DelegatingBackend counting = new DelegatingBackend() {
            @Override
            public List<Reservation> reservations() {
                throw new AssertionError("asked for a job that waits on no maintenance");
            }
        };
        try (Slurmwise sw = Slurmwise.builder().backend(counting).build()) {
            assertThat(sw.diagnose("1060")).isInstanceOf(Diagnosis.StatusOnly.class);
        }
    }
}
