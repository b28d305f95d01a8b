package io.slurmwise.cli.stats;

import java.util.Locale;

/** Number formats shared by the stats views: one decimal for hours and kWh, whole percents. */
final class Fmt {

    private Fmt() {
    }

    /**
     * One decimal; a small amount that one decimal would show as nothing gets two, or {@code <0.01} (the real lab's
     * "0.0 CPU-hours of failed jobs (88% of the CPU-hours of ended jobs)"; an outside audit).
     */
    static String one(double v) {
        double a = Math.abs(v);
        if (a > 0 && a < 0.05) {
            return a < 0.005 ? (v < 0 ? "-" : "") + "<0.01" : String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.1f", v);
    }

    static String pct(Double ratio) {
        return ratio == null ? "-" : String.format(Locale.ROOT, "%.0f%%", ratio * 100);
    }

    static String plural(long n, String word) {
        return n + " " + word + (n == 1 ? "" : "s");
    }

    static String duration(long seconds) {
        return io.slurmwise.job.SlurmTime.format(java.time.Duration.ofSeconds(seconds));
    }
}
