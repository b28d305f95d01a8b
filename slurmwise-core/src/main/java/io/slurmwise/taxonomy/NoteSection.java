package io.slurmwise.taxonomy;

import java.util.List;

/** One {@code ##} section of a note: the unit that is retrieved and shown. */
public record NoteSection(String heading, String text) {

    /** The items of the section's numbered list ({@code 1. ...}), each with its continuation lines; may be empty. */
    public List<String> numberedItems() {
        return NoteParser.numberedItems(text);
    }
}
