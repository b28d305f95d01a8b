package io.slurmwise.cli.context;

/** A problem the user can fix; printed as one line with its exit code, never a stack trace. */
public final class UserError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int exitCode;

    public UserError(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
