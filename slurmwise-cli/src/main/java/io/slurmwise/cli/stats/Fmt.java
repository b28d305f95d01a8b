package io.slurmwise.cli.stats;

import java.util.Locale;

/** Number formats shared by the stats views: one decimal for hours and kWh, whole percents. */
final class Fmt {

    private Fmt() {
    }

    static String one(double v) {
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
