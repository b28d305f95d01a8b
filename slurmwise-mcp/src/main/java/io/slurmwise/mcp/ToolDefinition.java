package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A tool's name, description and JSON input schema, read from {@code io/slurmwise/mcp/tools/<name>.json}: the
 * MCP server lists them and the chat agent hands them to its model.
 */
public record ToolDefinition(String name, String title, String description, JsonNode inputSchema) {

    /** The tools, in the order clients see them. */
    public static final List<String> NAMES = List.of("list_jobs", "get_job", "diagnose_job", "read_job_log",
            "explain_pending", "suggest_patch", "classify_log", "search_knowledge", "failure_kinds", "partition_limits",
            "job_efficiency", "fleet_stats");

    private static final ObjectMapper JSON = new ObjectMapper();

    public static List<ToolDefinition> all() {
        List<ToolDefinition> out = new ArrayList<>();
        for (String name : NAMES) {
            out.add(load(name));
        }
        return out;
    }

    static ToolDefinition load(String name) {
        try (InputStream in = ToolDefinition.class.getResourceAsStream("tools/" + name + ".json")) {
            if (in == null) {
                throw new IllegalStateException("tool definition tools/" + name + ".json is missing; rebuild slurmwise-mcp");
            }
            JsonNode def = JSON.readTree(in);
            return new ToolDefinition(def.get("name").asText(), def.path("title").asText(null),
                    def.get("description").asText(), def.get("inputSchema"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
