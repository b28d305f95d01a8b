package io.slurmwise.taxonomy;

import com.google.re2j.Pattern;
import io.slurmwise.backend.LogStream;

/**
 * One log pattern of a failure kind: an RE2 regex (linear time on any input) tested per line.
 *
 * @param stream   the stream it applies to, or null for both
 * @param weight   how sure one matching line alone makes us of the kind (0..1]
 * @param lastLine    when true the pattern is tested only on the last non-blank line of each log: how a log ends
 *                    says more than the same words in the middle (a bare {@code Killed} that nothing follows)
 * @param unlessAfter an RE2 regex, or null: a matching line is no evidence when an earlier line of the same log
 *                    matches it (the line is then that earlier event's consequence: SLURM's bare {@code STEP ...
 *                    CANCELLED} after srun's own {@code Terminating StepId=...})
 * @param unlessBefore an RE2 regex, or null: a matching line is no evidence when a later line of the same log
 *                     matches it (the later line says the event did not happen: scancel's {@code Terminating job}
 *                     followed by its own {@code Kill job error ... Invalid job id specified})
 * @param onlyWith     an RE2 regex, or null: a matching line is evidence only when another line of the same log (before
 *                     or after it) matches it too: a message that means the kind only beside another (SLURM 17.11's
 *                     {@code get_exit_code task 0 died by signal} beside its {@code Exceeded step memory limit at some
 *                     point.})
 */
public record Signature(String kindId, String pattern, Pattern regex, double weight, LogStream stream,
                        boolean lastLine, String unlessAfter, String unlessBefore, String onlyWith) {

    public Signature(String kindId, String pattern, Pattern regex, double weight, LogStream stream) {
        this(kindId, pattern, regex, weight, stream, false, null, null, null);
    }

    public Signature(String kindId, String pattern, Pattern regex, double weight, LogStream stream,
                     boolean lastLine) {
        this(kindId, pattern, regex, weight, stream, lastLine, null, null, null);
    }

    public boolean appliesTo(LogStream s) {
        return stream == null || stream == s;
    }
}
