package io.slurmwise.taxonomy;

import com.google.re2j.Pattern;
import io.slurmwise.job.JobState;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A kind of failure, loaded from the front matter of its note in {@code knowledge/<id>.md}. Adding a kind is
 * adding a file.
 *
 * @param parent        the broader kind this refines (e.g. illegal_instruction -> segfault), or null
 * @param explains      kinds this one commonly causes downstream: when both are seen, this one is the root cause
 * @param ignore        lines matching one of these are never evidence for this kind (benign noise), read as a
 *                      signature reads a line (the classifier's {@code LineText})
 * @param fixers        names of the mechanical script fixes for this kind, in order ({@code fixers:} in the note)
 * @param exitStatuses  exit statuses of its own ({@code wrapper_status: statuses:}, e.g. 127, a command not found)
 *                      and their weight: a wrapper's report of one, or a job whose ExitCode is one ({@code 127:0})
 */
public record FailureKind(String id, String title, Category category, String parent, Set<JobState> sacctStates,
                          Set<Integer> exitSignals, List<Pattern> pendingReasons, Set<String> explains,
                          List<Signature> signatures, List<Pattern> ignore, Set<Check> checks, List<String> fixers,
                          ExitStatuses exitStatuses, Note note) {

    /** A kind's own exit statuses (none for most kinds) and how much one weighs as evidence. */
    public record ExitStatuses(Set<Integer> statuses, double weight) {

        public static final ExitStatuses NONE = new ExitStatuses(Set.of(), 0);

        public ExitStatuses {
            statuses = Set.copyOf(statuses);
        }
    }

    public static final String UNKNOWN = "unknown";

    public FailureKind {
        sacctStates = Set.copyOf(sacctStates);
        exitSignals = Set.copyOf(exitSignals);
        pendingReasons = List.copyOf(pendingReasons);
        explains = Set.copyOf(explains);
        signatures = List.copyOf(signatures);
        ignore = List.copyOf(ignore);
        checks = Set.copyOf(checks);
        fixers = List.copyOf(fixers);
        exitStatuses = exitStatuses == null ? ExitStatuses.NONE : exitStatuses;
    }

    public Optional<String> optParent() {
        return Optional.ofNullable(parent);
    }

    public boolean isUnknown() {
        return UNKNOWN.equals(id);
    }
}
