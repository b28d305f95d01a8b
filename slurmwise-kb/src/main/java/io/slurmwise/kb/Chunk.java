package io.slurmwise.kb;

import java.util.Objects;

/**
 * One retrievable piece of a knowledge note: a {@code ##} section (Cause, What to check, Fixes, ...).
 *
 * <pre>{@code
 * Chunk c = Chunker.chunks(Taxonomy.load(null)).get(0);
 * c.id();        // "allocation_exhausted#cause"
 * c.source();    // "knowledge/allocation_exhausted.md"
 * }</pre>
 *
 * @param id        stable id, {@code <kind>#<section-slug>}
 * @param kindId    the failure kind whose note this section belongs to
 * @param noteTitle the note's title (the kind's title)
 * @param section   the section heading, as written
 * @param position  0-based position of the section in its note
 * @param text      the section's markdown text, without its heading
 * @param source    where the note lives (a file path, {@code knowledge/<kind>.md} for the bundled notes)
 */
public record Chunk(String id, String kindId, String noteTitle, String section, int position, String text,
                    String source) {

    public Chunk {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kindId, "kindId");
        Objects.requireNonNull(section, "section");
        Objects.requireNonNull(text, "text");
    }

    /** What is embedded: the note's title and the heading give a section its topic when read alone. */
    public String embeddingText() {
        return noteTitle + " - " + section + "\n" + text;
    }
}
