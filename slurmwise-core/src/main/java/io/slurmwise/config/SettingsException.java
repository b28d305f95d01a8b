package io.slurmwise.config;

/** A setting is invalid or names something that is not there; the message says which and what to set instead. */
public class SettingsException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public SettingsException(String message) {
        super(message);
    }

    public SettingsException(String message, Throwable cause) {
        super(message, cause);
    }
}
