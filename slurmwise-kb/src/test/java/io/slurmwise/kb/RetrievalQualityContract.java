package io.slurmwise.kb;

import io.slurmwise.kb.embed.Embedders;
import io.slurmwise.kb.embed.MiniLmEmbedder;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Retrieval quality on the labeled queries of {@code benchmark/retrieval.jsonl} (one or more per kind, one per
 * failed mock job), measured in three ways:
 * <ul>
 * <li><b>diagnosis</b>: what {@code slurmwise diagnose} does, the kind's title and the evidence as the query and
 * the finding's kind boosted. The targets (Recall@1 >= 0.97, MRR >= 0.98) apply here. The boost makes the
 * rules' verdict decisive, so this mostly checks that the boost and the whole stack work;</li>
 * <li><b>finding text, no boost</b>: the same query without the boost: does the text alone find the note?</li>
 * <li><b>evidence only</b>: the log lines alone, as pasted into {@code kb search}: the hardest case.</li>
 * </ul>
 * Thresholds for the last two sit about 0.04 (4 of 98 queries) under the values measured when they were set (quoted
 * in README.md): enough slack for float differences between machines, tight enough to catch a note edit or a
 * code change that makes retrieval worse. Subclasses run the same tests on each store.
 */
abstract class RetrievalQualityContract {

    static final Taxonomy TAXONOMY = Taxonomy.load(null);
    static final List<LabeledQuery> QUERIES = LabeledQuery.load();
    /** Shared by the test classes of this module (surefire sets SLURMWISE_HOME), so each model is embedded once. */
    static final Path INDEX_DIR = Path.of(System.getenv().getOrDefault("SLURMWISE_HOME", "target/slurmwise-home"), "kb");

    // one knowledge base and one set of metrics per store, model and mode: a query costs a model run
    private static final Map<String, KnowledgeBase> OPEN = new HashMap<>();
    private static final Map<String, RetrievalMetrics> MEASURED = new HashMap<>();

    /** The configuration of the store under test, for one model. */
    abstract KbConfig config(Embedders.Choice model);

    KnowledgeBase kb(Embedders.Choice model) {
        return OPEN.computeIfAbsent(getClass().getSimpleName() + " " + model.id(),
                id -> KnowledgeBase.open(TAXONOMY, config(model), m -> { }));
    }

    private static RetrievalMetrics measure(String mode, KnowledgeBase kb,
                                            java.util.function.Function<LabeledQuery, List<Hit>> search) {
        String key = System.identityHashCode(kb) + " " + mode;
        return MEASURED.computeIfAbsent(key, k -> RetrievalMetrics.of(mode, QUERIES, search));
    }

    static RetrievalMetrics diagnosis(KnowledgeBase kb) {
        return measure("diagnosis (finding + kind boost)", kb, q -> kb.search(
                QueryText.of(q.finding(TAXONOMY), null), RetrievalMetrics.DEPTH, Set.of(q.kind())));
    }

    static RetrievalMetrics findingText(KnowledgeBase kb) {
        return measure("finding text, no boost", kb, q -> kb.search(
                QueryText.of(q.finding(TAXONOMY), null), RetrievalMetrics.DEPTH, Set.of()));
    }

    static RetrievalMetrics evidenceOnly(KnowledgeBase kb) {
        return measure("evidence only (kb search --no-rules)", kb, q -> kb.search(
                q.evidenceText(), RetrievalMetrics.DEPTH, Set.of()));
    }

    static final io.slurmwise.classify.Classifier RULES = new io.slurmwise.classify.Classifier(TAXONOMY);

    /** What {@code kb search} does by default: the rules read the pasted lines and boost the kind they find. */
    static RetrievalMetrics evidenceWithRules(KnowledgeBase kb) {
        return measure("evidence + rules (kb search)", kb, q -> kb.search(q.evidenceText(), RetrievalMetrics.DEPTH,
                KbRetriever.rulesOnText(RULES, q.evidenceText()).map(f -> Set.of(f.kindId())).orElse(Set.of())));
    }

    @Test
    void theLabeledQueriesCoverEveryKindAndEveryFailedMockJob() {
        assertThat(QUERIES).hasSizeGreaterThanOrEqualTo(90);
        assertThat(QUERIES.stream().map(LabeledQuery::kind).distinct())
                .containsExactlyInAnyOrderElementsOf(TAXONOMY.kinds().stream().map(k -> k.id()).toList());
        assertThat(QUERIES.stream().filter(q -> q.id().startsWith("mock-")).count()).isGreaterThanOrEqualTo(45);
    }

    @Test
    void theShippedModelMeetsTheTargets() {
        KnowledgeBase kb = kb(Embedders.choose(null));
        RetrievalMetrics d = diagnosis(kb);
        RetrievalMetrics f = findingText(kb);
        RetrievalMetrics e = evidenceOnly(kb);
        RetrievalMetrics r = evidenceWithRules(kb);
        System.out.println("[" + getClass().getSimpleName() + "] " + kb.config().embeddings().name() + "\n  " + d
                + "\n  " + f + "\n  " + e + "\n  " + r);
        assertThat(d.recall1()).as(d.toString()).isGreaterThanOrEqualTo(0.97);
        assertThat(d.mrr()).as(d.toString()).isGreaterThanOrEqualTo(0.98);
        assertThat(f.recall1()).as(f.toString()).isGreaterThanOrEqualTo(0.95);
        assertThat(f.recall3()).as(f.toString()).isGreaterThanOrEqualTo(0.97);
        assertThat(f.mrr()).as(f.toString()).isGreaterThanOrEqualTo(0.96);
        assertThat(e.recall1()).as(e.toString()).isGreaterThanOrEqualTo(0.76);
        assertThat(e.recall3()).as(e.toString()).isGreaterThanOrEqualTo(0.86);
        assertThat(e.mrr()).as(e.toString()).isGreaterThanOrEqualTo(0.83);
        assertThat(r.recall1()).as(r.toString()).isGreaterThanOrEqualTo(0.95);
        assertThat(r.mrr()).as(r.toString()).isGreaterThanOrEqualTo(0.96);
    }

    @Test
    void hashEmbeddingsHaveTheirOwnMeasuredQuality() {
        KnowledgeBase kb = kb(Embedders.choose("hash"));
        RetrievalMetrics d = diagnosis(kb);
        RetrievalMetrics f = findingText(kb);
        RetrievalMetrics e = evidenceOnly(kb);
        System.out.println("[" + getClass().getSimpleName() + "] hash\n  " + d + "\n  " + f + "\n  " + e);
        assertThat(d.recall1()).as(d.toString()).isGreaterThanOrEqualTo(0.97);
        assertThat(d.mrr()).as(d.toString()).isGreaterThanOrEqualTo(0.98);
        assertThat(f.recall1()).as(f.toString()).isGreaterThanOrEqualTo(0.93);
        assertThat(f.mrr()).as(f.toString()).isGreaterThanOrEqualTo(0.94);
        assertThat(e.recall1()).as(e.toString()).isGreaterThanOrEqualTo(0.78);
        assertThat(e.mrr()).as(e.toString()).isGreaterThanOrEqualTo(0.85);
    }

    /**
     * A cascade: the rules found a CUDA OOM on one rank, but most evidence lines are the NCCL timeouts of the other
     * ranks. By text alone the nccl note wins; the kind boost puts the rules' verdict first.
     */
    @Test
    void theKindBoostPutsTheRulesVerdictFirst() {
        KnowledgeBase kb = kb(Embedders.choose(null));
        String query = "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=88210, OpType=ALLREDUCE) ran for"
                + " 1800583 milliseconds before timing out.\nSome NCCL operations have failed or timed out.";
        assertThat(kb.search(query, 1, Set.of()).get(0).chunk().kindId()).isEqualTo("nccl");
        List<Hit> boosted = kb.search(query, 3, Set.of("cuda_oom"));
        assertThat(boosted.get(0).chunk().kindId()).isEqualTo("cuda_oom");
        // score = similarity + boost in floating point: equal up to rounding, not bit for bit
        assertThat(boosted.get(0).score() - boosted.get(0).similarity()).isCloseTo(KbConfig.DEFAULT_KIND_BOOST, within(1e-9));
    }

    static boolean fullModelAvailable() {
        return MiniLmEmbedder.available(MiniLmEmbedder.Variant.FULL);
    }
}
