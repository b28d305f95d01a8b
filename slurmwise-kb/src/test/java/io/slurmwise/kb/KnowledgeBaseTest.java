package io.slurmwise.kb;

import io.slurmwise.kb.spi.Chunk;
import io.slurmwise.kb.spi.KbException;
import io.slurmwise.kb.embed.Embedders;
import io.slurmwise.kb.store.EmbeddedStore;
import io.slurmwise.kb.spi.IndexKey;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The index's life: built on first use, reused, rebuilt when notes or model change, written atomically. */
class KnowledgeBaseTest {

    static final Taxonomy T = Taxonomy.load(null);

    static KbConfig hash(Path dir) {
        return new KbConfig(dir, Embedders.choose("hash"), null, null, null, null, false, null, KbConfig.DEFAULT_KIND_BOOST);
    }

    @Test
    void theFirstSearchBuildsTheIndexAndLaterOnesReuseIt(@TempDir Path dir) throws IOException {
        List<String> notices = new ArrayList<>();
        KnowledgeBase kb = KnowledgeBase.open(T, hash(dir), notices::add);
        assertThat(kb.isBuilt()).isFalse();
        List<Hit> hits = kb.search("CUDA out of memory. Tried to allocate 2.00 GiB", 3, Set.of());
        assertThat(hits.get(0).chunk().kindId()).isEqualTo("cuda_oom");
        assertThat(notices).singleElement().asString().startsWith("building the knowledge index");
        Path file = new EmbeddedStore(dir).file(kb.key());
        assertThat(file).exists();
        Files.setLastModifiedTime(file, FileTime.fromMillis(0));

        List<String> again = new ArrayList<>();
        KnowledgeBase reopened = KnowledgeBase.open(T, hash(dir), again::add);
        assertThat(reopened.isBuilt()).isTrue();
        assertThat(reopened.search("CUDA out of memory. Tried to allocate 2.00 GiB", 3, Set.of()))
                .extracting(h -> h.chunk().id()).isEqualTo(hits.stream().map(h -> h.chunk().id()).toList());
        assertThat(again).isEmpty();
        assertThat(Files.getLastModifiedTime(file).toMillis()).as("not rewritten").isZero();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no temporary files left")
                    .allMatch(n -> n.startsWith("index-") && n.endsWith(".bin"));
        }
    }

    @Test
    void changedNotesGetANewIndexAndTheOldOneIsRemoved(@TempDir Path dir, @TempDir Path site) throws IOException {
        KnowledgeBase before = KnowledgeBase.open(T, hash(dir), m -> { });
        before.ensureIndex();
        Path oldFile = new EmbeddedStore(dir).file(before.key());
        assertThat(oldFile).exists();

        String oom = Files.readString(Path.of("..", "knowledge", "oom.md"));
        Files.writeString(site.resolve("oom.md"), oom.replace("## Prevention\n", "## Prevention\nRun `seff` after every job.\n"));
        KnowledgeBase after = KnowledgeBase.open(Taxonomy.load(site), hash(dir), m -> { });
        assertThat(after.key()).isNotEqualTo(before.key());
        assertThat(after.isBuilt()).isFalse();
        assertThat(after.search("Run seff after every job", 1, Set.of()).get(0).chunk().id()).isEqualTo("oom#prevention");
        assertThat(new EmbeddedStore(dir).file(after.key())).exists();
        assertThat(oldFile).doesNotExist();
    }

    @Test
    void theModelIsPartOfTheKey() {
        KnowledgeBase h = KnowledgeBase.open(T, hash(Path.of("unused")), null);
        KnowledgeBase m = KnowledgeBase.open(T, hash(Path.of("unused")).withEmbeddings(Embedders.choose(null)), null);
        assertThat(h.key().notesHash()).isEqualTo(m.key().notesHash());
        assertThat(h.key().embedderId()).isEqualTo("hash-v1");
        assertThat(m.key().embedderId()).startsWith("all-minilm-l6-v2-q@");
        assertThat(h.key().fullHash()).isNotEqualTo(m.key().fullHash());
    }

    @Test
    void aDamagedIndexIsRebuilt(@TempDir Path dir) throws IOException {
        KnowledgeBase kb = KnowledgeBase.open(T, hash(dir), m -> { });
        kb.ensureIndex();
        Path file = new EmbeddedStore(dir).file(kb.key());
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        List<String> notices = new ArrayList<>();
        KnowledgeBase reopened = KnowledgeBase.open(T, hash(dir), notices::add);
        assertThat(reopened.isBuilt()).isFalse();
        assertThat(reopened.search("Disk quota exceeded", 1, Set.of()).get(0).chunk().kindId()).isEqualTo("disk_quota");
        // said once, in the one notice of the rebuild
        assertThat(notices).singleElement().asString().startsWith("the knowledge index " + file)
                .contains("could not be read (cut short); rebuilding it: building the knowledge index");
        assertThat(Files.size(file)).isEqualTo(bytes.length);
        // a flipped byte is caught by the checksum, not read as a current index
        byte[] flipped = Files.readAllBytes(file);
        flipped[flipped.length / 2] ^= 0x40;
        Files.write(file, flipped);
        List<String> again = new ArrayList<>();
        KnowledgeBase third = KnowledgeBase.open(T, hash(dir), again::add);
        assertThat(third.isBuilt()).isFalse();
        third.ensureIndex();
        assertThat(again).singleElement().asString().contains("checksum mismatch").contains("rebuilding it");
    }

    @Test
    void anUnreachableChromaFallsBackToTheEmbeddedIndexAndSaysSo(@TempDir Path dir) throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port;
        List<String> notices = new ArrayList<>();
        KnowledgeBase kb = KnowledgeBase.open(T, hash(dir).withChroma(url, false), notices::add);
        assertThat(kb.search("Detected 1 oom-kill event", 1, Set.of()).get(0).chunk().kindId()).isEqualTo("oom");
        assertThat(kb.store().name()).isEqualTo("embedded");
        assertThat(notices).anyMatch(n -> n.contains("Chroma at " + url) && n.contains("answering from the embedded index"));

        KnowledgeBase strict = KnowledgeBase.open(T, hash(dir).withChroma(url, true), m -> { });
        assertThatThrownBy(strict::store).isInstanceOf(KbException.class)
                .hasMessageContaining("did not answer").hasMessageContaining("scripts/chroma");
    }

    @Test
    void badSettingsSayWhatToDo() {
        assertThatThrownBy(() -> Embedders.choose("bert-large")).isInstanceOf(KbException.class)
                .hasMessageContaining("SLURMWISE_EMBEDDINGS").hasMessageContaining("hash");
        KnowledgeBase kb = KnowledgeBase.open(T, hash(Path.of("unused")).withChroma("not a url", true), null);
        assertThatThrownBy(kb::store).isInstanceOf(KbException.class).hasMessageContaining("is not a URL");
        assertThatThrownBy(() -> kb.search(" ", 3, Set.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theIndexKeyHashesEveryChunk() {
        List<Chunk> chunks = Chunker.chunks(T);
        IndexKey a = IndexKey.of("m", Chunker.VERSION, chunks);
        List<Chunk> edited = new ArrayList<>(chunks);
        Chunk c = edited.get(5);
        edited.set(5, new Chunk(c.id(), c.kindId(), c.noteTitle(), c.section(), c.position(), c.text() + " ", c.source()));
        assertThat(IndexKey.of("m", Chunker.VERSION, edited)).isNotEqualTo(a);
        assertThat(IndexKey.of("m", Chunker.VERSION, chunks)).isEqualTo(a);
        assertThat(a.shortHash()).hasSize(16);
    }

    @Test
    void logNoiseIsTakenOutOfQueries() {
        assertThat(QueryText.normalize("/home/chen/sw/lammps-2Aug2023/bin/lmp: error while loading shared libraries: libfftw3_mpi.so.3"))
                .isEqualTo("lmp: error while loading shared libraries: libfftw3_mpi.so.3");
        assertThat(QueryText.normalize("[rank7]:[E1110 07:37:48.478986550 ProcessGroupNCCL.cpp:1515] NCCL error"))
                .isEqualTo("[rank7]: NCCL error");
        assertThat(QueryText.normalize("Job 4410221 exceeded memory limit (67437520 > 65536000) at 0x7f3a"))
                .isEqualTo("Job exceeded memory limit ( > ) at");
    }
}
