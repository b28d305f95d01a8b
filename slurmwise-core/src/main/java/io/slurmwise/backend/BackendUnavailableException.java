package io.slurmwise.backend;

/** No backend can be used: none on the classpath, an unknown name, or its commands or files are missing. */
public class BackendUnavailableException extends BackendException {
    private static final long serialVersionUID = 1L;

    public BackendUnavailableException(String message) {
        super(message);
    }

    public BackendUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
