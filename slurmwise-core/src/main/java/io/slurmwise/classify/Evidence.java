package io.slurmwise.classify;

/**
 * One reason behind a finding: a log line, an accounting field, or a sanity check.
 *
 * @param line       1-based line number for log evidence (0 otherwise)
 * @param lineInFile true when {@code line} counts from the file's start; false when it counts from the start of
 *                   the tail that was read (the file was longer)
 * @param weight     how much this piece supports the kind (0..1]
 * @param match      the words of {@code text} the deciding signature matched (at most {@link #MAX_MATCH} chars), or
 *                   null when not known (accounting fields, checks, a line whose match could not be placed): a view
 *                   that has not room for the whole line shows the part around these words
 */
public record Evidence(Source source, long line, boolean lineInFile, String text, String kindId, double weight,
                       String match) {

    /** Where a piece of evidence comes from. */
    public enum Source { STDOUT, STDERR, ACCOUNTING, CHECK }

    /** Longest text kept: a longer line keeps this many characters around its match, marked {@code ...} where cut. */
    public static final int MAX_TEXT = 400;
    /** Longest match kept. */
    public static final int MAX_MATCH = 200;
    /** How much of a long line is kept before its match when the line is cut to {@link #MAX_TEXT}. */
    private static final int BEFORE_MATCH = 100;
    private static final String CUT = "...";

    public Evidence {
        if (match != null && (match.isBlank() || text == null || !text.contains(match))) {
            match = null;
        }
        if (match != null && match.length() > MAX_MATCH) {
            match = match.substring(0, MAX_MATCH);
        }
        if (text != null && text.length() > MAX_TEXT) {
            int at = match == null ? -1 : text.indexOf(match);
            if (at < 0 || at + match.length() <= MAX_TEXT) {
                text = text.substring(0, MAX_TEXT) + CUT;
            } else {
                // the matched words would be cut off: keep the part of the line around them (a 50 MB line's
                // evidence is its CUDA error, not its first 400 characters of noise)
                int from = Math.min(at - Math.min(at, BEFORE_MATCH), text.length() - (MAX_TEXT - CUT.length()));
                int to = Math.min(text.length(), from + MAX_TEXT - CUT.length());
                text = CUT + text.substring(from, to) + (to < text.length() ? CUT : "");
            }
            if (match != null && !text.contains(match)) {
                match = null;
            }
        }
    }

    /** A piece of evidence without a known match (accounting fields, checks). */
    public Evidence(Source source, long line, boolean lineInFile, String text, String kindId, double weight) {
        this(source, line, lineInFile, text, kindId, weight, null);
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
