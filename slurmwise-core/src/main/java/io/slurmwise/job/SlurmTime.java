package io.slurmwise.job;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;

/** Parsers for SLURM's time formats: durations ({@code 1-02:03:04}, {@code 41:12}, {@code 00:00.417}) and timestamps. */
public final class SlurmTime {

    private SlurmTime() {
    }

    /**
     * Parses a SLURM duration: {@code MM:SS}, {@code HH:MM:SS}, {@code D-HH}, {@code D-HH:MM}, {@code D-HH:MM:SS},
     * fractional seconds ({@code 00:00.417}, as TotalCPU prints) and bare minutes ({@code 30}, as --time takes).
     * Empty for blank, {@code UNLIMITED}, {@code Partition_Limit}, {@code INVALID} or malformed text.
     */
    public static Optional<Duration> parseDuration(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String t = text.strip();
        if (t.isEmpty() || t.length() > 24) {
            return Optional.empty();
        }
        try {
            long days = 0;
            String rest = t;
            int dash = t.indexOf('-');
            if (dash >= 0) {
                days = Long.parseLong(t.substring(0, dash));
                rest = t.substring(dash + 1);
            }
            String[] parts = rest.split(":", -1);
            long h = 0;
            long m = 0;
            double s = 0;
            if (dash >= 0) { // D-HH, D-HH:MM, D-HH:MM:SS
                h = Long.parseLong(parts[0]);
                if (parts.length > 1) {
                    m = Long.parseLong(parts[1]);
                }
                if (parts.length > 2) {
                    s = Double.parseDouble(parts[2]);
                }
                if (parts.length > 3) {
                    return Optional.empty();
                }
            } else if (parts.length == 1) { // minutes
                m = Long.parseLong(parts[0]);
            } else if (parts.length == 2) { // MM:SS
                m = Long.parseLong(parts[0]);
                s = Double.parseDouble(parts[1]);
            } else if (parts.length == 3) {
                h = Long.parseLong(parts[0]);
                m = Long.parseLong(parts[1]);
                s = Double.parseDouble(parts[2]);
            } else {
                return Optional.empty();
            }
            if (days < 0 || h < 0 || m < 0 || s < 0 || Double.isNaN(s) || Double.isInfinite(s)) {
                return Optional.empty();
            }
            long millis = Math.round(s * 1000);
            return Optional.of(Duration.ofDays(days).plusHours(h).plusMinutes(m).plusMillis(millis));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static final java.time.format.DateTimeFormatter ISO_SECONDS =
            java.time.format.DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss", java.util.Locale.ROOT);

    /**
     * A timestamp as sacct prints it, seconds always ({@code 2024-04-05T11:42:00}; {@code LocalDateTime.toString}
     * drops zero seconds); null for null. The form every JSON output uses.
     */
    public static String iso(LocalDateTime t) {
        return t == null ? null : ISO_SECONDS.format(t);
    }

    /** Formats as SLURM does: {@code HH:MM:SS} below a day, {@code D-HH:MM:SS} above. */
    public static String format(Duration d) {
        long total = d.toSeconds();
        long days = total / 86_400;
        long h = (total % 86_400) / 3600;
        long m = (total % 3600) / 60;
        long s = total % 60;
        String hms = String.format("%02d:%02d:%02d", h, m, s);
        return days > 0 ? days + "-" + hms : hms;
    }

    private static final java.util.regex.Pattern RELATIVE = java.util.regex.Pattern.compile(
            "now(?:\\s*([-+])\\s*(\\d{1,7})\\s*(seconds?|minutes?|hours?|days?|weeks?)?)?",
            java.util.regex.Pattern.CASE_INSENSITIVE);
    private static final java.util.regex.Pattern CLOCK = java.util.regex.Pattern.compile(
            "(\\d{1,2}):(\\d{2})(?::(\\d{2}))?\\s*([AaPp][Mm])?");
    /** MMDD[YY], MM.DD[.YY], MM/DD[/YY], each with an optional -HH:MM[:SS]. */
    private static final java.util.regex.Pattern MONTH_DAY = java.util.regex.Pattern.compile(
            "(\\d{2})[./]?(\\d{2})(?:[./]?(\\d{2}))?(?:-(.+))?");
    /** sacct's named times of day. */
    private static final Map<String, Integer> NAMED_HOURS = Map.of("midnight", 0, "noon", 12, "elevenses", 11,
            "fika", 15, "teatime", 16);
    private static final String FORMS = "use now, now-30days, now-2hours, today, midnight, noon, 14:30, "
            + "2026-11-01, 2026-11-01T10:00, 11/01, 1101 or 11/01-14:30 (the forms sacct -S/-E accepts)";

    /**
     * Parses a point in time the way sacct's -S/-E take it (its man page's "valid time formats"): {@code now},
     * {@code now-30days}, {@code now-2hours}, {@code now-600} (seconds), {@code today}, {@code tomorrow},
     * {@code midnight}, {@code noon}, {@code elevenses}, {@code fika}, {@code teatime}, {@code HH:MM[:SS][AM|PM]},
     * {@code YYYY-MM-DD[THH:MM[:SS]]}, {@code MMDD[YY]}, {@code MM/DD[/YY]}, {@code MM.DD[.YY]} (each with an
     * optional {@code -HH:MM[:SS]}). As sacct does, a time of day or a date without a year means the latest one
     * that is not in the future.
     *
     * @throws IllegalArgumentException with the accepted forms when the text is none of them
     */
    public static LocalDateTime parseWhen(String text, LocalDateTime now) {
        String t = text == null ? "" : text.strip();
        String lower = t.toLowerCase(java.util.Locale.ROOT);
        java.util.regex.Matcher m = RELATIVE.matcher(t);
        if (m.matches()) {
            if (m.group(1) == null) {
                return now;
            }
            long n = Long.parseLong(m.group(2)) * (m.group(1).equals("-") ? -1 : 1);
            String unit = m.group(3) == null ? "seconds" : m.group(3).toLowerCase(java.util.Locale.ROOT);
            Duration d = unit.startsWith("second") ? Duration.ofSeconds(n)
                    : unit.startsWith("minute") ? Duration.ofMinutes(n)
                    : unit.startsWith("hour") ? Duration.ofHours(n)
                    : unit.startsWith("day") ? Duration.ofDays(n) : Duration.ofDays(7 * n);
            return now.plus(d);
        }
        if (lower.equals("today")) {
            return now.toLocalDate().atStartOfDay();
        }
        if (lower.equals("tomorrow")) {
            return now.toLocalDate().plusDays(1).atStartOfDay();
        }
        if (NAMED_HOURS.containsKey(lower)) {
            return latest(java.time.LocalTime.of(NAMED_HOURS.get(lower), 0), now);
        }
        try {
            java.time.LocalTime clock = clock(t);
            if (clock != null) {
                return latest(clock, now);
            }
            if (t.matches("\\d{4}-\\d{2}-\\d{2}")) {
                return java.time.LocalDate.parse(t).atStartOfDay();
            }
            if (t.matches("\\d{4}-\\d{2}-\\d{2}T.*")) {
                return LocalDateTime.parse(t);
            }
            java.util.regex.Matcher md = MONTH_DAY.matcher(t);
            if (md.matches()) {
                int month = Integer.parseInt(md.group(1));
                int day = Integer.parseInt(md.group(2));
                java.time.LocalTime at = md.group(4) == null ? java.time.LocalTime.MIDNIGHT : clock(md.group(4));
                if (at == null) {
                    throw new IllegalArgumentException("'" + text + "' is not a time; " + FORMS);
                }
                if (md.group(3) != null) {
                    return java.time.LocalDate.of(2000 + Integer.parseInt(md.group(3)), month, day).atTime(at);
                }
                LocalDateTime thisYear = java.time.LocalDate.of(now.getYear(), month, day).atTime(at);
                return thisYear.isAfter(now) ? thisYear.minusYears(1) : thisYear;
            }
            throw new IllegalArgumentException("'" + text + "' is not a time; " + FORMS);
        } catch (java.time.DateTimeException | NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a time; " + FORMS);
        }
    }

    /** HH:MM[:SS][AM|PM], or null when the text is not a clock time. */
    private static java.time.LocalTime clock(String t) {
        java.util.regex.Matcher c = CLOCK.matcher(t.strip());
        if (!c.matches()) {
            return null;
        }
        int h = Integer.parseInt(c.group(1));
        if (c.group(4) != null) {
            boolean pm = c.group(4).equalsIgnoreCase("pm");
            if (h < 1 || h > 12) {
                throw new java.time.DateTimeException("hour " + h + " with AM/PM");
            }
            h = h % 12 + (pm ? 12 : 0);
        }
        return java.time.LocalTime.of(h, Integer.parseInt(c.group(2)), c.group(3) == null ? 0 : Integer.parseInt(c.group(3)));
    }

    /** The latest moment at this time of day that is not after now (today's, else yesterday's). */
    private static LocalDateTime latest(java.time.LocalTime at, LocalDateTime now) {
        LocalDateTime today = now.toLocalDate().atTime(at);
        return today.isAfter(now) ? today.minusDays(1) : today;
    }

    /** Parses {@code 2026-11-12T03:14:07}; empty for {@code Unknown}, {@code None} or blank. */
    public static Optional<LocalDateTime> parseTimestamp(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String t = text.strip();
        if (t.length() < 10 || t.length() > 32) {
            return Optional.empty();
        }
        try {
            return Optional.of(LocalDateTime.parse(t));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
