package io.slurmwise.backend.real;

import io.slurmwise.backend.BackendException;

import java.util.List;

/**
 * A command outside the {@link Allowlist} was about to run. It never did: this is thrown before any program is
 * looked up. Seeing it means a bug in slurmwise, not in the cluster.
 */
public final class ForbiddenCommandException extends BackendException {
    private static final long serialVersionUID = 1L;

    public ForbiddenCommandException(String program, List<String> args, String why) {
        super("refused to run `" + program + (args.isEmpty() ? "" : " " + String.join(" ", args)) + "`: " + why
                + ". slurmwise only reads the cluster (sacct, scontrol show, sinfo, squeue); this is a bug, please"
                + " report it");
    }
}
