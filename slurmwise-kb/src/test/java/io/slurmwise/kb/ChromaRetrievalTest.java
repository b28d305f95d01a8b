package io.slurmwise.kb;

import io.slurmwise.kb.embed.Embedders;
import io.slurmwise.kb.store.ChromaStore;
import io.slurmwise.kb.spi.IndexKey;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The same retrieval tests against a real Chroma server (started by .ci/run with scripts/chroma/start.sh), plus
 * what only Chroma does: collections keyed by the index, reuse, and the same ranking as the embedded store. Fails,
 * never skips, when no server answers.
 */
@Tag("chroma")
class ChromaRetrievalTest extends RetrievalQualityContract {

    static String url;

    @BeforeAll
    static void aChromaServerAnswers() {
        url = System.getProperty("slurmwise.chroma.url", System.getenv("SLURMWISE_CHROMA_URL"));
        if (url == null || url.isBlank()) {
            fail("the chroma tests need a Chroma server: start one with scripts/chroma/start.sh DIR PORT and set"
                    + " SLURMWISE_CHROMA_URL (or -Dslurmwise.chroma.url) to the URL it prints");
        }
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(url + "/api/v2/heartbeat")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as("Chroma heartbeat at " + url).isEqualTo(200);
        } catch (IOException | InterruptedException e) {
            fail("no Chroma server answers at " + url + ": " + e);
        }
    }

    @Override
    KbConfig config(Embedders.Choice model) {
        return new KbConfig(INDEX_DIR, model, url, null, "slurmwise-test", null, true, null, KbConfig.DEFAULT_KIND_BOOST);
    }

    @Test
    void chromaRanksExactlyAsTheEmbeddedStore() {
        KnowledgeBase chroma = kb(Embedders.choose(null));
        KnowledgeBase embedded = KnowledgeBase.open(TAXONOMY, new KbConfig(INDEX_DIR, Embedders.choose(null), null,
                null, null, null, false, null, KbConfig.DEFAULT_KIND_BOOST), m -> { });
        assertThat(chroma.store().name()).isEqualTo("chroma");
        assertThat(embedded.store().name()).isEqualTo("embedded");
        List<String> differ = new ArrayList<>();
        for (LabeledQuery q : QUERIES) {
            for (String text : List.of(QueryText.of(q.finding(TAXONOMY), null), q.evidenceText())) {
                List<Hit> c = chroma.search(text, 10, Set.of(q.kind()));
                List<Hit> e = embedded.search(text, 10, Set.of(q.kind()));
                List<String> cIds = c.stream().map(h -> h.chunk().id()).toList();
                List<String> eIds = e.stream().map(h -> h.chunk().id()).toList();
                if (!cIds.equals(eIds)) {
                    differ.add(q.id() + ": chroma " + cIds + " embedded " + eIds);
                }
                for (int i = 0; i < Math.min(c.size(), e.size()); i++) {
                    assertThat(c.get(i).score()).as(q.id()).isCloseTo(e.get(i).score(), org.assertj.core.data.Offset.offset(1e-4));
                }
            }
        }
        assertThat(differ).isEmpty();
    }

    @Test
    void aCollectionIsKeyedByNotesAndModelAndReused(@TempDir Path site) throws IOException {
        KnowledgeBase first = KnowledgeBase.open(TAXONOMY, config(Embedders.choose("hash")), m -> { });
        first.ensureIndex();
        assertThat(first.store().location()).contains(ChromaStore.collectionName(first.key()));
        List<String> notices = new ArrayList<>();
        KnowledgeBase again = KnowledgeBase.open(TAXONOMY, config(Embedders.choose("hash")), notices::add);
        assertThat(again.isBuilt()).isTrue();
        again.search("CUDA out of memory", 3, Set.of());
        assertThat(notices).as("a complete collection is reused, not rebuilt").isEmpty();

        // a site note that changes one section: a new collection, built on first use, and the old one goes
        String oom = Files.readString(Path.of("..", "knowledge", "oom.md"));
        Files.writeString(site.resolve("oom.md"), oom.replace("## Prevention", "## Prevention\nAsk your site first."));
        Taxonomy changed = Taxonomy.load(site);
        KnowledgeBase edited = KnowledgeBase.open(changed, config(Embedders.choose("hash")), notices::add);
        IndexKey newKey = edited.key();
        assertThat(newKey).isNotEqualTo(first.key());
        assertThat(edited.search("Ask your site first", 1, Set.of()).get(0).chunk().id()).isEqualTo("oom#prevention");
        assertThat(notices).anyMatch(n -> n.startsWith("building the knowledge index"));
        KnowledgeBase old = KnowledgeBase.open(TAXONOMY, config(Embedders.choose("hash")), m -> { });
        assertThat(old.isBuilt()).as("the stale collection was deleted").isFalse();
        old.ensureIndex();
    }
}
