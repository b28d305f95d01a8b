package io.slurmwise.taxonomy;

/** One {@code ##} section of a note: the unit that is retrieved and shown. */
public record NoteSection(String heading, String text) {
}
