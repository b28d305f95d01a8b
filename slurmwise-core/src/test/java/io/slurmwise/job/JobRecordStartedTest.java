package io.slurmwise.job;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDateTime;

import static org.assertj.core.api.Assertions.assertThat;

/** Whether a record says its job never ran: one definition for the log notice, the fix fitting and the renderer. */
class JobRecordStartedTest {

    static JobRecord.Builder job() {
        return JobRecord.builder(JobId.parse("900"));
    }

    @Test
    void aJobWithoutANodeOrAStartNeverRan() {
        // sacct's NodeList for a job cancelled or refused while queued
        assertThat(job().nodeList("None assigned").build().neverStarted()).isTrue();
        // ended without a start (Start Unknown, End set): cancelled while pending
        assertThat(job().end(LocalDateTime.parse("2026-11-30T10:00:00")).build().neverStarted()).isTrue();
        // still queued: no start, nothing elapsed
        assertThat(job().elapsed(Duration.ZERO).build().neverStarted()).isTrue();
    }

    @Test
    void aJobThatStartedOrARecordThatDoesNotSayRan() {
        assertThat(job().nodeList("node12").start(LocalDateTime.parse("2026-11-30T09:00:00"))
                .end(LocalDateTime.parse("2026-11-30T09:00:00")).build().neverStarted()).as("failed at once on a node")
                .isFalse();
        assertThat(job().build().neverStarted()).as("nothing known").isFalse();
        assertThat(job().elapsed(Duration.ofMinutes(3)).build().neverStarted()).isFalse();
    }
}
