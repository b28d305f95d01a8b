package io.slurmwise.kb;

import io.slurmwise.kb.spi.Passage;
import io.slurmwise.kb.spi.Chunk;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ChunkerTest {

    static final Taxonomy T = Taxonomy.load(null);

    @Test
    void everySectionOfEveryNoteIsAChunkWithAStableId() {
        List<Chunk> chunks = Chunker.chunks(T);
        int sections = T.kinds().stream().mapToInt(k -> k.note().sections().size()).sum();
        assertThat(chunks).hasSize(sections);
        Set<String> ids = new HashSet<>();
        chunks.forEach(c -> assertThat(ids.add(c.id())).as(c.id()).isTrue());
        assertThat(ids).contains("oom#fixes", "oom#what-to-check", "cuda_oom#cause", "time_limit#prevention");
        assertThat(Chunker.chunks(T)).isEqualTo(chunks);
        Chunk fixes = chunks.stream().filter(c -> c.id().equals("oom#fixes")).findFirst().orElseThrow();
        assertThat(fixes.source()).isEqualTo("knowledge/oom.md");
        assertThat(fixes.noteTitle()).isEqualTo("Out of memory (host RAM)");
        assertThat(fixes.text()).startsWith("1. Ask for more memory");
    }

    @Test
    void passagesCoverTheSectionAndKeepCodeBlocksWhole() {
        for (Chunk c : Chunker.chunks(T)) {
            List<Passage> ps = c.passages();
            assertThat(ps).as(c.id()).isNotEmpty();
            String joined = String.join("\n", ps.stream().map(Passage::text).toList());
            for (String line : c.text().lines().filter(l -> !l.isBlank()).toList()) {
                assertThat(joined).as(c.id()).contains(line.strip());
            }
            for (Passage p : ps) {
                assertThat(p.id()).startsWith(c.id() + "/");
                assertThat(p.text().split("```", -1).length % 2).as("fences balanced in " + p.id()).isEqualTo(1);
                if (ps.size() > 1) {
                    assertThat(p.text().length()).as(p.id()).isGreaterThanOrEqualTo(Chunk.MIN_PASSAGE / 2);
                }
            }
        }
        Chunk timeLimitFixes = Chunker.chunks(T).stream().filter(c -> c.id().equals("time_limit#fixes")).findFirst().orElseThrow();
        assertThat(timeLimitFixes.passages()).anyMatch(p -> p.text().contains("#SBATCH --requeue")
                && p.text().contains("wait \"$PID\""));
    }

    @Test
    void headingsBecomeSlugs() {
        assertThat(Chunker.slug("What to check")).isEqualTo("what-to-check");
        assertThat(Chunker.slug("Messages that are not an OOM kill")).isEqualTo("messages-that-are-not-an-oom-kill");
        assertThat(Chunker.slug("???")).isEqualTo("section");
    }

    @Test
    void everyKindHasChunks() {
        for (FailureKind k : T.kinds()) {
            assertThat(Chunker.chunks(T)).as(k.id()).anyMatch(c -> c.kindId().equals(k.id()));
        }
    }
}
