package io.slurmwise.taxonomy;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The body of a knowledge note: its title and {@code ##} sections (Cause, What to check, Fixes, Prevention...).
 *
 * @param source where it was read from (a file path, or {@code classpath:...} for the bundled notes)
 */
public record Note(String kindId, String title, List<NoteSection> sections, String source) {

    public Note {
        sections = List.copyOf(sections);
    }

    public Optional<NoteSection> section(String heading) {
        String h = heading.toLowerCase(Locale.ROOT);
        return sections.stream().filter(s -> s.heading().toLowerCase(Locale.ROOT).equals(h)).findFirst();
    }

    /** The numbered items of the Fixes section, each with its continuation lines. */
    public List<String> fixes() {
        return section("Fixes").map(NoteSection::items).orElse(List.of());
    }
}
