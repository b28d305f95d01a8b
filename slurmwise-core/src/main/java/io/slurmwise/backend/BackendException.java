package io.slurmwise.backend;

/** The cluster could not answer. The message says what happened and what to do next. */
public class BackendException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BackendException(String message) {
        super(message);
    }

    public BackendException(String message, Throwable cause) {
        super(message, cause);
    }
}
