package io.slurmwise.kb.spi;

/** The knowledge base cannot do what was asked; the message says what happened and what to do. */
public class KbException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public KbException(String message) {
        super(message);
    }

    public KbException(String message, Throwable cause) {
        super(message, cause);
    }
}
