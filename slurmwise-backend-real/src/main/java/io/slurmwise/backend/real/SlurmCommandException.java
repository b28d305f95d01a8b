package io.slurmwise.backend.real;

import io.slurmwise.backend.BackendException;

import java.util.List;

/**
 * A SLURM command could not give an answer. The message says what happened and what to do; {@link #failure()}
 * says which of the known ways it went wrong, so callers can fall back (e.g. from scontrol to the batch script
 * when slurmctld is down).
 */
public final class SlurmCommandException extends BackendException {
    private static final long serialVersionUID = 1L;

    /** The ways a SLURM command fails that slurmwise tells apart. */
    public enum Failure {
        /** The program is not on PATH or cannot be started. */
        MISSING,
        /** It did not finish within slurmwise's timeout (it was killed). */
        TIMEOUT,
        /** It printed more than slurmwise reads (it was killed). */
        OUTPUT_TOO_LARGE,
        /** slurmctld did not answer (squeue/sinfo/scontrol: "Unable to contact slurm controller"). */
        CONTROLLER_DOWN,
        /** slurmdbd, the accounting daemon, did not answer (sacct: "Problem talking to the database"). */
        ACCOUNTING_DOWN,
        /** sacct does not know a field it was asked for ("Invalid field requested"). */
        INVALID_FIELD,
        /** It printed something that is not its documented output (garbage, another program, cut short). */
        GARBLED,
        /** Any other non-zero exit. */
        FAILED
    }

    private final Failure failure;
    private final transient List<String> command;

    public SlurmCommandException(Failure failure, List<String> command, String message) {
        super(message);
        this.failure = failure;
        this.command = List.copyOf(command);
    }

    public Failure failure() {
        return failure;
    }

    /** The command line that failed, program first. */
    public List<String> command() {
        return command;
    }

    /** slurmctld is unreachable or too slow: scontrol/squeue/sinfo answers cannot be had right now. */
    public boolean controllerUnavailable() {
        return failure == Failure.CONTROLLER_DOWN || (failure == Failure.TIMEOUT && !command.isEmpty()
                && !command.get(0).equals(SlurmTool.SACCT.executable()));
    }
}
