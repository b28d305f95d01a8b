/**
 * What a vector store or an embedding model implementation sees, and nothing more: the units that are stored
 * ({@link io.slurmwise.kb.spi.Chunk}, {@link io.slurmwise.kb.spi.Passage}, {@link io.slurmwise.kb.spi.IndexKey}), the
 * {@link io.slurmwise.kb.spi.VectorStore} interface and its {@link io.slurmwise.kb.spi.VectorStoreProvider} service
 * interface (chosen by {@link io.slurmwise.kb.spi.StoreConfig}), and {@link io.slurmwise.kb.spi.KbException}. It
 * imports no other package of the module, so stores and models cannot form a cycle with the knowledge base.
 */
package io.slurmwise.kb.spi;
