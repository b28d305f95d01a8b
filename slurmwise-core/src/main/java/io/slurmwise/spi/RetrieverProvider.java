package io.slurmwise.spi;

import io.slurmwise.config.Provider;
import io.slurmwise.diagnose.Retriever;

/**
 * Service provider of a {@link Retriever} (where a diagnosis's fix notes come from), listed in
 * {@code META-INF/services/io.slurmwise.spi.RetrieverProvider} of its module and chosen by SLURMWISE_RETRIEVER:
 * {@code notes} (core: the kind's own note), {@code kb} (slurmwise-kb: the embedded knowledge base), or
 * {@code auto} (the available one with the highest rank).
 */
public interface RetrieverProvider extends Provider {

    /** Builds the retriever; expensive parts (a model, an index) should load on first use, not here. */
    Retriever create(ProviderContext context);
}
