package io.slurmwise.eval;

import io.slurmwise.classify.JobFacts;

/**
 * One labeled case of a benchmark file: a failed job's log and accounting facts, and the failure kind it should
 * be classified as.
 *
 * @param line   the line of the file the case was read from (1-based)
 * @param split  {@code dev} (tune on it), {@code test} (report it); a case without a split counts as test
 * @param label  the expected kind, or {@code none}: no failure cause (the right answer is {@code unknown})
 * @param facts  sacct state, exit code, memory and time facts (every field may be null)
 * @param log    stdout and stderr together
 * @param hard   its notes start with {@code hard:} (cascades, several signatures, benign noise, ...)
 * @param clear  the log and facts show the cause the label names; {@code false} (key {@code "clear": false}) when the
 *               label comes from the source's words elsewhere (a maintainer's answer) and the text alone cannot decide
 */
public record BenchmarkCase(int line, String id, String split, String label, JobFacts facts, String log,
                            String source, String notes, boolean hard, boolean clear) {

    public static final String NONE = "none";

    /** The kind a correct classifier answers: the label, or {@code unknown} for {@code none}. */
    public String expectedKind() {
        return NONE.equals(label) ? io.slurmwise.taxonomy.FailureKind.UNKNOWN : label;
    }
}
