package io.slurmwise.cli.chat;

import dev.langchain4j.model.openai.OpenAiChatModel;
import io.slurmwise.agent.chat.ChatAgent;
import io.slurmwise.agent.chat.ChatTools;
import io.slurmwise.agent.chat.LocalChatTools;
import io.slurmwise.agent.chat.McpChatTools;
import io.slurmwise.agent.explain.LlmSettings;
import io.slurmwise.agent.explain.ModelFault;
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
        try (ChatTools tools = tools(cli)) {
            ChatAgent agent = new ChatAgent(OpenAiChatModel.builder().baseUrl(ls.baseUrl()).apiKey(ls.apiKey())
                    .modelName(ls.model()).temperature(0.2).timeout(ls.timeout()).maxRetries(0).build(), tools,
                    c -> cli.err().println(cli.style().dim(TerminalText.line("  · " + c.tool() + " " + c.arguments())
                            + (c.error() ? " (error)" : ""))));
            if (once != null) {
                cli.out().println(ask(agent, once, ls));
                return ExitCodes.OK;
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
                cli.out().println(ask(agent, line, ls));
                cli.out().flush();
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

    private static String ask(ChatAgent agent, String question, LlmSettings ls) {
        try {
            // the model's words are not ours: a prompt-injected log could make it answer with escape sequences
            return TerminalText.text(agent.ask(question));
        } catch (RuntimeException e) {
            // slow, down, failing or answering garbage: one line that says what to do
            throw new UserError(ExitCodes.BACKEND, ModelFault.of(e, ls.baseUrl(), ls.timeout()).line());
        }
    }
}
