package io.slurmwise.taxonomy;

import java.util.List;

/**
 * One {@code ##} section of a note: the unit that is retrieved and shown.
 *
 * @param text     the section's markdown as shown without a job (placeholders are their fallback words)
 * @param items    the items of the section's numbered list ({@code 1. ...}), each with its continuation lines, parsed
 *                 once when the note is loaded; empty when the section has no numbered list
 * @param template the section as written, with its {@link Placeholders} (equal to {@code text} when it has none)
 * @param templateItems the numbered items as written, placeholders included
 */
public record NoteSection(String heading, String text, List<String> items, String template, List<String> templateItems) {

    public NoteSection {
        items = List.copyOf(items);
        templateItems = List.copyOf(templateItems);
    }

    /** A section parsed from its markdown {@code written} (once, here). */
    public NoteSection(String heading, String written) {
        this(heading, Placeholders.generic(written), NoteParser.numberedItems(Placeholders.generic(written)), written,
                NoteParser.numberedItems(written));
    }

    /** Whether the section holds placeholders to fill from a job. */
    public boolean hasPlaceholders() {
        return !template.equals(text);
    }

    /** The items of a numbered markdown list in {@code text} (a section's text as a knowledge base returns it). */
    public static List<String> itemsOf(String text) {
        return NoteParser.numberedItems(text);
    }

    /** The items of the section's numbered list; the same as {@link #items()}. */
    public List<String> numberedItems() {
        return items;
    }
}
