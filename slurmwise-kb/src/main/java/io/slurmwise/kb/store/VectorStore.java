package io.slurmwise.kb.store;

import io.slurmwise.kb.Chunk;
import io.slurmwise.kb.Hit;

import java.util.List;
import java.util.Set;

/**
 * Where embedded chunks live: {@link EmbeddedStore} (a file under SLURMWISE_HOME, the default) or
 * {@link ChromaStore} (a Chroma server). Both answer the same queries with the same ranking.
 *
 * <pre>{@code
 * VectorStore s = new EmbeddedStore(home.resolve("kb"));
 * if (!s.holds(key, chunks.size())) s.replace(key, chunks, vectors);
 * List<Hit> hits = s.nearest(queryVector, 10, null);
 * }</pre>
 */
public interface VectorStore extends AutoCloseable {

    /** {@code embedded} or {@code chroma}. */
    String name();

    /** Where: a file path, or the server URL with tenant, database and collection. */
    String location();

    /** True when the store holds the complete index for {@code key} ({@code chunkCount} chunks). */
    boolean holds(IndexKey key, int chunkCount);

    /** Replaces whatever the store holds for this key's model with these chunks and their vectors. */
    void replace(IndexKey key, List<Chunk> chunks, List<float[]> vectors);

    /**
     * The {@code n} chunks most similar to {@code query} (a unit vector), best first; ties by chunk id.
     *
     * @param kinds only chunks of these kinds, or null for all
     */
    List<Hit> nearest(float[] query, int n, Set<String> kinds);

    @Override
    default void close() {
    }
}
