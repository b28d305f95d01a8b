package io.slurmwise.kb.spi;


import java.util.List;
import java.util.Set;

/**
 * Where the embedded passages live: the {@code embedded} store (a file under SLURMWISE_HOME, the default) or the
 * {@code chroma} store (a Chroma server), each opened by its {@link VectorStoreProvider}. Both answer the same queries
 * with the same ranking.
 *
 * <pre>{@code
 * VectorStore s = new EmbeddedStore(home.resolve("kb"));
 * if (!s.holds(key, passages.size())) s.replace(key, passages, vectors);
 * List<VectorStore.Match> m = s.nearest(queryVector, 10, null);
 * }</pre>
 */
public interface VectorStore extends AutoCloseable {

    /** A stored passage and its cosine similarity to the query (-1..1). */
    record Match(String passageId, double similarity) {
    }

    /** {@code embedded} or {@code chroma}. */
    String name();

    /** Where: a file path, or the server URL with tenant, database and collection. */
    String location();

    /** True when the store holds the complete index for {@code key} ({@code count} passages). */
    boolean holds(IndexKey key, int count);

    /**
     * Why the last {@link #holds} found an index it could not read (cut short, damaged); empty when it read it or
     * there was none. The caller says it once and rebuilds.
     */
    default java.util.Optional<String> damage() {
        return java.util.Optional.empty();
    }

    /** Replaces whatever the store holds for this key's model with these passages and their vectors. */
    void replace(IndexKey key, List<Passage> passages, List<float[]> vectors);

    /**
     * The {@code n} passages most similar to {@code query} (a unit vector), best first.
     *
     * @param kinds only passages of notes of these kinds, or null for all
     */
    List<Match> nearest(float[] query, int n, Set<String> kinds);

    @Override
    default void close() {
    }
}
