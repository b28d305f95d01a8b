/**
 * The knowledge base of fix notes: the notes cut into sections and passages ({@link io.slurmwise.kb.Chunker}),
 * embedded in-process and searched by hybrid similarity ({@link io.slurmwise.kb.KnowledgeBase}), and the {@code kb}
 * retriever that finds a diagnosis's notes ({@link io.slurmwise.kb.KbRetriever}, provided to the composition root by
 * {@link io.slurmwise.kb.KbRetrieverProvider}). The top of the module: it uses the stores and models below, never the
 * reverse.
 */
package io.slurmwise.kb;
