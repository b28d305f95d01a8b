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
 * {@code slurmwise diagnose}; its facts must be the job's in their roles, as its diagnosis's record gives them
 * ({@link DiagnosisFacts}). A job is named as "job 1001" or by its id written bare when that number is a job's; a
 * sentence about several jobs is checked against each ({@link JobMentions} reads where a text names jobs). A pending
 * job's answer is checked too: against its reason's finding, and against whether it can start as it stands. A model
 * still calling tools after {@link #MAX_STEPS} rounds, or answering nothing, ends the question with {@link NoAnswer}.
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
    /** The diagnoses the agent asked for itself to check answers: the jobs' data, though the model did not read it. */
    private final StringBuilder fetched = new StringBuilder();
    /** The job ids the tool results the model received name ({@code job_id}, a listed job's {@code id}). */
    private final Set<String> known = new java.util.LinkedHashSet<>();

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
        List<String> listed = new ArrayList<>(); // failed jobs list_jobs gave in this question, newest first
        for (int step = 0; step < MAX_STEPS; step++) {
            AiMessage ai = model.chat(ChatRequest.builder().messages(history).toolSpecifications(specs).build()).aiMessage();
            if (!ai.hasToolExecutionRequests()) {
                // a reasoning model's <think> scratchpad is neither shown nor checked, as in an explanation
                String said = ai.text() == null ? ""
                        : io.slurmwise.agent.explain.LlmExplainer.withoutReasoning(ai.text()).strip();
                if (said.isEmpty()) {
                    // an empty line is no answer: the caller gives the rules' answer in its place
                    throw new NoAnswer("the model answered nothing" + (ai.text() != null && !ai.text().isBlank()
                            ? " but its reasoning" : ""), questionJobs(question, diagnosed));
                }
                // cut where it is received, as an explanation is (a 5 MB answer read whole by the guard took minutes);
                // the guard reads the words kept, not the cut's marker and its count
                String shown = io.slurmwise.diagnose.Explanation.capped(said, io.slurmwise.diagnose.Explanation.MAX_CHARS);
                String words = shown.equals(said) ? said : shown.substring(0, shown.lastIndexOf(" [... "));
                String verdict = checked(words, diagnosed, question, listed);
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
                known.addAll(idsIn(result));
                if ("list_jobs".equals(call.name())) {
                    listed.addAll(failuresListed(result));
                }
                if ("diagnose_job".equals(call.name())) {
                    findings(result).forEach(f -> diagnosed.put(f.path("job_id").asText(), f));
                }
            }
        }
        throw new StepLimitReached(questionJobs(question, diagnosed));
    }

    /**
     * The model gave nothing to show: it answered nothing (or only its reasoning), or kept calling tools
     * ({@link StepLimitReached}). The caller gives the rules' answer for {@link #jobs()}, as when the model fails.
     */
    public static class NoAnswer extends RuntimeException {
        private final List<String> jobs;

        NoAnswer(String message, List<String> jobs) {
            super(message);
            this.jobs = List.copyOf(jobs);
        }

        /** The jobs the question asks about, first ones first (see {@link #questionJobs}). */
        public List<String> jobs() {
            return jobs;
        }
    }

    /**
     * The model called tools {@link #MAX_STEPS} rounds without answering (an outside audit: the chat printed "I
     * stopped after 8 tool calls" and exited 0, without the rules' answer even for "job 1001").
     */
    public static final class StepLimitReached extends NoAnswer {
        StepLimitReached(List<String> jobs) {
            super("the model called tools " + MAX_STEPS + " rounds without answering", jobs);
        }
    }

    /** The job ids in a tool result: each {@code job_id}, and the {@code id} of each job a list gives (with a state). */
    private static Set<String> idsIn(String result) {
        Set<String> out = new java.util.LinkedHashSet<>();
        try {
            collectIds(JSON.readTree(result), out);
        } catch (IOException e) {
            // not JSON (an error's words): no ids
        }
        return out;
    }

    private static void collectIds(JsonNode n, Set<String> out) {
        if (n.isObject()) {
            if (n.path("job_id").isValueNode()) {
                out.add(n.path("job_id").asText());
            }
            if (n.path("id").isValueNode() && n.has("state")) {
                out.add(n.path("id").asText());
            }
            n.elements().forEachRemaining(c -> collectIds(c, out));
        } else if (n.isArray()) {
            n.forEach(c -> collectIds(c, out));
        }
    }

    /**
     * The jobs {@code question} asks about, as its answer is checked against them: those it names as jobs ("job
     * 1001"), and the numbers it writes bare that are jobs ("what went wrong with 1001?"): an id a tool result named,
     * one the model diagnosed, or one the cluster diagnoses (a number that is no job's, "since 2024", is none). The
     * one reading of a question's jobs: a caller whose model failed gives the rules' answer for these.
     */
    public List<String> questionJobs(String question) {
        return questionJobs(question, new LinkedHashMap<>());
    }

    private List<String> questionJobs(String question, Map<String, JsonNode> diagnosed) {
        Set<String> ids = new java.util.LinkedHashSet<>(JobMentions.jobsNamed(question, MAX_CHECKED_JOBS));
        for (String n : JobMentions.bareNumbers(question)) {
            if (ids.size() >= MAX_CHECKED_JOBS) {
                break;
            }
            if (known.contains(n) || diagnosed.containsKey(n)) {
                ids.add(n);
            } else {
                // a number no tool result named costs its diagnosis, the one the check needs when it is a job; kept
                // with the model's diagnoses, so the answer is checked against it without asking again
                diagnosis(n).ifPresent(d -> {
                    diagnosed.put(n, d);
                    ids.add(n);
                });
            }
        }
        return List.copyOf(ids);
    }

    /** How many jobs an answer is checked against, at most (each one diagnosis). */
    static final int MAX_CHECKED_JOBS = 5;

    /**
     * The answer, or the rules' findings in its place when it contradicts them. Every answer is first checked for
     * what none may say (an unsafe command, an action claimed). Then each job the question asks about or the answer
     * names is checked, whether or not the model diagnosed it (an outside audit: an answer given without a tool, or
     * after get_job only, named a wrong cause unchecked): the agent diagnoses it itself. An answer about several jobs
     * is checked job by job, each against the sentences that speak of it.
     */
    private String checked(String answer, Map<String, JsonNode> diagnosed, String question, List<String> listed) {
        if (answer.isEmpty()) {
            return answer;
        }
        Optional<String> harm = guard.harm(answer);
        List<String> asked = questionJobs(question, diagnosed);
        Set<String> spoken = new java.util.LinkedHashSet<>(asked);
        spoken.addAll(JobMentions.jobsNamed(answer, MAX_CHECKED_JOBS));
        // a number the answer writes bare is a job when the question or a tool result the model read named it so
        for (String n : JobMentions.bareNumbers(answer)) {
            if (asked.contains(n) || known.contains(n) || diagnosed.containsKey(n)) {
                spoken.add(n);
            }
        }
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
                : JobMentions.byJob(answer, jobs.keySet());
        List<String> askedJobs = asked.stream().filter(jobs::containsKey).toList();
        if (jobs.size() > 1 && askedJobs.size() == 1
                && jobs.keySet().stream().noneMatch(id -> JobMentions.mentions(answer, id))) {
            // the question asks about one job and the answer names none: the answer is about that job
            parts = Map.of(askedJobs.get(0), answer);
        }
        for (Map.Entry<String, String> part : parts.entrySet()) {
            Optional<String> problem = partProblem(part.getValue(), jobs.get(part.getKey()));
            if (problem.isPresent()) {
                return replaced(jobs, (jobs.size() > 1 ? "about job " + part.getKey() + ", " : "") + problem.get(),
                        answer);
            }
        }
        return groupProblem(answer, listed, diagnosed, spoken);
    }

    /** Why {@code text}, said of the job diagnosed as {@code d}, must not be shown: its start, or its cause. */
    private Optional<String> partProblem(String text, JsonNode d) {
        if (text.isBlank()) {
            return Optional.empty();
        }
        Optional<String> start = guard.startProblem(text, d.path("can_start").asText());
        if (start.isPresent()) {
            return start;
        }
        JsonNode f = d.path("finding");
        String kind = f.path("kind").asText();
        if (kind.isEmpty() || "unknown".equals(kind)) {
            return Optional.empty();
        }
        Set<String> seen = new HashSet<>();
        f.path("others").forEach(o -> seen.add(o.path("kind").asText()));
        List<String> evidence = new ArrayList<>();
        f.path("evidence").forEach(e -> evidence.add(e.path("text").asText()));
        // a number or a path the model cites is grounded when the job's data holds it, whoever fetched that data; the
        // job's own facts, as its record gives them, must be stated in their roles (not another job's, not the patch's)
        return guard.problem(text, kind, seen, evidence, material + "\n" + fetched, false, DiagnosisFacts.of(d));
    }

    /** A sentence that says something of all of a group of jobs: "your five newest failures all ran out of time". */
    private static final java.util.regex.Pattern ALL = java.util.regex.Pattern.compile("(?i)\\b(?:all|every|each|both)\\b");
    private static final java.util.regex.Pattern GROUP = java.util.regex.Pattern.compile(
            "(?i)\\b(?:jobs|failures|runs|them|they)\\b");
    /** How many of the newest failures such a sentence speaks of: "five newest", "last 3", "both". */
    private static final java.util.regex.Pattern HOW_MANY = java.util.regex.Pattern.compile("(?i)\\b(two|three|four|five"
            + "|six|seven|eight|nine|ten|\\d{1,2})\\s+(?:of\\s+your\\s+)?(?:newest|latest|last|most\\s+recent|recent|failed"
            + "|failures|jobs|runs)\\b|\\b(?:newest|latest|last)\\s+(two|three|four|five|six|seven|eight|nine|ten|\\d{1,2})\\b");
    private static final List<String> NUMBERS = List.of("two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten");

    /**
     * An answer that names no job but says a cause of all the failures list_jobs gave ("your five newest failures all
     * ran out of time", an outside audit): each sentence that speaks of all of them is checked against each of those
     * failures (as many as it says, newest first, at most {@link #MAX_CHECKED_JOBS}), diagnosed by the agent.
     */
    private String groupProblem(String answer, List<String> listed, Map<String, JsonNode> diagnosed, Set<String> spoken) {
        if (listed.isEmpty() || spoken.stream().anyMatch(id -> JobMentions.mentions(answer, id))) {
            return answer;
        }
        for (String sentence : JobMentions.sentences(answer)) {
            if (!ALL.matcher(sentence).find() || !GROUP.matcher(sentence).find()) {
                continue;
            }
            int n = Math.min(listed.size(), MAX_CHECKED_JOBS);
            java.util.regex.Matcher m = HOW_MANY.matcher(sentence);
            if (m.find()) {
                String w = (m.group(1) != null ? m.group(1) : m.group(2)).toLowerCase(java.util.Locale.ROOT);
                n = Math.min(n, w.chars().allMatch(Character::isDigit) ? Integer.parseInt(w) : NUMBERS.indexOf(w) + 2);
            } else if (sentence.toLowerCase(java.util.Locale.ROOT).matches(".*\\bboth\\b.*")) {
                n = Math.min(n, 2);
            }
            Map<String, JsonNode> group = new LinkedHashMap<>();
            for (String id : listed.subList(0, n)) {
                Optional<JsonNode> d = diagnosed.containsKey(id) ? Optional.of(diagnosed.get(id)) : diagnosis(id);
                d.ifPresent(x -> group.put(id, x));
            }
            for (Map.Entry<String, JsonNode> job : group.entrySet()) {
                Optional<String> problem = partProblem(sentence, job.getValue());
                if (problem.isPresent()) {
                    return replaced(group, "about job " + job.getKey() + ", one of the failures it speaks of, "
                            + problem.get(), answer);
                }
            }
        }
        return answer;
    }

    /** The failed jobs in a {@code list_jobs} result (those with a failure kind), in its order (newest first). */
    private static List<String> failuresListed(String result) {
        List<String> out = new ArrayList<>();
        try {
            for (JsonNode j : JSON.readTree(result).path("jobs")) {
                if (j.path("kind").isTextual() && !j.path("id").asText().isEmpty()) {
                    out.add(j.path("id").asText());
                }
            }
        } catch (IOException e) {
            // an error's words: nothing listed
        }
        return out;
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
            String result = JSON.writeValueAsString(tools.call("diagnose_job", Map.of("job_id", id)));
            fetched.append('\n').append(result);
            List<JsonNode> found = findings(result);
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
