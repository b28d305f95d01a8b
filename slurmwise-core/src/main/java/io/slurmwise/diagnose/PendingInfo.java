package io.slurmwise.diagnose;

import io.slurmwise.classify.Finding;

import java.util.List;

/**
 * Why a pending job waits.
 *
 * @param finding a failure kind when the reason is one (e.g. dependency, qos_limit), else null
 */
public record PendingInfo(String reason, PendingReasons.Startability startability, String meaning, Finding finding,
                          List<FixNote> fixes) {

    public PendingInfo {
        fixes = List.copyOf(fixes);
    }
}
