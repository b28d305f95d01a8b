package io.slurmwise.kb.spi;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where a knowledge index may live, for the {@link VectorStoreProvider}s to choose from.
 *
 * @param indexDir the folder of the embedded index ({@code SLURMWISE_HOME/kb}); always set
 * @param url      a vector-store server (SLURMWISE_CHROMA_URL), or null for none
 * @param tenant   the server's tenant
 * @param database the server's database
 * @param auth     the token a secured server wants, or null
 * @param timeout  how long to wait for the server
 * @param required true to fail when the server does not answer (kb build --chroma-url); false to fall back to the
 *                 next store
 */
public record StoreConfig(Path indexDir, String url, String tenant, String database, ChromaAuth auth, Duration timeout,
                          boolean required) {

    public StoreConfig {
        Objects.requireNonNull(indexDir, "indexDir");
        Objects.requireNonNull(timeout, "timeout");
    }
}
