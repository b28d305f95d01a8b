package io.slurmwise.taxonomy;

import java.util.List;

/**
 * One {@code ##} section of a note: the unit that is retrieved and shown.
 *
 * @param items the items of the section's numbered list ({@code 1. ...}), each with its continuation lines, parsed
 *              once when the note is loaded; empty when the section has no numbered list
 */
public record NoteSection(String heading, String text, List<String> items) {

    public NoteSection {
        items = List.copyOf(items);
    }

    /** A section whose numbered items are parsed from {@code text} (once, here). */
    public NoteSection(String heading, String text) {
        this(heading, text, NoteParser.numberedItems(text));
    }

    /** The items of the section's numbered list; the same as {@link #items()}. */
    public List<String> numberedItems() {
        return items;
    }
}
