package io.slurmwise.agent.chat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import io.slurmwise.backend.BackendException;
import io.slurmwise.mcp.SlurmwiseTools;
import io.slurmwise.mcp.ToolDefinition;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A ReAct chat agent: the model reasons, calls slurmwise's read-only tools (the same ones the MCP server
 * offers, reached in-process), reads their results and answers. The conversation is kept across questions.
 * At most {@link #MAX_STEPS} tool rounds per question, so a confused model cannot loop forever.
 *
 * <pre>{@code
 * ChatAgent agent = new ChatAgent(model, new SlurmwiseTools(sw, "backend mock"), call -> {});
 * String answer = agent.ask("Why did job 1001 fail?");
 * }</pre>
 */
public final class ChatAgent {

    public static final int MAX_STEPS = 8;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A tool call the agent made, for showing progress to the user. */
    public record ToolCall(String tool, String arguments, boolean error) {
    }

    private final ChatModel model;
    private final ChatTools tools;
    private final List<ToolSpecification> specs;
    private final Consumer<ToolCall> onToolCall;
    private final List<ChatMessage> history = new ArrayList<>();

    /** With the MCP tools' handlers in this process. */
    public ChatAgent(ChatModel model, SlurmwiseTools tools, Consumer<ToolCall> onToolCall) {
        this(model, new LocalChatTools(tools), onToolCall);
    }

    /** With tools in this process or on an MCP server ({@link McpChatTools}). */
    public ChatAgent(ChatModel model, ChatTools tools, Consumer<ToolCall> onToolCall) {
        this.model = model;
        this.tools = tools;
        this.specs = tools.definitions().stream().map(ChatAgent::spec).toList();
        this.onToolCall = onToolCall;
        history.add(SystemMessage.from(resource("chat-system.txt")));
    }

    /** Answers one question, calling tools as the model asks. */
    public String ask(String question) {
        history.add(UserMessage.from(question));
        for (int step = 0; step < MAX_STEPS; step++) {
            AiMessage ai = model.chat(ChatRequest.builder().messages(history).toolSpecifications(specs).build()).aiMessage();
            history.add(ai);
            if (!ai.hasToolExecutionRequests()) {
                return ai.text() == null ? "" : ai.text().strip();
            }
            for (ToolExecutionRequest call : ai.toolExecutionRequests()) {
                history.add(ToolExecutionResultMessage.from(call, execute(call)));
            }
        }
        return "I stopped after " + MAX_STEPS + " tool calls without an answer; ask a narrower question.";
    }

    private String execute(ToolExecutionRequest call) {
        List<String> names = tools.definitions().stream().map(ToolDefinition::name).toList();
        if (!names.contains(call.name())) {
            onToolCall.accept(new ToolCall(call.name(), call.arguments(), true));
            return "There is no tool '" + call.name() + "'; the tools are " + String.join(", ", names) + ".";
        }
        try {
            Map<String, Object> args = call.arguments() == null || call.arguments().isBlank() ? Map.of()
                    : JSON.readValue(call.arguments(), new TypeReference<Map<String, Object>>() { });
            String result = JSON.writeValueAsString(tools.call(call.name(), args));
            onToolCall.accept(new ToolCall(call.name(), call.arguments(), false));
            return result;
        } catch (IOException | IllegalArgumentException | BackendException e) {
            onToolCall.accept(new ToolCall(call.name(), call.arguments(), true));
            return "Error: " + e.getMessage();
        }
    }

    /** Our JSON tool schemas (flat objects of string, integer and boolean properties) as langchain4j specifications. */
    static ToolSpecification spec(ToolDefinition def) {
        JsonObjectSchema.Builder params = JsonObjectSchema.builder();
        JsonNode props = def.inputSchema().path("properties");
        for (Map.Entry<String, JsonNode> p : props.properties()) {
            String description = p.getValue().path("description").asText(null);
            String type = p.getValue().path("type").asText();
            if ("integer".equals(type)) {
                params.addIntegerProperty(p.getKey(), description);
            } else if ("boolean".equals(type)) {
                params.addBooleanProperty(p.getKey(), description);
            } else {
                params.addStringProperty(p.getKey(), description);
            }
        }
        List<String> required = new ArrayList<>();
        def.inputSchema().path("required").forEach(r -> required.add(r.asText()));
        params.required(required);
        return ToolSpecification.builder().name(def.name()).description(def.description()).parameters(params.build()).build();
    }

    private static String resource(String name) {
        try (InputStream in = ChatAgent.class.getResourceAsStream("/io/slurmwise/agent/" + name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from slurmwise-agent; rebuild the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
