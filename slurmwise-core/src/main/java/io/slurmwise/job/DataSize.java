package io.slurmwise.job;

import java.util.Locale;
import java.util.Optional;

/**
 * An amount of memory, parsed from SLURM's forms: {@code 32G}, {@code 4000M}, {@code 31.8G}, {@code 33344307K},
 * {@code 1.5T}, bare numbers (megabytes, as --mem takes them). Units are binary (1K = 1024 bytes), as in SLURM.
 */
public record DataSize(long bytes) implements Comparable<DataSize> {

    public static final long KIB = 1024L;
    public static final long MIB = KIB * 1024;
    public static final long GIB = MIB * 1024;
    public static final long TIB = GIB * 1024;

    public DataSize {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative size: " + bytes);
        }
    }

    public static DataSize ofMebibytes(long mib) {
        return new DataSize(mib * MIB);
    }

    public static DataSize ofGibibytes(double gib) {
        return new DataSize(Math.round(gib * GIB));
    }

    /** Parses a size; a bare number is megabytes (SLURM's default unit). Empty for blank or malformed text. */
    public static Optional<DataSize> tryParse(String text) {
        return tryParse(text, MIB);
    }

    /** Parses a size whose bare numbers are in {@code defaultUnit} bytes. */
    public static Optional<DataSize> tryParse(String text, long defaultUnit) {
        if (text == null) {
            return Optional.empty();
        }
        String t = text.strip();
        if (t.isEmpty() || t.length() > 24) {
            return Optional.empty();
        }
        char last = Character.toUpperCase(t.charAt(t.length() - 1));
        long unit = switch (last) {
            case 'K' -> KIB;
            case 'M' -> MIB;
            case 'G' -> GIB;
            case 'T' -> TIB;
            case 'P' -> TIB * 1024;
            case 'B' -> 1;
            default -> -1;
        };
        String number = unit < 0 ? t : t.substring(0, t.length() - 1);
        if (NoVal.is(number)) {
            return Optional.empty(); // NO_VAL or INFINITE: no size
        }
        if (unit < 0) {
            unit = defaultUnit;
        }
        try {
            double v = Double.parseDouble(number);
            if (v < 0 || Double.isNaN(v) || Double.isInfinite(v) || v * unit > Long.MAX_VALUE / 2.0) {
                return Optional.empty();
            }
            return Optional.of(new DataSize(Math.round(v * unit)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    public double gibibytes() {
        return bytes / (double) GIB;
    }

    public long mebibytes() {
        return bytes / MIB;
    }

    @Override
    public int compareTo(DataSize o) {
        return Long.compare(bytes, o.bytes);
    }

    /**
     * Human form. A whole number of a unit below 10,000 is written in the largest such unit, as sacct writes a request
     * ({@code 2000G}, {@code 1536M}, {@code 2T}: the user's own figure, not a "1.95T" beside it; an outside audit);
     * any other amount rounded ({@code 31.8G} for a MaxRSS of 33344307K; see {@link #trim}).
     */
    @Override
    public String toString() {
        for (long unit : new long[] {TIB, GIB, MIB}) {
            if (bytes >= unit && bytes % unit == 0 && bytes / unit < 10_000) {
                return bytes / unit + (unit == TIB ? "T" : unit == GIB ? "G" : "M");
            }
        }
        if (bytes >= TIB) {
            return trim(bytes / (double) TIB) + "T";
        }
        if (bytes >= GIB) {
            return trim(bytes / (double) GIB) + "G";
        }
        if (bytes >= MIB) {
            return trim(bytes / (double) MIB) + "M";
        }
        if (bytes >= KIB) {
            return trim(bytes / (double) KIB) + "K";
        }
        return bytes + "B";
    }

    /**
     * One decimal from 10 up, two below (trailing zeros dropped): a one-decimal 2000G would read "2T", which is
     * 48G more than it is (an outside audit: a 2000G request beside a 2T node); a request is whole and written as asked.
     */
    private static String trim(double v) {
        String s = String.format(Locale.ROOT, v < 10 ? "%.2f" : "%.1f", v);
        if (s.contains(".")) {
            s = s.replaceAll("0+$", "");
            s = s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
        }
        return s;
    }
}
