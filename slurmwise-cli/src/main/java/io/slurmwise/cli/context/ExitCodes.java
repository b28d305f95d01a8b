package io.slurmwise.cli.context;

/** The exit codes of every slurmwise command (documented in README.md and in --help). */
public final class ExitCodes {
    public static final int OK = 0;
    /** An unexpected internal error (a bug: please report it with SLURMWISE_DEBUG=1 output). */
    public static final int INTERNAL = 1;
    /** Bad usage: unknown option, malformed job id, bad time or value. */
    public static final int USAGE = 2;
    /** The job is not known to the cluster's accounting. */
    public static final int NOT_FOUND = 3;
    /** No backend could answer: SLURM commands missing, slurmdbd or slurmctld down, bad mock folder. */
    public static final int BACKEND = 4;
    /** An input file (log, case file) is missing or unreadable. */
    public static final int INPUT = 5;
    /** Configuration is invalid: a knowledge note, a settings variable or a site file. */
    public static final int CONFIG = 6;
    /** There is nothing of what was asked for: {@code diagnose --patch} of a job that has no patch. */
    public static final int NOTHING = 7;

    private ExitCodes() {
    }
}
