package io.slurmwise.diagnose;

/**
 * The finding in words.
 *
 * @param source {@code template}, or the model that worded it (which never changes the kind)
 */
public record Explanation(String text, String source) {
}
