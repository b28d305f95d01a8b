package io.slurmwise.job;

/**
 * A job id that is not in any form SLURM uses, or whose numbers SLURM cannot have. The message says what is wrong
 * and which forms are accepted.
 */
public final class InvalidJobIdException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** What a valid id looks like, the end of every message. */
    static final String FORMS = "use a number such as 1001, an array task such as 4242_3, a het component such as"
            + " 123+1, or a step such as 123.batch";

    public InvalidJobIdException(String text) {
        super("'" + text + "' is not a SLURM job id; " + FORMS);
    }

    /**
     * An id in SLURM's form whose numbers SLURM cannot have.
     *
     * @param why what is wrong with it, e.g. "job ids are at most 4294967292 (SLURM's are 32-bit)"
     */
    public InvalidJobIdException(String text, String why) {
        super("'" + text + "' is not a SLURM job id: " + why + "; " + FORMS);
    }
}
