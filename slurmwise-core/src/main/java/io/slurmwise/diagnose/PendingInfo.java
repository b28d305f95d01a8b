package io.slurmwise.diagnose;

import io.slurmwise.classify.Finding;

import io.slurmwise.patch.Patch;

import java.util.List;
import java.util.Optional;

/**
 * Why a pending job waits.
 *
 * @param finding a failure kind when the reason is one (e.g. dependency, qos_limit), else null
 * @param patch   for a job that can never start as submitted: the nearest request that can (or why there is
 *                none); null otherwise
 * @param notices what else holds the job besides its reason (its account's allocation is used up: a request the
 *                patch fixes waits on it next)
 */
public record PendingInfo(String reason, PendingReasons.Startability startability, String meaning, Finding finding,
                          List<FixNote> fixes, Patch patch, List<String> notices) {

    public PendingInfo {
        fixes = List.copyOf(fixes);
        notices = notices == null ? List.of() : List.copyOf(notices);
    }

    public PendingInfo(String reason, PendingReasons.Startability startability, String meaning, Finding finding,
                       List<FixNote> fixes, Patch patch) {
        this(reason, startability, meaning, finding, fixes, patch, List.of());
    }

    public PendingInfo(String reason, PendingReasons.Startability startability, String meaning, Finding finding,
                       List<FixNote> fixes) {
        this(reason, startability, meaning, finding, fixes, null, List.of());
    }

    public Optional<Patch> optPatch() {
        return Optional.ofNullable(patch);
    }
}
