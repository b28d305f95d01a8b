/**
 * Embedding models: all-MiniLM-L6-v2 run in-process (ONNX, quantized by default) and the dependency-free hashed-word
 * embedder, chosen by SLURMWISE_EMBEDDINGS ({@link io.slurmwise.kb.embed.Embedders}).
 */
package io.slurmwise.kb.embed;
