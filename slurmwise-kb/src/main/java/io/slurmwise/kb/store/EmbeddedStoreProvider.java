package io.slurmwise.kb.store;

import io.slurmwise.kb.spi.StoreConfig;
import io.slurmwise.kb.spi.VectorStore;
import io.slurmwise.kb.spi.VectorStoreProvider;

import java.util.Optional;

/** Provides the {@code embedded} store: a file under SLURMWISE_HOME; always there, the last fallback. */
public final class EmbeddedStoreProvider implements VectorStoreProvider {

    @Override
    public String name() {
        return "embedded";
    }

    @Override
    public int autoRank() {
        return 0;
    }

    @Override
    public Optional<String> unavailableReason(StoreConfig config) {
        return Optional.empty();
    }

    @Override
    public VectorStore open(StoreConfig config) {
        return new EmbeddedStore(config.indexDir());
    }
}
