package io.slurmwise.cli.chat;

import dev.langchain4j.model.openai.OpenAiChatModel;
import io.slurmwise.agent.chat.ChatAgent;
import io.slurmwise.agent.chat.ChatTools;
import io.slurmwise.agent.chat.LocalChatTools;
import io.slurmwise.agent.chat.McpChatTools;
import io.slurmwise.agent.explain.LlmSettings;
import io.slurmwise.agent.explain.ModelFault;
import io.slurmwise.diagnose.Explanation;
import com.fasterxml.jackson.databind.JsonNode;
import io.slurmwise.cli.context.Cli;
import io.slurmwise.cli.context.ExitCodes;
import io.slurmwise.cli.context.UserError;
import io.slurmwise.cli.render.TerminalText;
import io.slurmwise.mcp.SlurmwiseTools;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code slurmwise chat}: ask about your jobs in words; the agent uses the read-only tools. */
@Command(name = "chat",
        header = "Ask about your jobs in plain words.", mixinStandardHelpOptions = true,
        description = {"Ask about your jobs in plain words. A language model (SLURMWISE_LLM_BASE_URL, Ollama by",
                "default) calls slurmwise's read-only tools and answers; the causes come from the rules.",
                "Example: slurmwise chat --once \"Why did job 1001 fail and what should I change?\""})
public final class ChatCommand implements Callable<Integer> {

    private final Cli cli;

    public ChatCommand(Cli cli) {
        this.cli = cli;
    }

    @Option(names = "--once", paramLabel = "QUESTION", description = "Ask one question, print the answer, exit.")
    private String once;

    @Option(names = "--mcp-server", paramLabel = "COMMAND", description = "Take the tools from this MCP server"
            + " (a command that speaks MCP on stdio, e.g. \"ssh login1 slurmwise mcp\": the model runs here, the"
            + " read-only tools on the cluster). Only slurmwise's read-only tools are used. Default: in-process.")
    private String mcpServer;

    @Override
    public Integer call() throws IOException {
        LlmSettings ls = LlmSettings.from(cli.settings());
        if (!ls.enabled()) {
            throw new UserError(ExitCodes.CONFIG, "chat needs a language model, and SLURMWISE_NO_LLM is set; unset it"
                    + " and point SLURMWISE_LLM_BASE_URL at an OpenAI-compatible endpoint");
        }
        try (RecordingTools tools = new RecordingTools(tools(cli))) {
            ChatAgent agent = new ChatAgent(OpenAiChatModel.builder().baseUrl(ls.baseUrl()).apiKey(ls.apiKey())
                    .modelName(ls.model()).temperature(0.2).timeout(ls.timeout()).maxRetries(0).build(), tools,
                    c -> cli.err().println(cli.style().dim(TerminalText.line("  · " + c.tool() + " " + c.arguments())
                            + (c.error() ? " (error)" : ""))));
            if (once != null) {
                return ask(agent, tools, once, ls, false) ? ExitCodes.OK : ExitCodes.BACKEND;
            }
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            cli.err().println(cli.style().dim("slurmwise chat with " + ls.model() + " at " + ls.baseUrl()
                    + " (tools " + tools.where() + "); empty line or Ctrl-D to quit"));
            while (true) {
                cli.err().print(cli.style().bold("you> "));
                cli.err().flush();
                String line = in.readLine();
                if (line == null || line.isBlank()) {
                    return ExitCodes.OK;
                }
                // a model that fails on one question does not end the session: the next one may be answered
                ask(agent, tools, line, ls, true);
            }
        }
    }

    /** In-process tools over the selected backend, or an MCP server's (started now, stopped at the end). */
    private ChatTools tools(Cli cli) {
        if (mcpServer == null) {
            return new LocalChatTools(new SlurmwiseTools(cli.slurmwise(Cli.Answers.FULL)));
        }
        List<String> command = CommandWords.split(mcpServer);
        try {
            McpChatTools t = McpChatTools.start(command, Duration.ofSeconds(120));
            cli.err().println(cli.style().dim("tools from the " + t.where() + ": " + t.definitions().stream()
                    .map(d -> d.name()).collect(java.util.stream.Collectors.joining(", "))
                    + (t.ignored().isEmpty() ? "" : " (not offered to the model: " + String.join(", ", t.ignored()) + ")")));
            return t;
        } catch (IllegalStateException e) {
            throw new UserError(ExitCodes.BACKEND, e.getMessage());
        }
    }

    /**
     * Asks one question and prints the answer; true when the model answered. When it does not (down, slow, HTTP 500,
     * garbage), the rules' answer for the jobs the question names ("job 1001", or a bare id that is a job's, read as
     * the agent reads a question it answers), else for those it diagnosed, goes to stdout, and one line on stderr
     * says what happened and what to do; false (an outside audit: one HTTP 500 ended the whole interactive session,
     * without the rules' answer). A model that calls tools {@link ChatAgent#MAX_STEPS} rounds without answering, or
     * answers nothing, is one that fails too.
     */
    private boolean ask(ChatAgent agent, RecordingTools tools, String question, LlmSettings ls, boolean interactive) {
        tools.diagnosed.clear();
        String answer;
        try {
            answer = agent.ask(question);
        } catch (RuntimeException e) {
            ModelFault fault;
            List<String> jobs;
            if (e instanceof ChatAgent.NoAnswer none) {
                // a model that keeps calling tools, or answers nothing, has not answered either: the rules' answer for
                // the question's jobs
                String model = "the language model at " + ls.baseUrl() + " ";
                fault = e instanceof ChatAgent.StepLimitReached
                        ? new ModelFault(model + "called tools " + ChatAgent.MAX_STEPS + " rounds without answering",
                        "ask a narrower question (one job, one thing)")
                        : new ModelFault(model + e.getMessage().replaceFirst("^the model ", ""),
                        "check that SLURMWISE_LLM_MODEL names a chat model");
                jobs = none.jobs();
            } else {
                fault = ModelFault.of(e, ls.baseUrl(), ls.timeout());
                jobs = questionJobs(agent, question);
            }
            String rules = RulesAnswer.of(tools, jobs);
            if (!rules.isEmpty()) {
                cli.out().println(TerminalText.text(rules));
                cli.out().flush();
            }
            // chat has nothing to skip the model with: SLURMWISE_NO_LLM is not a way out here
            String todo = fault.todo().replaceFirst(",? or SLURMWISE_NO_LLM=1 to skip it$", "");
            cli.error(fault.what() + "; " + (rules.isEmpty()
                    ? "the question got no answer: " + todo + ", then ask again"
                    + (interactive ? " (the chat goes on)" : "") + ", or run `slurmwise diagnose JOBID` for the rules'"
                    + " answer without a model"
                    : "above is the rules' answer alone: " + todo + ", then ask again for the model's"
                    + (interactive ? " (the chat goes on)" : "")));
            cli.err().flush();
            return false;
        }
        // the model's words are not ours: a prompt-injected log could make it answer with escape sequences, or
        // megabytes (cut as a diagnosis's explanation is)
        cli.out().println(TerminalText.text(Explanation.capped(answer, Explanation.MAX_CHARS)));
        cli.out().flush();
        return true;
    }

    /**
     * The jobs the failed question asks about, read as the agent reads a question it answers (bare ids too); none
     * when the tools cannot say either (the backend down as well).
     */
    private static List<String> questionJobs(ChatAgent agent, String question) {
        try {
            return agent.questionJobs(question);
        } catch (RuntimeException e) {
            return List.of();
        }
    }

    /** The chat's tools, keeping each {@code diagnose_job} result of the current question. */
    static final class RecordingTools implements ChatTools {
        private final ChatTools tools;
        final List<JsonNode> diagnosed = new java.util.ArrayList<>();

        RecordingTools(ChatTools tools) {
            this.tools = tools;
        }

        @Override
        public List<io.slurmwise.mcp.ToolDefinition> definitions() {
            return tools.definitions();
        }

        @Override
        public Object call(String name, Map<String, Object> arguments) {
            Object result = tools.call(name, arguments);
            if ("diagnose_job".equals(name)) {
                JsonNode node = RulesAnswer.JSON.valueToTree(result);
                if (node.has("status")) {
                    diagnosed.add(node);
                } else {
                    node.path("diagnoses").forEach(diagnosed::add);
                }
            }
            return result;
        }

        @Override
        public String where() {
            return tools.where();
        }

        @Override
        public void close() {
            tools.close();
        }
    }
}
