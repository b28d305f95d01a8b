package io.slurmwise.agent.chat;

import io.slurmwise.backend.BackendException;
import io.slurmwise.mcp.SlurmwiseTools;
import io.slurmwise.mcp.ToolDefinition;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The MCP tools' own handlers, called in this process: no server, no client. */
public final class LocalChatTools implements ChatTools {

    private final Map<String, Function<Map<String, Object>, Object>> handlers;

    public LocalChatTools(SlurmwiseTools tools) {
        this.handlers = tools.handlers();
    }

    @Override
    public List<ToolDefinition> definitions() {
        return ToolDefinition.all();
    }

    @Override
    public Object call(String name, Map<String, Object> arguments) {
        Function<Map<String, Object>, Object> h = handlers.get(name);
        if (h == null) {
            throw new IllegalArgumentException("there is no tool '" + name + "'");
        }
        try {
            return h.apply(arguments);
        } catch (BackendException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    @Override
    public String where() {
        return "in-process";
    }
}
