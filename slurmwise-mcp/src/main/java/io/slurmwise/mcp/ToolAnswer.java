package io.slurmwise.mcp;

import java.util.Map;

/**
 * What a tool answers: the versioned JSON of the CLI's {@code --json} (what programs and models read) and a short
 * text form of a few lines (what a person sees in a client that shows results).
 */
public record ToolAnswer(Map<String, Object> json, String summary) {
}
