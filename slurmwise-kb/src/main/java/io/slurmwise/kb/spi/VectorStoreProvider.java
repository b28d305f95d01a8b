package io.slurmwise.kb.spi;

import java.util.Optional;

/**
 * Service provider of a {@link VectorStore}, listed in {@code META-INF/services/io.slurmwise.kb.spi.VectorStoreProvider}.
 * The knowledge base opens the available provider with the highest rank; when it does not answer and is not
 * required, it says so once and opens the next one (Chroma, then the embedded file).
 */
public interface VectorStoreProvider {

    /** {@code embedded}, {@code chroma}: the store's name in messages and footers. */
    String name();

    /** The available provider with the highest rank is opened first. */
    int autoRank();

    /** Why this store is not configured (e.g. "SLURMWISE_CHROMA_URL is not set"), or empty when it is. */
    Optional<String> unavailableReason(StoreConfig config);

    /** @throws KbException when the store does not answer (the message says what to start or set) */
    VectorStore open(StoreConfig config);
}
