package io.slurmwise.kb.spi;

/**
 * The unit that is embedded: a paragraph, list item or code block of a section (short pieces are merged with
 * their neighbours). A section matches a query as well as its best passage does, so a specific message in one
 * bullet is not diluted by the rest of a long section.
 *
 * @param id    {@code <chunk id>/<index>}, e.g. {@code oom#fixes/2}
 * @param chunk the section it belongs to
 * @param text  the passage's text alone
 */
public record Passage(String id, Chunk chunk, String text) {

    /** What is embedded: the note's title and the section heading give the passage its topic. */
    public String embeddingText() {
        return chunk.noteTitle() + " - " + chunk.section() + "\n" + text;
    }
}
