package io.slurmwise.agent.chat;

import io.slurmwise.mcp.ToolDefinition;

import java.util.List;
import java.util.Map;

/**
 * The read-only tools the chat agent may call: slurmwise's MCP tools, either in this process
 * ({@link LocalChatTools}) or on an MCP server reached by a real MCP client ({@link McpChatTools}), for example
 * {@code ssh login1 slurmwise mcp} while the model runs on a workstation.
 */
public interface ChatTools extends AutoCloseable {

    /** The tools offered to the model: always a subset of {@link ToolDefinition#NAMES}. */
    List<ToolDefinition> definitions();

    /**
     * Runs one tool. Its result is what the model reads (serialised as JSON).
     *
     * @throws IllegalArgumentException when the tool refuses the arguments or fails; the message goes to the model
     */
    Object call(String name, Map<String, Object> arguments);

    /** Where the tools run, for the user: "in-process" or "MCP server `...`". */
    String where();

    @Override
    default void close() {
    }
}
