package io.slurmwise.classify;

import java.util.Optional;

/**
 * A wrapper's report that gives a child's exit status under its label rather than beside it. Nextflow's error report
 * (TaskProcessor's formatted task error; nextflow-io/training, docs/basic_training/debugging.md) prints
 * <pre>
 * Command exit status:
 *   137
 * </pre>
 * and a log pasted without the report's {@code Caused by: Process `x` terminated with an error exit status (137)} line
 * has only this. The two lines are read as the one they mean, {@code Command exit status: 137}, which the kinds' wrapper
 * signatures read ({@code io.slurmwise.taxonomy.WrapperStatus}'s {@code exit status: N}); the value is the line after
 * the label, as a reader sees it (colours, a {@code \r} progress bar, Markdown backticks, a launcher's or logger's
 * prefix taken away), or the next line the label's line carries with an escaped line break.
 */
final class StatusField {

    /** The label, as the scan finds its line (RE2; case-insensitive: some tools lowercase what they log). */
    static final String LABEL_PATTERN = "(?i)\\bcommand exit status:";
    private static final String LABEL = "command exit status:";
    /** An exit status is 0..255: at most three digits. */
    private static final java.util.regex.Pattern VALUE = java.util.regex.Pattern.compile("(\\d{1,3})");

    private StatusField() {
    }

    /**
     * A field's value: the status, and whether it is on the line after the label's (else the label's line carries it
     * with an escaped line break).
     */
    record Value(int status, boolean onNextLine) {
    }

    /** The label and its value as one line, e.g. {@code Command exit status: 137}. */
    static String joined(int status) {
        return "Command exit status: " + status;
    }

    /**
     * The status the field gives: the value under the label, from the label's line and the line after it (null at
     * the log's end), or empty when the label's line is not the field's (the label mid-sentence, a value on the
     * same line, which the signatures read as it is) or the value is not a status.
     */
    static Optional<Value> read(String labelLine, String nextLine) {
        String[] segments = LineText.Reading.segmentsOf(labelLine);
        for (int i = 0; i < segments.length; i++) {
            // ASCII lowering keeps every offset (a full Unicode lowering can lengthen a line: İ becomes two chars)
            String lowered = LineText.lowerAscii(segments[i]);
            int at = lowered.lastIndexOf(LABEL);
            if (at < 0) {
                continue;
            }
            if (!segments[i].substring(at + LABEL.length()).isBlank()) {
                return Optional.empty(); // the value beside the label, or words: read as the line is
            }
            if (i + 1 < segments.length) {
                return value(segments[i + 1], false); // the next line, carried with an escaped line break
            }
            return nextLine == null ? Optional.empty() : value(LineText.shown(nextLine), true);
        }
        return Optional.empty();
    }

    /** A line that is only a status, once a launcher's or logger's prefix is peeled off. */
    private static Optional<Value> value(String line, boolean onNextLine) {
        String bare = LineText.peeled(line).strip();
        java.util.regex.Matcher m = VALUE.matcher(bare);
        if (!m.matches()) {
            return Optional.empty();
        }
        int status = Integer.parseInt(m.group(1));
        return status <= 255 ? Optional.of(new Value(status, onNextLine)) : Optional.empty();
    }
}
