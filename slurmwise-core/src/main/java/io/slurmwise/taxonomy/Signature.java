package io.slurmwise.taxonomy;

import com.google.re2j.Pattern;
import io.slurmwise.backend.LogStream;

/**
 * One log pattern of a failure kind: an RE2 regex (linear time on any input) tested per line.
 *
 * @param stream   the stream it applies to, or null for both
 * @param weight   how sure one matching line alone makes us of the kind (0..1]
 * @param lastLine when true the pattern is tested only on the last non-blank line of each log: how a log ends
 *                 says more than the same words in the middle (a bare {@code Killed} that nothing follows)
 */
public record Signature(String kindId, String pattern, Pattern regex, double weight, LogStream stream,
                        boolean lastLine) {

    public Signature(String kindId, String pattern, Pattern regex, double weight, LogStream stream) {
        this(kindId, pattern, regex, weight, stream, false);
    }

    public boolean appliesTo(LogStream s) {
        return stream == null || stream == s;
    }
}
