package io.slurmwise.classify;

/**
 * One reason behind a finding: a log line, an accounting field, or a sanity check.
 *
 * @param line       1-based line number for log evidence (0 otherwise)
 * @param lineInFile true when {@code line} counts from the file's start; false when it counts from the start of
 *                   the tail that was read (the file was longer)
 * @param weight     how much this piece supports the kind (0..1]
 */
public record Evidence(Source source, long line, boolean lineInFile, String text, String kindId, double weight) {

    /** Where a piece of evidence comes from. */
    public enum Source { STDOUT, STDERR, ACCOUNTING, CHECK }

    public static final int MAX_TEXT = 400;

    public Evidence {
        if (text != null && text.length() > MAX_TEXT) {
            text = text.substring(0, MAX_TEXT) + "...";
        }
    }

    public boolean isLogLine() {
        return source == Source.STDOUT || source == Source.STDERR;
    }

    /** {@code stderr:12}, {@code stderr:tail+12}, {@code sacct}, {@code check}. */
    public String location() {
        return switch (source) {
            case STDOUT, STDERR -> source.name().toLowerCase(java.util.Locale.ROOT) + ":" + (lineInFile ? "" : "tail+") + line;
            case ACCOUNTING -> "sacct";
            case CHECK -> "check";
        };
    }
}
