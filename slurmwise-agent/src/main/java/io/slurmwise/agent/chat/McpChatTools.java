package io.slurmwise.agent.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.slurmwise.mcp.ToolDefinition;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * slurmwise's tools on an MCP server that a real MCP client starts over stdio: typically {@code ssh login1
 * slurmwise mcp}, so that the model and the chat run on a workstation and the read-only tools on the cluster.
 * Only tools named like slurmwise's read-only tools ({@link ToolDefinition#NAMES}) are offered to the model:
 * pointed at another server, the agent can still never call a tool that writes.
 *
 * <pre>{@code
 * try (McpChatTools tools = McpChatTools.start(List.of("ssh", "login1", "slurmwise", "mcp"), Duration.ofSeconds(120))) {
 *     new ChatAgent(model, tools, call -> {}).ask("Why did job 4242 fail?");
 * }
 * }</pre>
 */
public final class McpChatTools implements ChatTools {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final McpSyncClient client;
    private final String command;
    private final List<ToolDefinition> definitions;
    private final List<String> ignored;

    private McpChatTools(McpSyncClient client, String command, List<ToolDefinition> definitions, List<String> ignored) {
        this.client = client;
        this.command = command;
        this.definitions = List.copyOf(definitions);
        this.ignored = List.copyOf(ignored);
    }

    /**
     * Starts {@code command} (program and arguments, no shell) as an MCP server, initialises the session and lists
     * its tools.
     *
     * @param timeout for the start and for each tool call (a diagnosis over ssh can take a few seconds)
     * @throws IllegalStateException when the server does not start, does not speak MCP, or offers none of
     *                               slurmwise's tools; the message names the command
     */
    public static McpChatTools start(List<String> command, Duration timeout) {
        if (command.isEmpty() || command.get(0).isBlank()) {
            throw new IllegalStateException("no MCP server command given");
        }
        String shown = String.join(" ", command);
        ServerParameters params = ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size())).build();
        McpSyncClient client = McpClient.sync(new StdioClientTransport(params, new JacksonMcpJsonMapper(JSON)))
                .requestTimeout(timeout).initializationTimeout(timeout).build();
        List<ToolDefinition> defs = new ArrayList<>();
        List<String> ignored = new ArrayList<>();
        try {
            client.initialize();
            for (McpSchema.Tool t : client.listTools().tools()) {
                if (ToolDefinition.NAMES.contains(t.name())) {
                    JsonNode schema = JSON.valueToTree(t.inputSchema());
                    defs.add(new ToolDefinition(t.name(), t.title(), t.description(), schema));
                } else {
                    ignored.add(t.name());
                }
            }
        } catch (RuntimeException e) {
            client.close();
            throw new IllegalStateException("the MCP server `" + shown + "` did not start or answer: "
                    + rootMessage(e) + " (run the command by hand: it must speak MCP on stdin/stdout, as"
                    + " `slurmwise mcp` does)", e);
        }
        if (defs.isEmpty()) {
            client.close();
            throw new IllegalStateException("the MCP server `" + shown + "` offers none of slurmwise's tools ("
                    + String.join(", ", ToolDefinition.NAMES) + "); it offers " + (ignored.isEmpty() ? "none"
                    : String.join(", ", ignored)));
        }
        return new McpChatTools(client, shown, defs, ignored);
    }

    @Override
    public List<ToolDefinition> definitions() {
        return definitions;
    }

    /** Tools the server offers that are not slurmwise's read-only tools: never offered to the model. */
    public List<String> ignored() {
        return ignored;
    }

    @Override
    public Object call(String name, Map<String, Object> arguments) {
        if (definitions.stream().noneMatch(d -> d.name().equals(name))) {
            throw new IllegalArgumentException("there is no tool '" + name + "'");
        }
        McpSchema.CallToolResult r;
        try {
            r = client.callTool(new McpSchema.CallToolRequest(name, arguments));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the MCP server `" + command + "` failed on " + name + ": "
                    + rootMessage(e), e);
        }
        List<String> texts = new ArrayList<>();
        for (McpSchema.Content c : r.content()) {
            if (c instanceof McpSchema.TextContent t) {
                texts.add(t.text());
            }
        }
        if (Boolean.TRUE.equals(r.isError())) {
            throw new IllegalArgumentException(String.join("\n", texts));
        }
        // slurmwise answers with the JSON first and a short text form after it: the model reads the JSON
        if (!texts.isEmpty()) {
            try {
                return JSON.readTree(texts.get(0));
            } catch (IOException e) {
                // another server's plain text answer
            }
        }
        return String.join("\n", texts);
    }

    @Override
    public String where() {
        return "MCP server `" + command + "`";
    }

    @Override
    public void close() {
        client.closeGracefully();
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
