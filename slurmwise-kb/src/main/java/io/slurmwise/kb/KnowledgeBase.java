package io.slurmwise.kb;

import io.slurmwise.kb.embed.Embedder;
import io.slurmwise.kb.store.ChromaStore;
import io.slurmwise.kb.store.EmbeddedStore;
import io.slurmwise.kb.store.IndexKey;
import io.slurmwise.kb.store.VectorStore;
import io.slurmwise.taxonomy.Taxonomy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The fix notes, chunked by section, embedded in-process and stored, ready to search. Everything expensive is lazy:
 * opening a knowledge base reads the notes only; the model loads on the first search or build, and a missing or
 * stale index (other notes, other model) is built on first use.
 *
 * <pre>{@code
 * try (KnowledgeBase kb = KnowledgeBase.open(Taxonomy.load(null), KbConfig.from(settings), System.err::println)) {
 *     for (Hit h : kb.search("CUDA out of memory. Tried to allocate 2.00 GiB", 3, Set.of())) {
 *         System.out.println(h.chunk().id() + " " + h.score());
 *     }
 * }
 * }</pre>
 */
public final class KnowledgeBase implements AutoCloseable {

    /** Up to this many chunks every query ranks them all; larger (site) knowledge bases rank the nearest ones. */
    static final int RANK_ALL_UP_TO = 500;
    private static final int CANDIDATES = 100;

    /** Told while an index is built and how long it took. */
    public interface BuildListener {
        default void loadingModel(String model) {
        }

        default void embedded(int done, int total) {
        }

        default void writing(String store, String location) {
        }
    }

    /** What a build did and how long each part took. */
    public record BuildReport(String store, String location, String model, int chunks, Duration modelLoad,
                              Duration embedding, Duration writing) {
    }

    private final Taxonomy taxonomy;
    private final KbConfig config;
    private final Consumer<String> notices;
    private final List<Chunk> chunks;
    private IndexKey key;
    private Embedder embedder;
    private Duration modelLoad = Duration.ZERO;
    private VectorStore store;
    private boolean ready;

    private KnowledgeBase(Taxonomy taxonomy, KbConfig config, Consumer<String> notices) {
        this.taxonomy = Objects.requireNonNull(taxonomy, "taxonomy");
        this.config = Objects.requireNonNull(config, "config");
        this.notices = notices == null ? m -> { } : notices;
        this.chunks = Chunker.chunks(taxonomy);
    }

    /** @param notices told once about a fallback (Chroma unreachable) or a first build; may be null */
    public static KnowledgeBase open(Taxonomy taxonomy, KbConfig config, Consumer<String> notices) {
        return new KnowledgeBase(taxonomy, config, notices);
    }

    public Taxonomy taxonomy() {
        return taxonomy;
    }

    public KbConfig config() {
        return config;
    }

    public List<Chunk> chunks() {
        return chunks;
    }

    /** The key of the index these notes and this model need; computed without loading the model. */
    public IndexKey key() {
        if (key == null) {
            key = IndexKey.of(config.embeddings().id(), chunks);
        }
        return key;
    }

    /** The embedding model, loaded on first call. */
    public Embedder embedder() {
        if (embedder == null) {
            long t0 = System.nanoTime();
            embedder = config.embeddings().load();
            modelLoad = Duration.ofNanos(System.nanoTime() - t0);
        }
        return embedder;
    }

    /**
     * The store: Chroma when a URL is configured and answers, else the embedded file store. When Chroma does not
     * answer and is not required, says so once through the notices and uses the embedded store.
     */
    public VectorStore store() {
        if (store == null) {
            if (config.chromaUrl() != null) {
                try {
                    store = ChromaStore.connect(config.chromaUrl(), config.chromaTenant(), config.chromaDatabase(),
                            config.chromaTimeout());
                } catch (KbException e) {
                    if (config.chromaRequired()) {
                        throw e;
                    }
                    fallBack(e);
                }
            } else {
                store = new EmbeddedStore(config.indexDir());
            }
        }
        return store;
    }

    private void fallBack(KbException e) {
        notices.accept(e.getMessage().replaceFirst("; start it.*$", "") + "; answering from the embedded index in "
                + config.indexDir());
        store = new EmbeddedStore(config.indexDir());
        ready = false;
    }

    /** True when the store already holds the index for the current notes and model. */
    public boolean isBuilt() {
        return store().holds(key(), chunks.size());
    }

    /** Embeds every chunk and replaces the store's index, whatever it held. */
    public BuildReport build(BuildListener listener) {
        BuildListener l = listener == null ? new BuildListener() { } : listener;
        VectorStore s = store();
        if (embedder == null) {
            l.loadingModel(config.embeddings().name());
        }
        Embedder e = embedder();
        long t0 = System.nanoTime();
        List<String> texts = chunks.stream().map(Chunk::embeddingText).toList();
        List<float[]> vectors = e.embedAll(texts, done -> l.embedded(done, texts.size()));
        long t1 = System.nanoTime();
        l.writing(s.name(), s.location());
        s.replace(key(), chunks, vectors);
        long t2 = System.nanoTime();
        ready = true;
        return new BuildReport(s.name(), s.location(), e.name(), chunks.size(), modelLoad,
                Duration.ofNanos(t1 - t0), Duration.ofNanos(t2 - t1));
    }

    /** Builds the index when the store does not hold the current one. */
    public void ensureIndex() {
        if (ready) {
            return;
        }
        if (!store().holds(key(), chunks.size())) {
            notices.accept("building the knowledge index (" + chunks.size() + " sections, model "
                    + config.embeddings().name() + ", " + store().name() + " store); later runs reuse it");
            build(null);
        }
        ready = true;
    }

    /**
     * The {@code k} best chunks for {@code text}: cosine similarity, plus {@link KbConfig#kindBoost()} for chunks
     * of the {@code boostKinds} (empty for a plain search); best first, ties by chunk id.
     */
    public List<Hit> search(String text, int k, Set<String> boostKinds) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("the search text is empty");
        }
        try {
            return rank(text, k, boostKinds);
        } catch (KbException e) {
            if (store instanceof ChromaStore && !config.chromaRequired()) {
                fallBack(e);
                return rank(text, k, boostKinds);
            }
            throw e;
        }
    }

    private List<Hit> rank(String text, int k, Set<String> boostKinds) {
        ensureIndex();
        float[] q = embedder().embed(text);
        VectorStore s = store();
        Map<String, Hit> candidates = new HashMap<>();
        int n = chunks.size() <= RANK_ALL_UP_TO ? chunks.size() : Math.max(CANDIDATES, k);
        for (Hit h : s.nearest(q, n, null)) {
            candidates.put(h.chunk().id(), h);
        }
        if (chunks.size() > RANK_ALL_UP_TO && !boostKinds.isEmpty()) {
            for (Hit h : s.nearest(q, k, boostKinds)) {
                candidates.putIfAbsent(h.chunk().id(), h);
            }
        }
        List<Hit> ranked = new ArrayList<>();
        for (Hit h : candidates.values()) {
            double boost = boostKinds.contains(h.chunk().kindId()) ? config.kindBoost() : 0;
            ranked.add(new Hit(h.chunk(), h.similarity(), h.similarity() + boost));
        }
        ranked.sort(EmbeddedStore.BY_SCORE);
        return ranked.size() > k ? List.copyOf(ranked.subList(0, k)) : ranked;
    }

    @Override
    public void close() {
        if (store != null) {
            store.close();
        }
    }
}
