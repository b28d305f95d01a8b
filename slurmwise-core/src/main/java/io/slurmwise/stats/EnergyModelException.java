package io.slurmwise.stats;

/** An energy setting is invalid (a site file key or value, a flag); the message names the file, line or key. */
public final class EnergyModelException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EnergyModelException(String message) {
        super(message);
    }
}
