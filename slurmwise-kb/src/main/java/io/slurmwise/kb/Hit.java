package io.slurmwise.kb;

import io.slurmwise.kb.spi.Passage;
import io.slurmwise.kb.spi.Chunk;

/**
 * A section found for a query.
 *
 * @param passage    the passage of the section that matched best
 * @param similarity how well that passage matches the query, about -1..1 (see {@link KnowledgeBase#search})
 * @param score      what results are ranked by: the similarity, plus the kind boost when the section's note is the
 *                   finding's kind
 */
public record Hit(Chunk chunk, Passage passage, double similarity, double score) {
}
