package io.slurmwise.kb.store;

import io.slurmwise.kb.spi.StoreConfig;
import io.slurmwise.kb.spi.VectorStore;
import io.slurmwise.kb.spi.VectorStoreProvider;

import java.util.Optional;

/** Provides the {@code chroma} store when a server URL is configured (SLURMWISE_CHROMA_URL or --chroma-url). */
public final class ChromaStoreProvider implements VectorStoreProvider {

    @Override
    public String name() {
        return "chroma";
    }

    @Override
    public int autoRank() {
        return 100;
    }

    @Override
    public Optional<String> unavailableReason(StoreConfig config) {
        return config.url() == null ? Optional.of("SLURMWISE_CHROMA_URL is not set") : Optional.empty();
    }

    @Override
    public VectorStore open(StoreConfig config) {
        return ChromaStore.connect(config.url(), config.tenant(), config.database(), config.timeout(), config.auth());
    }
}
