package io.slurmwise.kb.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One retrievable piece of a knowledge note: a {@code ##} section (Cause, What to check, Fixes, ...). It is
 * embedded as its {@link #passages() passages} and shown whole.
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

    /** Passages shorter than this are merged with the next one: a lone line carries too little meaning. */
    public static final int MIN_PASSAGE = 80;

    /**
     * The section cut into passages at blank lines and list items ({@code - }, {@code 1. }); code blocks stay
     * whole, and pieces shorter than {@value #MIN_PASSAGE} characters join the next one.
     */
    public List<Passage> passages() {
        List<String> pieces = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean fence = false;
        for (String line : text.split("\n")) {
            if (line.strip().startsWith("```")) {
                fence = !fence;
            }
            boolean boundary = !fence && (line.isBlank() || line.matches("(- |\\d{1,2}\\. ).*"));
            if (boundary && cur.length() > 0) {
                pieces.add(cur.toString().strip());
                cur.setLength(0);
            }
            if (!line.isBlank()) {
                cur.append(line).append('\n');
            }
        }
        if (cur.length() > 0) {
            pieces.add(cur.toString().strip());
        }
        List<String> merged = new ArrayList<>();
        String carry = "";
        for (String piece : pieces) {
            String p = carry.isEmpty() ? piece : carry + "\n" + piece;
            if (p.length() < MIN_PASSAGE) {
                carry = p;
            } else {
                merged.add(p);
                carry = "";
            }
        }
        if (!carry.isEmpty()) {
            if (merged.isEmpty()) {
                merged.add(carry);
            } else {
                merged.set(merged.size() - 1, merged.get(merged.size() - 1) + "\n" + carry);
            }
        }
        List<Passage> out = new ArrayList<>(merged.size());
        for (int i = 0; i < merged.size(); i++) {
            out.add(new Passage(id + "/" + i, this, merged.get(i)));
        }
        return out;
    }
}
