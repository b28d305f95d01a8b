package io.slurmwise.job;

/** A job id that is not in any form SLURM uses. The message says which forms are accepted. */
public final class InvalidJobIdException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidJobIdException(String text) {
        super("'" + text + "' is not a SLURM job id; use a number such as 1001, an array task such as 4242_3,"
                + " a het component such as 123+1, or a step such as 123.batch");
    }
}
