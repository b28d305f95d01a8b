package io.slurmwise.diagnose;

import java.util.List;

/**
 * A piece of a knowledge note offered as a fix: which note and section, its text, and how well it matched.
 *
 * @param source where the note lives (file path or classpath location)
 * @param items  the section's numbered items as the note was parsed at load (a Fixes section's fixes), fitted to
 *               the job when it was diagnosed; empty when the section has no numbered list
 */
public record FixNote(String kindId, String noteTitle, String section, String text, double score, String source,
                      List<String> items) {

    public FixNote {
        items = List.copyOf(items);
    }

    /** A piece without numbered items (free text). */
    public FixNote(String kindId, String noteTitle, String section, String text, double score, String source) {
        this(kindId, noteTitle, section, text, score, source, List.of());
    }

    /** The same piece with its text and items replaced (placeholders filled, items fitted to the job). */
    public FixNote withContent(String newText, List<String> newItems) {
        return new FixNote(kindId, noteTitle, section, newText, score, source, newItems);
    }
}
