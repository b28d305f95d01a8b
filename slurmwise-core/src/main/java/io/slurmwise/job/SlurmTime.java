package io.slurmwise.job;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
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
            "now(?:([-+])(\\d{1,6})(seconds?|minutes?|hours?|days?|weeks?))?", java.util.regex.Pattern.CASE_INSENSITIVE);

    /**
     * Parses a point in time the way sacct's -S/-E take it: {@code now}, {@code now-30days}, {@code now-12hours},
     * {@code now-2weeks}, {@code 2026-11-01}, {@code 2026-11-01T10:00[:00]}.
     *
     * @throws IllegalArgumentException with the accepted forms when the text is none of them
     */
    public static LocalDateTime parseWhen(String text, LocalDateTime now) {
        String t = text == null ? "" : text.strip();
        java.util.regex.Matcher m = RELATIVE.matcher(t);
        if (m.matches()) {
            if (m.group(1) == null) {
                return now;
            }
            long n = Long.parseLong(m.group(2)) * (m.group(1).equals("-") ? -1 : 1);
            String unit = m.group(3).toLowerCase(java.util.Locale.ROOT);
            Duration d = unit.startsWith("second") ? Duration.ofSeconds(n)
                    : unit.startsWith("minute") ? Duration.ofMinutes(n)
                    : unit.startsWith("hour") ? Duration.ofHours(n)
                    : unit.startsWith("day") ? Duration.ofDays(n) : Duration.ofDays(7 * n);
            return now.plus(d);
        }
        try {
            if (t.length() == 10) {
                return java.time.LocalDate.parse(t).atStartOfDay();
            }
            return LocalDateTime.parse(t);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a time; use now, now-30days, now-12hours, "
                    + "now-2weeks, 2026-11-01 or 2026-11-01T10:00");
        }
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
