package io.slurmwise.agent.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.slurmwise.agent.testing.FakeOpenAiServer;
import io.slurmwise.mcp.SlurmwiseMcpServer;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The agent with its tools on a real MCP server (slurmwise's, started as a process and reached by the SDK's
 * client over stdio, as {@code ssh login1 slurmwise mcp} would be), and a local OpenAI-compatible model.
 */
class McpChatToolsTest {

    private static List<String> serverCommand() {
        return List.of("/usr/bin/env", "SLURMWISE_BACKEND=mock",
                "SLURMWISE_HOME=" + Path.of("target", "mcp-chat-home").toAbsolutePath(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), SlurmwiseMcpServer.class.getName());
    }

    @Test
    void theAgentAnswersWithToolsFromAnMcpServer() throws Exception {
        try (FakeOpenAiServer model = new FakeOpenAiServer(ChatAgentTest::script);
             McpChatTools tools = McpChatTools.start(serverCommand(), Duration.ofSeconds(60))) {
            assertThat(tools.definitions()).extracting(d -> d.name())
                    .containsExactlyInAnyOrderElementsOf(io.slurmwise.mcp.ToolDefinition.NAMES);
            assertThat(tools.ignored()).isEmpty();
            assertThat(tools.where()).startsWith("MCP server `/usr/bin/env SLURMWISE_BACKEND=mock");
            List<ChatAgent.ToolCall> calls = new ArrayList<>();
            ChatAgent agent = new ChatAgent(OpenAiChatModel.builder().baseUrl(model.baseUrl()).apiKey("none")
                    .modelName("test").timeout(Duration.ofSeconds(20)).maxRetries(0).build(), tools, calls::add);
            assertThat(agent.ask("Why did job 1001 fail?")).isEqualTo("The rules say oom.");
            assertThat(calls).containsExactly(new ChatAgent.ToolCall("diagnose_job", "{\"job_id\":\"1001\"}", false));
            JsonNode first = model.requests().get(0);
            assertThat(first.path("tools")).hasSize(io.slurmwise.mcp.ToolDefinition.NAMES.size());
            // a tool error comes back to the model as text, not as an exception
            assertThatThrownBy(() -> tools.call("diagnose_job", java.util.Map.of("job_id", "not-a-job")))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not-a-job");
            assertThatThrownBy(() -> tools.call("scancel", java.util.Map.of()))
                    .hasMessageContaining("there is no tool 'scancel'");
            // the job's facts come from the server's diagnose_job JSON as from the in-process tools: a run time that is
            // the job's limit is set aside
            try (FakeOpenAiServer swapped = new FakeOpenAiServer(r -> ChatAgentTest.answerAfterTool(r, "1001",
                    "1001 ran the full 08:00:00 and then ran out of memory. Ask for --mem=48G."))) {
                ChatAgent second = new ChatAgent(OpenAiChatModel.builder().baseUrl(swapped.baseUrl()).apiKey("none")
                        .modelName("test").timeout(Duration.ofSeconds(20)).maxRetries(0).build(), tools, c -> { });
                assertThat(second.ask("why did 1001 fail?"))
                        .contains("set aside: it says the job ran 08:00:00, but it ran 00:41:12");
            }
        }
    }

    @Test
    void aCommandThatIsNotAnMcpServerIsNamedInTheError() {
        assertThatThrownBy(() -> McpChatTools.start(List.of("/bin/false"), Duration.ofSeconds(5)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("`/bin/false` did not start or answer");
    }
}
