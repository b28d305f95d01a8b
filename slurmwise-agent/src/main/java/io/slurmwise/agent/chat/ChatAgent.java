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
import io.slurmwise.agent.explain.ExplanationGuard;
import io.slurmwise.backend.BackendException;
import io.slurmwise.mcp.SlurmwiseTools;
import io.slurmwise.mcp.ToolDefinition;
import io.slurmwise.taxonomy.Taxonomy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A ReAct chat agent: the model reasons, calls slurmwise's read-only tools (the same ones the MCP server
 * offers, reached in-process), reads their results and answers. The conversation is kept across questions.
 * At most {@link #MAX_STEPS} tool rounds per question, so a confused model cannot loop forever. When a question
 * diagnosed one job, the answer goes through the same {@link ExplanationGuard} as an explanation: an answer that
 * names another cause, denies the rules' or puts "the real cause" elsewhere is replaced by the rules' own finding,
 * with a line that says why, so the chat never contradicts {@code slurmwise diagnose}.
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
    private final ExplanationGuard guard;
    private final StringBuilder material = new StringBuilder();

    /** With the MCP tools' handlers in this process. */
    public ChatAgent(ChatModel model, SlurmwiseTools tools, Consumer<ToolCall> onToolCall) {
        this(model, new LocalChatTools(tools), onToolCall);
    }

    /** With tools in this process or on an MCP server ({@link McpChatTools}), guarded with the bundled kinds. */
    public ChatAgent(ChatModel model, ChatTools tools, Consumer<ToolCall> onToolCall) {
        this(model, tools, onToolCall, ExplanationGuard.of(Taxonomy.load(null)));
    }

    /** With the guard of a site's taxonomy. */
    public ChatAgent(ChatModel model, ChatTools tools, Consumer<ToolCall> onToolCall, ExplanationGuard guard) {
        this.model = model;
        this.tools = tools;
        this.specs = tools.definitions().stream().map(ChatAgent::spec).toList();
        this.onToolCall = onToolCall;
        this.guard = guard;
        String system = resource("chat-system.txt");
        history.add(SystemMessage.from(system));
        material.append(system);
    }

    /** Answers one question, calling tools as the model asks. */
    public String ask(String question) {
        history.add(UserMessage.from(question));
        material.append('\n').append(question);
        Map<String, JsonNode> diagnosed = new LinkedHashMap<>();
        for (int step = 0; step < MAX_STEPS; step++) {
            AiMessage ai = model.chat(ChatRequest.builder().messages(history).toolSpecifications(specs).build()).aiMessage();
            if (!ai.hasToolExecutionRequests()) {
                String answer = checked(ai.text() == null ? "" : ai.text().strip(), diagnosed);
                history.add(AiMessage.from(answer));
                material.append('\n').append(answer);
                return answer;
            }
            history.add(ai);
            for (ToolExecutionRequest call : ai.toolExecutionRequests()) {
                String result = execute(call);
                history.add(ToolExecutionResultMessage.from(call, result));
                material.append('\n').append(result);
                if ("diagnose_job".equals(call.name())) {
                    finding(result).ifPresent(f -> diagnosed.put(f.path("job_id").asText(), f));
                }
            }
        }
        return "I stopped after " + MAX_STEPS + " tool calls without an answer; ask a narrower question.";
    }

    /**
     * The answer, or, when it contradicts the one diagnosis this question made, the rules' finding in its place
     * (an answer about several jobs names several causes and is left as it is).
     */
    private String checked(String answer, Map<String, JsonNode> diagnosed) {
        if (diagnosed.size() != 1 || answer.isEmpty()) {
            return answer;
        }
        JsonNode d = diagnosed.values().iterator().next();
        JsonNode f = d.path("finding");
        String kind = f.path("kind").asText();
        if ("unknown".equals(kind)) {
            return answer;
        }
        Set<String> seen = new HashSet<>();
        f.path("others").forEach(o -> seen.add(o.path("kind").asText()));
        List<String> evidence = new ArrayList<>();
        f.path("evidence").forEach(e -> evidence.add(e.path("text").asText()));
        Optional<String> problem = guard.problem(answer, kind, seen, evidence, material.toString(), false);
        if (problem.isEmpty()) {
            return answer;
        }
        StringBuilder out = new StringBuilder("Job " + d.path("job_id").asText() + ": " + f.path("title").asText()
                + " (" + kind + "), as slurmwise's rules decided from its record and logs.");
        if (!evidence.isEmpty()) {
            out.append("\nEvidence: ").append(evidence.get(0).strip());
        }
        JsonNode fix = d.path("fixes").path(0).path("text");
        if (!fix.isMissingNode()) {
            String first = fix.asText().strip().split("\n\\s*\n", 2)[0].replaceAll("\\s+", " ")
                    .replaceFirst("^\\d+\\.\\s*", "");
            out.append("\nFirst fix: ").append(first.length() > 300 ? first.substring(0, 299) + "…" : first);
        }
        out.append("\n(The model's answer was set aside: ").append(problem.get())
                .append(". `slurmwise diagnose ").append(d.path("job_id").asText()).append("` shows the whole diagnosis.)");
        return out.toString();
    }

    /** The diagnosis in a {@code diagnose_job} result, when it has a finding. */
    private static Optional<JsonNode> finding(String result) {
        try {
            JsonNode root = JSON.readTree(result);
            JsonNode d = root.has("finding") ? root : root.findParent("finding");
            return d == null || !d.has("job_id") || !d.path("finding").has("kind") ? Optional.empty() : Optional.of(d);
        } catch (IOException e) {
            return Optional.empty();
        }
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
