package io.slurmwise.kb;

import io.slurmwise.kb.spi.Chunk;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.NoteSection;
import io.slurmwise.taxonomy.Taxonomy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Cuts the notes of a taxonomy into chunks, one per {@code ##} section, in a stable order (kinds by id, sections as
 * written). Empty sections are skipped.
 *
 * <pre>{@code
 * List<Chunk> chunks = Chunker.chunks(Taxonomy.load(null));   // 117 sections of the 23 bundled notes
 * }</pre>
 */
public final class Chunker {

    /** Bumped when chunking or passage splitting changes, so that indexes built by an older version are rebuilt. */
    public static final int VERSION = 2;

    private Chunker() {
    }

    public static List<Chunk> chunks(Taxonomy taxonomy) {
        List<FailureKind> kinds = new ArrayList<>(taxonomy.kinds());
        kinds.sort((a, b) -> a.id().compareTo(b.id()));
        List<Chunk> out = new ArrayList<>();
        for (FailureKind k : kinds) {
            Set<String> ids = new HashSet<>();
            List<NoteSection> sections = k.note().sections();
            for (int i = 0; i < sections.size(); i++) {
                NoteSection s = sections.get(i);
                if (s.text().isBlank()) {
                    continue;
                }
                String id = k.id() + "#" + slug(s.heading());
                if (!ids.add(id)) {
                    id = id + "-" + i;
                    ids.add(id);
                }
                out.add(new Chunk(id, k.id(), k.note().title(), s.heading(), i, s.text(), k.note().source()));
            }
        }
        return List.copyOf(out);
    }

    /** {@code What to check} -> {@code what-to-check}. */
    static String slug(String heading) {
        String s = heading.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        return s.isEmpty() ? "section" : s;
    }
}
