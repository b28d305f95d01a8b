/**
 * The vector stores: the {@code embedded} file under SLURMWISE_HOME and the {@code chroma} server (API v2, token
 * auth), each with its {@link io.slurmwise.kb.spi.VectorStoreProvider}; both rank the same queries the same way.
 */
package io.slurmwise.kb.store;
