package io.slurmwise.kb;

import io.slurmwise.kb.spi.KbException;
import io.slurmwise.Slurmwise;
import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.classify.Evidence;
import io.slurmwise.classify.Finding;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.diagnose.FixNote;
import io.slurmwise.kb.embed.Embedders;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The kb retriever inside real diagnoses of the mock cluster. */
class KbRetrieverTest {

    static final Taxonomy T = Taxonomy.load(null);
    static Slurmwise sw;
    static final List<String> NOTICES = new ArrayList<>();

    @BeforeAll
    static void open() {
        KnowledgeBase kb = KnowledgeBase.open(T, new KbConfig(RetrievalQualityContract.INDEX_DIR, Embedders.choose(null),
                null, null, null, null, false, null, KbConfig.DEFAULT_KIND_BOOST), NOTICES::add);
        sw = Slurmwise.builder().backend(MockBackend.bundled()).taxonomy(T).retriever(new KbRetriever(kb, NOTICES::add)).build();
    }

    @AfterAll
    static void close() {
        sw.close();
    }

    static Finding finding(Diagnosis d) {
        if (d instanceof Diagnosis.Failed f) {
            return f.finding();
        }
        if (d instanceof Diagnosis.StatusOnly so && so.pending() != null) {
            return so.pending().finding();
        }
        return null;
    }

    @Test
    void everyFailedMockJobGetsSectionsOfItsOwnNoteWithScoreAndPath() {
        for (LabeledQuery q : RetrievalQualityContract.QUERIES) {
            if (!q.id().startsWith("mock-")) {
                continue;
            }
            Diagnosis d = sw.diagnose(q.id().substring("mock-".length()));
            List<FixNote> fixes = d instanceof Diagnosis.Failed f ? f.fixes() : ((Diagnosis.StatusOnly) d).pending().fixes();
            assertThat(fixes).as(q.id()).hasSize(3);
            FixNote first = fixes.get(0);
            assertThat(first.kindId()).as(q.id()).isEqualTo(q.kind());
            assertThat(first.source()).isEqualTo("knowledge/" + q.kind() + ".md");
            assertThat(first.section()).isNotBlank();
            assertThat(first.text()).isNotBlank();
            assertThat(fixes).extracting(FixNote::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));
            assertThat(fixes).as(q.id() + ": the Fixes section is among the three").anyMatch(n -> n.section().equals("Fixes"));
            // a note's list of the messages it is known by finds it for a pasted line, but is nothing to do (1008's
            // ranked above its Fixes)
            assertThat(fixes).as(q.id()).noneMatch(n -> n.section().equals(KbRetriever.RECOGNITION));
            if (d instanceof Diagnosis.Failed f) {
                assertThat(f.method()).isEqualTo("rules + kb");
            }
        }
        assertThat(NOTICES).allMatch(n -> n.startsWith("building the knowledge index"));
    }

    /** The mock queries of the benchmark are what diagnose really shows for those jobs (the data stays honest). */
    @Test
    void theMockQueriesMatchWhatTheClassifierFinds() {
        for (LabeledQuery q : RetrievalQualityContract.QUERIES) {
            if (!q.id().startsWith("mock-")) {
                continue;
            }
            Finding f = finding(sw.diagnose(q.id().substring("mock-".length())));
            assertThat(f).as(q.id()).isNotNull();
            assertThat(f.kindId()).as(q.id()).isEqualTo(q.kind());
            // the replay moves the logs' timestamps with the records' (to end just now): the lines, at any time
            List<String> shown = f.evidence().stream().map(Evidence::text).map(KbRetrieverTest::anyTime).toList();
            assertThat(shown).as(q.id()).containsAll(q.evidence().stream().map(KbRetrieverTest::anyTime).toList());
        }
    }

    private static String anyTime(String line) {
        return line.replaceAll("\\b20\\d\\d-\\d\\d-\\d\\d[T ]\\d\\d:\\d\\d:\\d\\d\\b", "<time>");
    }

    @Test
    void whenTheKnowledgeBaseFailsTheKindsOwnNoteIsUsedAndThatIsSaidOnce() {
        List<String> notices = new ArrayList<>();
        KbRetriever r = new KbRetriever(() -> {
            throw new KbException("cannot load the embedding model all-minilm-l6-v2-q with ONNX Runtime: test");
        }, notices::add);
        Finding f = finding(sw.diagnose("1001"));
        List<FixNote> a = r.retrieve(f, null, 3);
        List<FixNote> b = r.retrieve(f, null, 3);
        assertThat(a).isNotEmpty();
        assertThat(a.get(0).section()).isEqualTo("Fixes");
        assertThat(b).isEqualTo(a);
        assertThat(notices).singleElement().asString().contains("cannot answer").contains("oom");
        assertThat(r.name()).isEqualTo("notes");
    }
}
