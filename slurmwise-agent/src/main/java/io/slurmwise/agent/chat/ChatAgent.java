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
 * At most {@link #MAX_STEPS} tool rounds per question, so a confused model cannot loop forever. Every answer goes
 * through the same {@link ExplanationGuard} as an explanation: one that tells the user to run something unsafe or
 * claims an action is set aside; one that names another cause, denies the rules' or puts "the real cause" elsewhere
 * for a job the question asks about or the answer names (diagnosed by the agent itself when the model did not) is
 * replaced by the rules' own findings, with a line that says why, so the chat never contradicts
 * {@code slurmwise diagnose}. A pending job's answer is checked too: against its reason's finding, and against whether
 * it can start as it stands.
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
                String said = ai.text() == null ? "" : ai.text().strip();
                // cut where it is received, as an explanation is (a 5 MB answer read whole by the guard took minutes);
                // the guard reads the words kept, not the cut's marker and its count
                String shown = io.slurmwise.diagnose.Explanation.capped(said, io.slurmwise.diagnose.Explanation.MAX_CHARS);
                String words = shown.equals(said) ? said : shown.substring(0, shown.lastIndexOf(" [... "));
                String verdict = checked(words, diagnosed, question);
                String answer = verdict.equals(words) ? shown : verdict;
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
                    findings(result).forEach(f -> diagnosed.put(f.path("job_id").asText(), f));
                }
            }
        }
        return "I stopped after " + MAX_STEPS + " tool calls without an answer; ask a narrower question.";
    }

    /**
     * Job ids a text names as jobs: after "job" or "jobs" ("job 1001", "jobs 1001 and 1008", "job #1001_7", "job
     * id 123+1"). A bare number is no job ("it used 500 GB", "after 48 hours": read as job 500, a real job of someone
     * else's would have been checked against).
     */
    private static final java.util.regex.Pattern NAMED_JOBS = java.util.regex.Pattern.compile("(?i)\\bjobs?\\s*(?:ids?\\s*)?"
            + "#?\\s*(\\d+(?:_\\d+|\\+\\d+)?(?:\\s*(?:,|\\band\\b|\\bor\\b|&)\\s*#?\\d+(?:_\\d+|\\+\\d+)?)*)\\b");
    private static final java.util.regex.Pattern ONE_ID = java.util.regex.Pattern.compile("\\d+(?:_\\d+|\\+\\d+)?");

    /** The job ids {@code text} names as jobs, first ones first, at most {@code most} (see {@link #NAMED_JOBS}). */
    public static List<String> jobsNamed(String text, int most) {
        Set<String> ids = new java.util.LinkedHashSet<>();
        java.util.regex.Matcher m = NAMED_JOBS.matcher(text == null ? "" : text);
        while (m.find() && ids.size() < most) {
            java.util.regex.Matcher one = ONE_ID.matcher(m.group(1));
            while (one.find() && ids.size() < most) {
                ids.add(one.group());
            }
        }
        return List.copyOf(ids);
    }

    /** Where one sentence of an answer ends. */
    private static final java.util.regex.Pattern SENTENCE_END = java.util.regex.Pattern.compile("(?<=[.!?])\\s+|\\n+");
    /** How many jobs an answer is checked against, at most (each one diagnosis). */
    static final int MAX_CHECKED_JOBS = 5;

    /**
     * The answer, or the rules' findings in its place when it contradicts them. Every answer is first checked for
     * what none may say (an unsafe command, an action claimed). Then each job the question asks about or the answer
     * names is checked, whether or not the model diagnosed it (an outside audit: an answer given without a tool, or
     * after get_job only, named a wrong cause unchecked): the agent diagnoses it itself. An answer about several jobs
     * is checked job by job, each against the sentences that speak of it.
     */
    private String checked(String answer, Map<String, JsonNode> diagnosed, String question) {
        if (answer.isEmpty()) {
            return answer;
        }
        Optional<String> harm = guard.harm(answer);
        Set<String> spoken = new java.util.LinkedHashSet<>(jobsNamed(question, MAX_CHECKED_JOBS));
        spoken.addAll(jobsNamed(answer, MAX_CHECKED_JOBS));
        Map<String, JsonNode> jobs = new LinkedHashMap<>();
        for (String id : spoken) {
            if (jobs.size() >= MAX_CHECKED_JOBS) {
                break;
            }
            Optional<JsonNode> d = diagnosed.containsKey(id) ? Optional.of(diagnosed.get(id)) : diagnosis(id);
            d.ifPresent(x -> jobs.put(id, x));
        }
        diagnosed.forEach((id, d) -> {
            if (jobs.size() < MAX_CHECKED_JOBS) {
                jobs.putIfAbsent(id, d);
            }
        });
        if (harm.isPresent()) {
            return replaced(jobs, harm.get(), answer);
        }
        Map<String, String> parts = jobs.size() == 1 ? Map.of(jobs.keySet().iterator().next(), answer)
                : byJob(answer, jobs.keySet());
        for (Map.Entry<String, String> part : parts.entrySet()) {
            JsonNode d = jobs.get(part.getKey());
            if (part.getValue().isBlank()) {
                continue;
            }
            Optional<String> start = guard.startProblem(part.getValue(), d.path("can_start").asText());
            if (start.isPresent()) {
                return replaced(jobs, (jobs.size() > 1 ? "about job " + part.getKey() + ", " : "") + start.get(), answer);
            }
            JsonNode f = d.path("finding");
            String kind = f.path("kind").asText();
            if (kind.isEmpty() || "unknown".equals(kind)) {
                continue;
            }
            Set<String> seen = new HashSet<>();
            f.path("others").forEach(o -> seen.add(o.path("kind").asText()));
            List<String> evidence = new ArrayList<>();
            f.path("evidence").forEach(e -> evidence.add(e.path("text").asText()));
            Optional<String> problem = guard.problem(part.getValue(), kind, seen, evidence, material.toString(), false);
            if (problem.isPresent()) {
                return replaced(jobs, (jobs.size() > 1 ? "about job " + part.getKey() + ", " : "") + problem.get(),
                        answer);
            }
        }
        return answer;
    }

    /**
     * The sentences of {@code answer} by the job they speak of: a sentence that names one of {@code ids} starts that
     * job's part, and the sentences after it belong to it until another is named; a sentence that names several, or
     * comes before any, belongs to none.
     */
    static Map<String, String> byJob(String answer, Set<String> ids) {
        Map<String, StringBuilder> out = new LinkedHashMap<>();
        String current = null;
        for (String sentence : SENTENCE_END.split(answer)) {
            List<String> named = ids.stream().filter(id -> java.util.regex.Pattern.compile("(?<![\\d_])"
                    + java.util.regex.Pattern.quote(id) + "(?![\\d_])").matcher(sentence).find()).toList();
            if (named.size() == 1) {
                current = named.get(0);
            } else if (named.size() > 1) {
                current = null;
                continue;
            }
            if (current != null) {
                out.computeIfAbsent(current, k -> new StringBuilder()).append(sentence).append(' ');
            }
        }
        Map<String, String> parts = new LinkedHashMap<>();
        out.forEach((id, sb) -> parts.put(id, sb.toString().strip()));
        return parts;
    }

    /**
     * The rules' findings of {@code jobs} in place of the model's answer, with why it was set aside; without a job
     * to speak of, only why.
     */
    private static String replaced(Map<String, JsonNode> jobs, String problem, String answer) {
        StringBuilder out = new StringBuilder();
        for (JsonNode d : jobs.values()) {
            out.append(out.length() == 0 ? "" : "\n\n").append(findingParagraph(d));
        }
        String ids = String.join(" ", jobs.keySet());
        out.append(out.length() == 0 ? "" : "\n").append("(The model's answer was set aside: ").append(problem)
                .append(ids.isEmpty() ? ". Ask again, or use `slurmwise diagnose <jobid>`.)"
                        : ". `slurmwise diagnose " + ids + "` shows the whole diagnosis.)");
        return out.toString();
    }

    /**
     * A failed job's diagnosis ({@code diagnose_job}'s JSON) as the rules' answer in a chat: its cause, the evidence
     * line the panel leads with and its first fix; a pending job's: its reason, whether it can start, what the reason
     * means and its first fix. The one wording of it: a set-aside answer's and a failed model's.
     */
    public static String findingParagraph(JsonNode diagnosis) {
        JsonNode d = !diagnosis.has("finding") && diagnosis.path("pending").isObject() ? pendingDiagnosis(diagnosis)
                : diagnosis;
        JsonNode f = d.path("finding");
        StringBuilder out = new StringBuilder("Job " + d.path("job_id").asText() + ": ");
        if (d.has("can_start")) {
            out.append("pending (").append(d.path("reason").asText()).append("); it ")
                    .append(STARTS.getOrDefault(d.path("can_start").asText(), "may start later"))
                    .append(f.has("kind") ? " (" + f.path("title").asText() + ", " + f.path("kind").asText() + ")" : "")
                    .append(", as slurmwise's rules read the scheduler's reason.");
            if (!d.path("meaning").asText().isBlank()) {
                out.append("\nMeaning: ").append(d.path("meaning").asText());
            }
        } else {
            out.append(f.path("title").asText()).append(" (").append(f.path("kind").asText())
                    .append("), as slurmwise's rules decided from its record and logs.");
            deciding(f.path("evidence")).ifPresent(e -> out.append("\nEvidence: ").append(e));
        }
        JsonNode fix = d.path("fixes").path(0).path("text");
        if (!fix.isMissingNode()) {
            String text = fix.asText().strip().split("\n\\s*\n", 2)[0].replaceAll("\\s+", " ")
                    .replaceFirst("^\\d+\\.\\s*", "");
            out.append("\nFirst fix: ").append(text.length() > 300 ? text.substring(0, 299) + "…" : text);
        }
        return out.toString();
    }

    /**
     * The evidence line the panel leads with: the heaviest, a log line before a record's field on a tie, with where
     * it was read ({@code stderr:40: slurmstepd: error: Detected 1 oom-kill event...}; an outside audit read the
     * record's {@code State=OUT_OF_MEMORY} in its place).
     */
    static Optional<String> deciding(JsonNode evidence) {
        JsonNode best = null;
        for (JsonNode e : evidence) {
            boolean logLine = e.path("line").isNumber();
            double w = e.path("weight").asDouble();
            if (best == null || w > best.path("weight").asDouble()
                    || (w == best.path("weight").asDouble() && logLine && !best.path("line").isNumber())) {
                best = e;
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        String where = best.path("line").isNumber() ? best.path("source").asText() + ":" + best.path("line").asInt() + ": "
                : "";
        return Optional.of(where + best.path("text").asText().strip());
    }

    /** The rules' diagnosis of job {@code id}, asked by the agent itself to check an answer; empty without a finding. */
    private Optional<JsonNode> diagnosis(String id) {
        if (tools.definitions().stream().noneMatch(t -> t.name().equals("diagnose_job"))) {
            return Optional.empty();
        }
        try {
            List<JsonNode> found = findings(JSON.writeValueAsString(tools.call("diagnose_job", Map.of("job_id", id))));
            return found.stream().filter(f -> f.path("job_id").asText().equals(id)).findFirst();
        } catch (IOException | IllegalArgumentException | BackendException e) {
            return Optional.empty(); // no such job, or the cluster did not answer: nothing to check against
        }
    }

    /** A pending job's startability as diagnose's JSON says it ({@code can_start}), in the rules' answer's words. */
    private static final Map<String, String> STARTS = Map.of(
            "never", "can never start as submitted",
            "held", "starts once released, with nothing else changed",
            "may", "may start if the cluster changes (a node comes back)",
            "will", "will start once the jobs ahead of it or the time it waits for pass");

    /**
     * A pending job's diagnosis as the agent checks it: its id, its reason and startability ({@code can_start}), and
     * the finding and fixes its reason gives, if any (a {@code diagnose_job} result keeps them under {@code pending}).
     */
    private static JsonNode pendingDiagnosis(JsonNode d) {
        JsonNode p = d.path("pending");
        com.fasterxml.jackson.databind.node.ObjectNode out = JSON.createObjectNode();
        out.set("job_id", d.path("job_id"));
        out.set("reason", p.path("reason"));
        out.set("can_start", p.path("can_start"));
        out.set("meaning", p.path("meaning"));
        if (p.path("finding").isObject()) {
            out.set("finding", p.path("finding"));
        }
        out.set("fixes", p.path("fixes").isArray() ? p.path("fixes") : JSON.createArrayNode());
        return out;
    }

    /**
     * The diagnoses in a {@code diagnose_job} result (one job's, or {@code diagnoses} of several) that the agent can
     * check an answer against: a finding's, or a pending job's startability.
     */
    private static List<JsonNode> findings(String result) {
        List<JsonNode> out = new ArrayList<>();
        try {
            JsonNode root = JSON.readTree(result);
            List<JsonNode> all = new ArrayList<>();
            if (root.has("diagnoses")) {
                root.path("diagnoses").forEach(all::add);
            } else {
                all.add(root.has("finding") || root.path("pending").isObject() ? root : root.findParent("finding"));
            }
            for (JsonNode d : all) {
                JsonNode one = d != null && !d.has("finding") && d.path("pending").path("can_start").isTextual()
                        ? pendingDiagnosis(d) : d;
                if (one != null && one.has("job_id") && (one.path("finding").has("kind") || one.has("can_start"))) {
                    out.add(one);
                }
            }
        } catch (IOException e) {
            return out;
        }
        return out;
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
