/**
 * The service-provider interfaces through which the composition root finds the parts of a diagnosis, like SLF4J's
 * {@code spi} package: {@link io.slurmwise.spi.RetrieverProvider} (SLURMWISE_RETRIEVER) and
 * {@link io.slurmwise.spi.ExplainerProvider} (SLURMWISE_EXPLAINER), listed in a module's {@code META-INF/services},
 * each chosen by {@link io.slurmwise.config.Providers}, the one selection rule they share with the backends (which
 * says loudly when none, several or the wrong one is there).
 */
package io.slurmwise.spi;
