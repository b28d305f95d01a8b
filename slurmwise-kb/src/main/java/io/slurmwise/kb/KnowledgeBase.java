package io.slurmwise.kb;

import io.slurmwise.kb.spi.Passage;
import io.slurmwise.kb.spi.Chunk;
import io.slurmwise.kb.spi.KbException;
import io.slurmwise.kb.embed.Embedder;
import io.slurmwise.kb.embed.HashEmbedder;
import io.slurmwise.kb.spi.IndexKey;
import io.slurmwise.kb.spi.VectorStoreProvider;
import io.slurmwise.kb.spi.VectorStore;
import io.slurmwise.taxonomy.Taxonomy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The fix notes, chunked by section, embedded in-process and stored, ready to search. Everything expensive is lazy:
 * opening a knowledge base reads the notes only; the model loads on the first search or build, and a missing or
 * stale index (other notes, other model) is built on first use.
 *
 * <p>Sections are embedded as passages (paragraphs, list items); a section scores as its best passage. A passage's
 * similarity to a query is hybrid: half the neural model's cosine, half the cosine of hashed words and word pairs
 * ({@link HashEmbedder}), because log lines are full of exact tokens ({@code GLIBCXX_3.4.29}, {@code QOSMaxGRESPerUser})
 * that a sentence model blurs; with {@code SLURMWISE_EMBEDDINGS=hash} it is the hashed words alone. The retrieval
 * benchmark in README.md measures each part.
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

    /** Up to this many passages every query ranks them all; larger (site) knowledge bases rank the nearest ones. */
    static final int RANK_ALL_UP_TO = 2000;
    private static final int CANDIDATES = 200;
    /** The neural model's share of a passage's similarity; the hashed words have the rest. An even mix. */
    public static final double DENSE_WEIGHT = 0.5;
    /** Queries are log lines and a few sentences; beyond this they are cut. */
    static final int MAX_QUERY = 4000;

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
    public record BuildReport(String store, String location, String model, int chunks, int passages,
                              Duration modelLoad, Duration embedding, Duration writing) {
    }

    private final Taxonomy taxonomy;
    private final KbConfig config;
    private final Consumer<String> notices;
    private final List<Chunk> chunks;
    private final List<Passage> passages;
    private final Map<String, Passage> passageById = new HashMap<>();
    private final HashEmbedder words = new HashEmbedder();
    private Map<String, float[]> wordVectors;
    private IndexKey key;
    private Embedder embedder;
    private Duration modelLoad = Duration.ZERO;
    private final Object prewarmLock = new Object();
    private Thread prewarming;
    private boolean closed;
    private volatile boolean loaded;
    private VectorStore store;
    /** The stores still to try, best first, when the open one stops answering. */
    private List<VectorStoreProvider> candidates = new ArrayList<>();
    private boolean ready;

    private KnowledgeBase(Taxonomy taxonomy, KbConfig config, Consumer<String> notices) {
        this.taxonomy = Objects.requireNonNull(taxonomy, "taxonomy");
        this.config = Objects.requireNonNull(config, "config");
        this.notices = notices == null ? m -> { } : notices;
        this.chunks = Chunker.chunks(taxonomy);
        this.passages = chunks.stream().flatMap(c -> c.passages().stream()).toList();
        for (Passage p : passages) {
            passageById.put(p.id(), p);
        }
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

    public List<Passage> passages() {
        return passages;
    }

    /** The key of the index these notes and this model need; computed without loading the model. */
    public IndexKey key() {
        if (key == null) {
            key = IndexKey.of(config.embeddings().id(), Chunker.VERSION, chunks);
        }
        return key;
    }

    /** The embedding model, loaded on first call (by whichever thread asks first; the others wait for it). */
    public synchronized Embedder embedder() {
        if (embedder == null) {
            long t0 = System.nanoTime();
            embedder = config.embeddings().load();
            modelLoad = Duration.ofNanos(System.nanoTime() - t0);
            loaded = true;
        }
        return embedder;
    }

    /** True once the embedding model is loaded; never waits for a load in progress. */
    public boolean modelLoaded() {
        return loaded;
    }

    /**
     * Starts loading the embedding model on a background thread, so that it overlaps the work a diagnosis does
     * before it needs the model (log reads, the rules). A load that fails here fails again, and is reported, where
     * the model is first used. Once per knowledge base: a second call while the model loads or after it has loaded
     * does nothing. {@link #close()} waits for the load: a JVM that exits while onnxruntime is inside its native
     * session set-up can abort (an outside audit: exit 134 and a crash report after {@code diagnose --json}'s JSON).
     */
    public void prewarm() {
        synchronized (prewarmLock) {
            if (prewarming != null || closed) {
                return;
            }
            prewarming = new Thread(() -> {
                try {
                    embedder();
                } catch (RuntimeException | LinkageError e) {
                    // reported by the caller that needs the model
                }
            }, "slurmwise-kb-prewarm");
            // daemon, so that nothing but close() decides when the process may go; close() waits for it
            prewarming.setDaemon(true);
            prewarming.start();
        }
    }

    /** True once {@link #prewarm()} has started a load (for tests: a job that needs no retrieval starts none). */
    public boolean prewarmStarted() {
        synchronized (prewarmLock) {
            return prewarming != null;
        }
    }

    /** Waits for a load {@link #prewarm()} started, however it ends (an interrupt is kept for the caller). */
    private void awaitPrewarm() {
        Thread t;
        synchronized (prewarmLock) {
            closed = true;
            t = prewarming;
        }
        if (t == null) {
            return;
        }
        boolean interrupted = false;
        while (t.isAlive()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The store: the configured store with the highest rank that answers ({@link VectorStores}: Chroma when a URL is
     * set, else the embedded file). When one does not answer and is not required, says so once through the notices
     * and opens the next.
     */
    public VectorStore store() {
        if (store == null) {
            candidates = VectorStores.candidates(config.storeConfig());
            openNext(null);
        }
        return store;
    }

    /** Opens the next candidate store, after {@code failure} of the one before (null for the first). */
    private void openNext(KbException failure) {
        while (!candidates.isEmpty()) {
            VectorStoreProvider p = candidates.remove(0);
            try {
                store = p.open(config.storeConfig());
                if (failure != null) {
                    notices.accept(failure.getMessage().replaceFirst("; start it.*$", "") + "; answering from the "
                            + store.name() + " index in " + config.indexDir() + " (check the server, or unset"
                            + " SLURMWISE_CHROMA_URL)");
                }
                ready = false;
                return;
            } catch (KbException e) {
                if (config.chromaRequired() || candidates.isEmpty()) {
                    throw e;
                }
                failure = e;
            }
        }
        throw failure != null ? failure : new KbException("no vector store can hold the knowledge index");
    }

    /** True when the store already holds the index for the current notes and model. */
    public boolean isBuilt() {
        return store().holds(key(), passages.size());
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
        List<String> texts = passages.stream().map(Passage::embeddingText).toList();
        List<float[]> vectors = e.embedAll(texts, done -> l.embedded(done, texts.size()));
        long t1 = System.nanoTime();
        l.writing(s.name(), s.location());
        s.replace(key(), passages, vectors);
        long t2 = System.nanoTime();
        ready = true;
        return new BuildReport(s.name(), s.location(), e.name(), chunks.size(), passages.size(), modelLoad,
                Duration.ofNanos(t1 - t0), Duration.ofNanos(t2 - t1));
    }

    /** Builds the index when the store does not hold the current one. */
    public void ensureIndex() {
        if (ready) {
            return;
        }
        if (!store().holds(key(), passages.size())) {
            notices.accept(store().damage().map(d -> d + "; rebuilding it: ").orElse("") + "building the knowledge index (" + chunks.size() + " sections, model "
                    + config.embeddings().name() + ", " + store().name() + " store); later runs reuse it");
            build(null);
        }
        ready = true;
    }

    /**
     * The {@code k} best sections for {@code text}: each scores as its best passage (hybrid similarity, see the class
     * comment), plus {@link KbConfig#kindBoost()} for sections of the {@code boostKinds} (empty for a plain search);
     * best first, ties by section id.
     */
    public List<Hit> search(String text, int k, Set<String> boostKinds) {
        return search(text, k, boostKinds, Map.of());
    }

    /**
     * As {@link #search(String, int, Set)}, with extra score for sections by heading (lower case), e.g.
     * {@code Map.of("fixes", 0.15)}.
     */
    public List<Hit> search(String text, int k, Set<String> boostKinds, Map<String, Double> sectionBoosts) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("the search text is empty");
        }
        if (k <= 0) {
            throw new IllegalArgumentException("k must be positive, got " + k);
        }
        try {
            return rank(text, k, boostKinds, sectionBoosts);
        } catch (KbException e) {
            if (!config.chromaRequired() && !candidates.isEmpty()) {
                store.close();
                openNext(e);
                return rank(text, k, boostKinds, sectionBoosts);
            }
            throw e;
        }
    }

    private List<Hit> rank(String text, int k, Set<String> boostKinds, Map<String, Double> sectionBoosts) {
        ensureIndex();
        String query = QueryText.normalize(text.length() > MAX_QUERY ? text.substring(0, MAX_QUERY) : text);
        Embedder e = embedder();
        float[] q = e.embed(query.isBlank() ? text : query);
        boolean hybrid = !(e instanceof HashEmbedder);
        float[] qw = hybrid ? words.embed(query.isBlank() ? text : query) : null;
        VectorStore s = store();
        Map<String, Double> dense = new LinkedHashMap<>();
        int n = passages.size() <= RANK_ALL_UP_TO ? passages.size() : Math.max(CANDIDATES, k);
        for (VectorStore.Match m : s.nearest(q, n, null)) {
            dense.put(m.passageId(), m.similarity());
        }
        if (passages.size() > RANK_ALL_UP_TO && !boostKinds.isEmpty()) {
            for (VectorStore.Match m : s.nearest(q, CANDIDATES, boostKinds)) {
                dense.putIfAbsent(m.passageId(), m.similarity());
            }
        }
        Map<String, Hit> best = new HashMap<>();
        for (Map.Entry<String, Double> d : dense.entrySet()) {
            Passage p = passageById.get(d.getKey());
            if (p == null) {
                continue; // not one of ours (cannot happen with a store keyed by these notes)
            }
            double sim = hybrid
                    ? DENSE_WEIGHT * d.getValue() + (1 - DENSE_WEIGHT) * Embedder.dot(qw, wordVectors().get(p.id()))
                    : d.getValue();
            Chunk c = p.chunk();
            Hit h = best.get(c.id());
            if (h == null || sim > h.similarity()) {
                double boost = (boostKinds.contains(c.kindId()) ? config.kindBoost() : 0)
                        + sectionBoosts.getOrDefault(c.section().toLowerCase(Locale.ROOT), 0.0);
                best.put(c.id(), new Hit(c, p, sim, sim + boost));
            }
        }
        List<Hit> ranked = new ArrayList<>(best.values());
        ranked.sort(BY_SCORE);
        return ranked.size() > k ? List.copyOf(ranked.subList(0, k)) : ranked;
    }

    /** Best first; equal scores by section id, so every store ranks ties the same way. */
    static final Comparator<Hit> BY_SCORE = Comparator.comparingDouble(Hit::score).reversed()
            .thenComparing(h -> h.chunk().id());

    /** The hashed-word vectors of every passage, computed on first use (a few ms per hundred passages). */
    private Map<String, float[]> wordVectors() {
        if (wordVectors == null) {
            Map<String, float[]> m = new HashMap<>();
            for (Passage p : passages) {
                m.put(p.id(), words.embed(p.embeddingText()));
            }
            wordVectors = m;
        }
        return wordVectors;
    }

    /** Waits for a model load {@link #prewarm()} started (never exit inside native code), then closes the store. */
    @Override
    public void close() {
        awaitPrewarm();
        if (store != null) {
            store.close();
        }
    }
}
