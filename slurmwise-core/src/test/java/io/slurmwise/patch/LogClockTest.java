package io.slurmwise.patch;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How long a job had run when a line was printed, by its log's own timestamps. */
class LogClockTest {

    private static final Duration EIGHT_HOURS = Duration.ofHours(8).plusSeconds(27);

    @Test
    void stampsInDatesFormAndIsoFormWithoutTheirZone() {
        assertThat(LogClock.stamp("Sun Nov  8 17:57:35 CST 2026 member 03 done (1:59:19)"))
                .contains(LocalDateTime.of(2026, 11, 8, 17, 57, 35));
        assertThat(LogClock.stamp("Sun Nov 8 17:57:35 2026 start")).contains(LocalDateTime.of(2026, 11, 8, 17, 57, 35));
        assertThat(LogClock.stamp("[2026-11-08 17:57:35,120] INFO epoch 3")).contains(LocalDateTime.of(2026, 11, 8, 17, 57, 35));
        assertThat(LogClock.stamp("2026-11-08T17:57:35 done")).contains(LocalDateTime.of(2026, 11, 8, 17, 57, 35));
        assertThat(LogClock.stamp("member 03 done (1:59:19)")).isEmpty();
        assertThat(LogClock.stamp("2026-13-45 25:61:61 not a date at all")).isEmpty();
        assertThat(LogClock.stamp(null)).isEmpty();
    }

    @Test
    void theRunTimeOfALineIsItsStampLessTheLogsFirst() {
        LogClock clock = LogClock.of(List.of(LogTail.of(LogStream.STDOUT, "1018.out", """
                Sun Nov  8 12:00:37 CST 2026 ensemble 20261108: 5 members x 24h, 256 ranks
                Sun Nov  8 17:57:35 CST 2026 member 03 done (1:59:19)
                """)));
        assertThat(clock.runTimeAt("Sun Nov  8 17:57:35 CST 2026 member 03 done (1:59:19)", EIGHT_HOURS))
                .contains(Duration.parse("PT5H56M58S"));
        // a stamp before the start, or past the end the record gives, is another clock's: no reading
        assertThat(clock.runTimeAt("Sun Nov  8 11:00:00 CST 2026 x", EIGHT_HOURS)).isEmpty();
        assertThat(clock.runTimeAt("Mon Nov  9 12:00:00 CST 2026 x", EIGHT_HOURS)).isEmpty();
        assertThat(clock.runTimeAt("no stamp", EIGHT_HOURS)).isEmpty();
        assertThat(LogClock.NONE.runTimeAt("Sun Nov  8 17:57:35 CST 2026 x", EIGHT_HOURS)).isEmpty();
    }

    @Test
    void onlyALogReadFromItsFirstLineGivesTheStart() {
        byte[] text = "Sun Nov  8 15:00:00 CST 2026 member 02 start\n".getBytes(StandardCharsets.UTF_8);
        // a tail cut from a longer file (first line unknown): its first stamp is not the start
        LogTail cut = new LogTail(LogStream.STDOUT, "x.out", text, 0, 1 << 30, null);
        assertThat(LogClock.of(List.of(cut))).isSameAs(LogClock.NONE);
        // a first stamp past the top lines is not the start either
        StringBuilder late = new StringBuilder();
        for (int i = 0; i < LogClock.START_LINES; i++) {
            late.append("loading ").append(i).append('\n');
        }
        late.append("Sun Nov  8 15:00:00 CST 2026 member 02 start\n");
        assertThat(LogClock.of(List.of(LogTail.of(LogStream.STDOUT, "x.out", late.toString())))).isSameAs(LogClock.NONE);
        // of two logs read whole, the earlier first stamp is the start
        LogClock two = LogClock.of(List.of(LogTail.of(LogStream.STDOUT, "x.out", "2026-11-08T12:05:00 a\n"),
                LogTail.of(LogStream.STDERR, "x.err", "2026-11-08T12:00:00 b\n")));
        assertThat(two.runTimeAt("2026-11-08T13:00:00 c", EIGHT_HOURS)).contains(Duration.ofHours(1));
    }
}
