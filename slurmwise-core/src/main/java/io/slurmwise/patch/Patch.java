package io.slurmwise.patch;

import java.util.List;
import java.util.function.Function;

/**
 * A suggested change to a failed job's batch script: a unified diff that is printed, never applied. When no diff
 * can be made (the script is not available, or the failure has no mechanical fix), the reason is said, and the
 * changes that would have been made are still listed in words.
 *
 * <pre>{@code
 * Patch p = suggester.suggest(job, finding, logs, backend.batchScript(job), backend.partitions());
 * System.out.println(p.fold(Patch.Suggested::diff, Patch.NotSuggested::reason));
 * }</pre>
 */
public sealed interface Patch permits Patch.Suggested, Patch.NotSuggested {

    /** What the patch changes (or would change), each with why. */
    List<Change> changes();

    /** Advice that is not a script change (a longer partition, trapping the signal, a pip install...). */
    List<String> advice();

    /** Exactly one function runs; a new kind of patch adds a parameter, so no caller can skip it silently. */
    <R> R fold(Function<? super Suggested, ? extends R> suggested, Function<? super NotSuggested, ? extends R> notSuggested);

    /**
     * One change in words ({@code --mem=48G (was 32G)}) and why, with the sbatch options it sets and their new values
     * ({@code mem -> 48G}; a flag such as {@code --requeue} is not listed): read from the script before and after the
     * change, so advice that agrees with the patch never parses the wording.
     */
    record Change(String what, String why, java.util.Map<String, String> sets) {
        public Change {
            sets = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(sets));
        }

        public Change(String what, String why) {
            this(what, why, java.util.Map.of());
        }
    }

    /**
     * A diff of the batch script.
     *
     * @param scriptName the name used in the diff header, e.g. {@code 1001.sh}
     * @param original   the script as the cluster stored it
     * @param patched    the script with the changes (same line endings)
     * @param diff       unified diff, {@code --- a/<name>} / {@code +++ b/<name>}, LF line breaks
     */
    record Suggested(String scriptName, String original, String patched, String diff, List<Change> changes,
                     List<String> advice) implements Patch {
        public Suggested {
            changes = List.copyOf(changes);
            advice = List.copyOf(advice);
        }

        @Override
        public <R> R fold(Function<? super Suggested, ? extends R> suggested,
                          Function<? super NotSuggested, ? extends R> notSuggested) {
            return suggested.apply(this);
        }
    }

    /**
     * No diff: the reason, and what would change if the script were at hand.
     *
     * @param reason e.g. "the batch script of job 1004 is not available (...)"
     */
    record NotSuggested(String reason, List<Change> changes, List<String> advice) implements Patch {
        public NotSuggested {
            changes = List.copyOf(changes);
            advice = List.copyOf(advice);
        }

        @Override
        public <R> R fold(Function<? super Suggested, ? extends R> suggested,
                          Function<? super NotSuggested, ? extends R> notSuggested) {
            return notSuggested.apply(this);
        }
    }
}
