package io.slurmwise.patch;

import io.slurmwise.backend.LogTail;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time a job had run when a line of its log was printed, by the log's own clock: the line's timestamp less the
 * first timestamp near the top of a log read from its first line. Read against the log itself, not the accounting
 * record, so neither the cluster's time zone nor a replay that moves the records' times matters. A progress line
 * printed hours before the job ended (1018's "member 03 done" at 5:57 of a run cut at 8:00, then silence) is
 * progress at that time, not at the end (an outside audit: 17:00:00 asked where about 12:00:00 was enough).
 *
 * <pre>{@code
 * LogClock clock = LogClock.of(tails);
 * Optional<Duration> at = clock.runTimeAt("Sun Nov  8 17:57:35 CST 2026 member 03 done", elapsed); // 5:56:58
 * }</pre>
 */
public final class LogClock {

    /** No start known: no line has a run time. */
    public static final LogClock NONE = new LogClock(null);

    /** How far into a log its first timestamp may be and still stand for the job's start. */
    static final int START_LINES = 10;
    /** A line may be stamped a little after the end sacct recorded (a clock's skew, the last flush). */
    private static final Duration SLACK = Duration.ofMinutes(5);

    /** {@code date}'s own format: {@code Sun Nov  8 17:57:35 CST 2026} (the zone optional). */
    private static final Pattern DATE_CMD = Pattern.compile("\\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ((?:Jan|Feb|Mar|Apr|May"
            + "|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\\d{1,2} \\d{2}:\\d{2}:\\d{2})(?: [A-Z][A-Za-z0-9+-]{1,5})? (\\d{4})\\b");
    /** ISO 8601 and Python logging's: {@code 2026-11-08T17:57:35}, {@code 2026-11-08 17:57:35,123}. */
    private static final Pattern ISO = Pattern.compile("\\b(\\d{4}-\\d{2}-\\d{2})[T ](\\d{2}:\\d{2}:\\d{2})\\b");
    private static final DateTimeFormatter DATE_CMD_FORMAT = DateTimeFormatter.ofPattern("MMM d HH:mm:ss yyyy",
            Locale.ROOT);

    private final LocalDateTime start;

    private LogClock(LocalDateTime start) {
        this.start = start;
    }

    /**
     * The clock of a job's logs: the earliest first timestamp among the tails that begin at their file's first line
     * (within its first {@link #START_LINES} lines); {@link #NONE} when no such tail has one.
     */
    public static LogClock of(List<LogTail> tails) {
        LocalDateTime first = null;
        for (LogTail t : tails) {
            if (t.firstLine() != 1) {
                continue; // a tail cut from a longer file: its first stamp is not the start
            }
            List<String> lines = t.lines();
            for (int i = 0; i < Math.min(START_LINES, lines.size()); i++) {
                Optional<LocalDateTime> at = stamp(lines.get(i));
                if (at.isPresent()) {
                    first = first == null || at.get().isBefore(first) ? at.get() : first;
                    break;
                }
            }
        }
        return first == null ? NONE : new LogClock(first);
    }

    /**
     * How long the job had run when {@code line} was printed; empty when the clock has no start, the line no
     * timestamp, or the two do not fit a run of {@code elapsed} (a stamp before the start, or after the end).
     */
    public Optional<Duration> runTimeAt(String line, Duration elapsed) {
        if (start == null || line == null) {
            return Optional.empty();
        }
        return stamp(line).map(t -> Duration.between(start, t))
                .filter(d -> !d.isNegative() && (elapsed == null || d.compareTo(elapsed.plus(SLACK)) <= 0));
    }

    /** The timestamp a line starts with or carries, in one of the forms above, without its zone. */
    static Optional<LocalDateTime> stamp(String line) {
        if (line == null || line.length() < 19) {
            return Optional.empty();
        }
        try {
            Matcher iso = ISO.matcher(line);
            if (iso.find()) {
                return Optional.of(LocalDateTime.parse(iso.group(1) + "T" + iso.group(2)));
            }
            Matcher d = DATE_CMD.matcher(line);
            if (d.find()) {
                return Optional.of(LocalDateTime.parse(d.group(1).replaceAll(" +", " ") + " " + d.group(2),
                        DATE_CMD_FORMAT));
            }
        } catch (DateTimeParseException e) {
            return Optional.empty(); // 2026-13-45: digits in a date's shape, no date
        }
        return Optional.empty();
    }
}
