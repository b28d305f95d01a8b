package io.slurmwise.job;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.TimeZone;

import static org.assertj.core.api.Assertions.assertThat;

/** An Elapsed that accounting left empty is the time run between Start and End, clock changes included. */
class JobRecordElapsedTest {

    static JobRecord ran(String start, String end) {
        return JobRecord.builder(JobId.parse("900")).start(LocalDateTime.parse(start)).end(LocalDateTime.parse(end))
                .build();
    }

    @Test
    void aNightWhenTheClocksGoBackIsAnHourLonger() {
        TimeZone before = TimeZone.getDefault();
        try {
            TimeZone.setDefault(TimeZone.getTimeZone("Europe/Berlin"));
            // 2026-10-25 03:00 CEST became 02:00 CET: 01:00 to 04:00 on the wall clock is four hours run
            assertThat(ran("2026-10-25T01:00:00", "2026-10-25T04:00:00").elapsed()).isEqualTo(Duration.ofHours(4));
            // and in spring one hour shorter: 2026-03-29 02:00 CET became 03:00 CEST
            assertThat(ran("2026-03-29T01:00:00", "2026-03-29T04:00:00").elapsed()).isEqualTo(Duration.ofHours(2));
            TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
            assertThat(ran("2026-10-25T01:00:00", "2026-10-25T04:00:00").elapsed()).isEqualTo(Duration.ofHours(3));
            assertThat(ran("2026-10-25T04:00:00", "2026-10-25T01:00:00").elapsed()).isEqualTo(Duration.ZERO);
        } finally {
            TimeZone.setDefault(before);
        }
    }
}
