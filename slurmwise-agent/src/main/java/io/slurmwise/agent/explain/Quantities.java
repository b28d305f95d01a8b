package io.slurmwise.agent.explain;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.SlurmTime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How the guard reads amounts, in the answer and in the material alike: sizes ({@code 31.8G}, {@code 7680M},
 * {@code 0.58 GiB}) and durations ({@code 00:41:12}, {@code 8 hours}, {@code 41m12s}, {@code 72 seconds},
 * {@code Timeout(ms)=1800000}), each with where it is written and how precisely. {@link FactClaims} reads the job's
 * facts in their roles with it, {@link ExplanationGuard} whether an amount the answer writes in another unit than the
 * material ({@code 49152M} of {@code 48G}, "a 30-minute timeout" of {@code Timeout(ms)=1800000}) is the material's.
 */
final class Quantities {

    private Quantities() {
    }

    // -- sizes

    /** A size: a number and a binary unit ({@code 32G}, {@code 31.8 GiB}, {@code 7680M}, {@code 1.5T}). */
    static final Pattern SIZE = Pattern.compile("(?i)(?:^|[^\\w.])(\\d+(?:\\.\\d+)?)\\s?([kmgtp])(?:i?b)?\\b");

    /**
     * A size in the text, from its number's start; {@code half} is half a unit of its last written digit
     * (0.05G of {@code 31.8G}).
     */
    record Size(int start, int end, DataSize value, double half) {
    }

    static List<Size> sizes(String text) {
        List<Size> out = new ArrayList<>();
        Matcher m = SIZE.matcher(text);
        while (m.find()) {
            String num = m.group(1);
            String unit = m.group(2);
            DataSize.tryParse(num + unit).ifPresent(d -> out.add(new Size(m.start(1), m.end(), d,
                    DataSize.tryParse("1" + unit).map(DataSize::bytes).orElse(1L) * halfDigit(num))));
        }
        return out;
    }

    /** Within a twentieth: the same size in a role ("peak 31.8G" of a MaxRSS of 31.8G), however it is rounded. */
    static boolean near(DataSize a, DataSize b) {
        return Math.abs(a.bytes() - b.bytes()) <= b.bytes() / 20;
    }

    // -- durations

    /** A SLURM duration ({@code 00:41:12}, {@code 1-00:00:00}), not a timestamp's time. */
    private static final Pattern CLOCK = Pattern.compile("(?:^|[^\\w:.\\-])((?:\\d+-)?\\d{1,2}:\\d{2}:\\d{2})(?:$|[^\\w:])");
    /** A duration in words: "8 hours", "a 12-hour", "41 minutes", "72 seconds", "1800 s", "1800583 milliseconds". */
    private static final Pattern WORDED = Pattern.compile("(?i)(?:^|[^\\w.:\\-])(\\d+(?:\\.\\d+)?)[\\s-]*(hours?|hrs?|h|minutes?|mins?"
            + "|seconds?|secs?|s|milliseconds?|ms)\\b");
    /** A duration written in units run together: {@code 3h26m39s}, {@code 41m12s}, {@code 2h30m}. */
    private static final Pattern COMPACT = Pattern.compile("(?i)(?:^|[^\\w.:\\-])(?:(\\d+)h)?(?:(\\d+)m(?:in)?)?(?:(\\d+)s)?\\b");
    /** A field whose unit is in its name, as logs write them: {@code Timeout(ms)=1800000}. */
    private static final Pattern FIELD = Pattern.compile("(?i)\\((ms|s|sec|seconds|milliseconds)\\)\\s*[=:]\\s*(\\d+(?:\\.\\d+)?)");

    /**
     * A duration in the text: {@code precision} is how near a role's fact it must be to be that fact (a minute for a
     * SLURM duration, half an hour for "8 hours"); {@code half} is half a unit of its last written digit; {@code run}
     * whether it is in a form the job's run and limit are written in ({@link #runDurations}).
     */
    record Span(int start, int end, Duration value, Duration precision, Duration half, boolean run) {
    }

    /**
     * The durations a job's run and limit are written in: SLURM's and hours or minutes in words, not seconds
     * ("ran for 1800583 milliseconds" is a collective's wait in the log, not the job's run).
     */
    static List<Span> runDurations(String text) {
        return durations(text).stream().filter(Span::run).toList();
    }

    /** Every duration the text writes, with how precisely it is written. */
    static List<Span> durations(String text) {
        List<Span> out = new ArrayList<>();
        Matcher c = CLOCK.matcher(text);
        int from = 0;
        while (from < text.length() && c.find(from)) {
            SlurmTime.parseDuration(c.group(1)).ifPresent(d -> out.add(new Span(c.start(1), c.end(1), d,
                    Duration.ofSeconds(60), Duration.ofMillis(500), true)));
            from = c.end(1);
        }
        Matcher w = WORDED.matcher(text);
        while (w.find()) {
            double v = Double.parseDouble(w.group(1));
            String u = w.group(2).toLowerCase(Locale.ROOT);
            long unitMillis = u.equals("ms") || u.startsWith("milli") ? 1L : u.startsWith("h") ? 3_600_000L
                    : u.startsWith("min") ? 60_000L : 1000L;
            Duration precision = unitMillis == 3_600_000L ? Duration.ofMinutes(30)
                    : unitMillis == 60_000L ? Duration.ofMinutes(1) : Duration.ofSeconds(1);
            out.add(new Span(w.start(1), w.end(2), Duration.ofMillis(Math.round(v * unitMillis)), precision,
                    Duration.ofMillis(Math.round(unitMillis * halfDigit(w.group(1)))), unitMillis >= 60_000L));
        }
        Matcher k = COMPACT.matcher(text);
        while (k.find()) {
            int parts = (k.group(1) != null ? 1 : 0) + (k.group(2) != null ? 1 : 0) + (k.group(3) != null ? 1 : 0);
            if (parts < 2) {
                continue; // "8h" alone is read above, as words
            }
            long s = (k.group(1) == null ? 0 : Long.parseLong(k.group(1)) * 3600)
                    + (k.group(2) == null ? 0 : Long.parseLong(k.group(2)) * 60)
                    + (k.group(3) == null ? 0 : Long.parseLong(k.group(3)));
            int start = k.start(1) >= 0 ? k.start(1) : k.start(2);
            Duration unit = k.group(3) != null ? Duration.ofSeconds(1) : Duration.ofMinutes(1);
            out.add(new Span(start, k.end(), Duration.ofSeconds(s), unit, unit.dividedBy(2), false));
        }
        Matcher f = FIELD.matcher(text);
        while (f.find()) {
            String u = f.group(1).toLowerCase(Locale.ROOT);
            long unitMillis = u.startsWith("m") ? 1L : 1000L;
            out.add(new Span(f.start(2), f.end(2), Duration.ofMillis(Math.round(Double.parseDouble(f.group(2)) * unitMillis)),
                    Duration.ofSeconds(1), Duration.ofMillis(Math.max(1, Math.round(unitMillis * halfDigit(f.group(2))))),
                    false));
        }
        return out;
    }

    // -- the same amount, written in another unit

    /**
     * Whether the amount the answer writes from {@code at} (a number followed by its unit) is one {@code material}
     * holds, in any unit: equal within what the two writings round off ({@code 49152M} is {@code 48G}, {@code 32563M}
     * is {@code 31.8G}, "7.5 minutes" is {@code 00:07:31}, "a 30-minute timeout" is {@code Timeout(ms)=1800000}),
     * not merely near it ({@code 36G} is not {@code 32G}).
     */
    static boolean amountGiven(String answer, int at, String material) {
        for (Size a : sizes(answer)) {
            if (a.start == at) {
                for (Size m : sizes(material)) {
                    if (Math.abs(a.value.bytes() - m.value.bytes()) <= a.half + m.half) {
                        return true;
                    }
                }
                return false;
            }
        }
        for (Span a : durations(answer)) {
            if (a.start == at) {
                for (Span m : durations(material)) {
                    if (Math.abs(a.value.toMillis() - m.value.toMillis()) <= a.half.toMillis() + m.half.toMillis()) {
                        return true;
                    }
                }
                return false;
            }
        }
        return false;
    }

    /** Half a unit of the last digit written: 0.5 of {@code 32}, 0.05 of {@code 31.8}. */
    private static double halfDigit(String num) {
        int dot = num.indexOf('.');
        return dot < 0 ? 0.5 : 0.5 * Math.pow(10, -(num.length() - dot - 1));
    }
}
