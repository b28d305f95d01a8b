package io.slurmwise.diagnose;

import java.util.List;
import java.util.Set;

/**
 * A piece of a knowledge note offered as a fix: which note and section, its text, and how well it matched.
 *
 * @param source where the note lives (file path or classpath location)
 * @param items    the section's numbered items as the note was parsed at load (a Fixes section's fixes), fitted to
 *                 the job when it was diagnosed; empty when the section has no numbered list
 * @param followed those of {@code items} that the job's batch script already follows (they say so, and rank last)
 */
public record FixNote(String kindId, String noteTitle, String section, String text, double score, String source,
                      List<String> items, Set<String> followed) {

    public FixNote {
        items = List.copyOf(items);
        followed = Set.copyOf(followed);
    }

    /** A piece whose items the job may not follow yet (as a note gives them). */
    public FixNote(String kindId, String noteTitle, String section, String text, double score, String source,
                   List<String> items) {
        this(kindId, noteTitle, section, text, score, source, items, Set.of());
    }

    /** A piece without numbered items (free text). */
    public FixNote(String kindId, String noteTitle, String section, String text, double score, String source) {
        this(kindId, noteTitle, section, text, score, source, List.of());
    }

    /** The same piece with its text and items replaced (placeholders filled, items fitted to the job, reordered). */
    public FixNote withContent(String newText, List<String> newItems) {
        return withContent(newText, newItems, followed);
    }

    /** The same, with the items among {@code newItems} that the job's script already follows. */
    public FixNote withContent(String newText, List<String> newItems, Set<String> newFollowed) {
        Set<String> kept = new java.util.HashSet<>(newFollowed);
        kept.retainAll(newItems);
        return new FixNote(kindId, noteTitle, section, newText, score, source, newItems, kept);
    }

    /** Whether the job's script already follows {@code item}. */
    public boolean followed(String item) {
        return followed.contains(item);
    }
}
