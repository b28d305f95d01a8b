package io.slurmwise.diagnose;

/**
 * A piece of a knowledge note offered as a fix: which note and section, its text, and how well it matched.
 *
 * @param source where the note lives (file path or classpath location)
 */
public record FixNote(String kindId, String noteTitle, String section, String text, double score, String source) {
}
