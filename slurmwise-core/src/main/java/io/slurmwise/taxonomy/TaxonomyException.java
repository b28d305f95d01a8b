package io.slurmwise.taxonomy;

/** A knowledge note that cannot be loaded; the message names the file and line and says what to fix. */
public final class TaxonomyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TaxonomyException(String message) {
        super(message);
    }

    public TaxonomyException(String message, Throwable cause) {
        super(message, cause);
    }
}
