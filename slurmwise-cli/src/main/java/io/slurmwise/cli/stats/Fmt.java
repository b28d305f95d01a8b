package io.slurmwise.cli.stats;

import java.util.Locale;

/**
 * Number formats of the views people read (the panel, the HTML page): one decimal for hours and kWh, whole percents,
 * and thousands grouped with commas whatever the locale ({@code 2,792,415.4}: a centre's year read as 2792415.4). The
 * machine formats (JSON, CSV, Prometheus) keep plain numbers.
 */
final class Fmt {

    private Fmt() {
    }

    /**
     * One decimal; a small amount that one decimal would show as nothing keeps two significant digits ({@code 0.0028}):
     * the real lab's "0.0 CPU-hours of failed jobs (88% of the CPU-hours of ended jobs)" (an outside audit). Digits,
     * commas and a point only, so the text is safe in HTML and SVG as it is.
     */
    static String one(double v) {
        double a = Math.abs(v);
        if (a > 0 && a < 0.05) {
            return new java.math.BigDecimal(v).round(new java.math.MathContext(2)).stripTrailingZeros().toPlainString();
        }
        return String.format(Locale.ROOT, "%,.1f", v);
    }

    /** A count of jobs, tasks, rows: {@code 1,234,567}. */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    static String pct(Double ratio) {
        return ratio == null ? "-" : String.format(Locale.ROOT, "%.0f%%", ratio * 100);
    }

    static String plural(long n, String word) {
        return count(n) + " " + word + (n == 1 ? "" : "s");
    }

    static String duration(long seconds) {
        return io.slurmwise.job.SlurmTime.format(java.time.Duration.ofSeconds(seconds));
    }
}
