package io.slurmwise.mcp;

import java.util.Map;

/**
 * What a tool answers: the versioned JSON of the CLI's {@code --json} (what programs and models read) and a short
 * text form of a few lines (what a person sees in a client that shows results).
 *
 * @param maxBytes the most the whole answer a client receives may take, both parts together (UTF-8): 16 KB unless the
 *                 caller asked for more ({@code max_bytes}); the server cuts the text form to stay under it
 */
public record ToolAnswer(Map<String, Object> json, String summary, int maxBytes) {

    /** An answer held to the default budget, {@link Bounded#DEFAULT_BYTES}. */
    public ToolAnswer(Map<String, Object> json, String summary) {
        this(json, summary, Bounded.DEFAULT_BYTES);
    }
}
