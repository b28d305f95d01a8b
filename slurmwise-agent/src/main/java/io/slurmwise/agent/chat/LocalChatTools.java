package io.slurmwise.agent.chat;

import io.slurmwise.backend.BackendException;
import io.slurmwise.mcp.SlurmwiseTools;
import io.slurmwise.mcp.ToolDefinition;

import java.util.List;
import java.util.Map;

/** The MCP tools' own handlers, called in this process: no server, no client. */
public final class LocalChatTools implements ChatTools {

    private final SlurmwiseTools tools;

    public LocalChatTools(SlurmwiseTools tools) {
        this.tools = tools;
    }

    @Override
    public List<ToolDefinition> definitions() {
        return ToolDefinition.all();
    }

    @Override
    public Object call(String name, Map<String, Object> arguments) {
        try {
            // the model reads the JSON answer, cut as the MCP server cuts it
            return tools.boundedJson(name, arguments);
        } catch (BackendException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    @Override
    public String where() {
        return "in-process";
    }
}
