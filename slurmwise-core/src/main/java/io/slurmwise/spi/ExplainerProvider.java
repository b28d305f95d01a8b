package io.slurmwise.spi;

import io.slurmwise.config.Provider;
import io.slurmwise.diagnose.Explainer;

/**
 * Service provider of an {@link Explainer} (who words a diagnosis), listed in
 * {@code META-INF/services/io.slurmwise.spi.ExplainerProvider} of its module and chosen by SLURMWISE_EXPLAINER:
 * {@code template} (core), {@code llm} (slurmwise-agent: an OpenAI-compatible model, the template as fallback), or
 * {@code auto} (the available one with the highest rank).
 */
public interface ExplainerProvider extends Provider {

    Explainer create(ProviderContext context);
}
