package io.slurmwise.kb;

/**
 * A chunk found for a query.
 *
 * @param similarity cosine similarity of the query and the chunk, -1..1
 * @param score      what results are ranked by: the similarity, plus the kind boost when the chunk's note is the
 *                   finding's kind
 */
public record Hit(Chunk chunk, double similarity, double score) {
}
