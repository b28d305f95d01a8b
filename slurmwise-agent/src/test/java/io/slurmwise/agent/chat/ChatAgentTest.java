package io.slurmwise.agent.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.slurmwise.Slurmwise;
import io.slurmwise.agent.testing.FakeOpenAiServer;
import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.mcp.SlurmwiseTools;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The ReAct loop against a local OpenAI-compatible server that asks for a tool, then answers from its result. */
class ChatAgentTest {

    @Test
    void callsAToolThenAnswersFromItsResult() throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer(ChatAgentTest::script);
             Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).build()) {
            List<ChatAgent.ToolCall> calls = new ArrayList<>();
            ChatAgent agent = new ChatAgent(OpenAiChatModel.builder().baseUrl(server.baseUrl()).apiKey("none")
                    .modelName("test").timeout(Duration.ofSeconds(20)).maxRetries(0).build(),
                    new SlurmwiseTools(sw, "backend mock"), calls::add);
            String answer = agent.ask("Why did job 1001 fail?");
            assertThat(calls).containsExactly(new ChatAgent.ToolCall("diagnose_job", "{\"job_id\":\"1001\"}", false));
            assertThat(answer).isEqualTo("The rules say oom.");
            // the first request offered every tool; the second carried the tool's result
            JsonNode first = server.requests().get(0);
            assertThat(first.path("tools")).hasSize(io.slurmwise.mcp.ToolDefinition.NAMES.size());
            assertThat(FakeOpenAiServer.text(server.requests().get(1))).contains("\"kind\":\"oom\"");
        }
    }

    /** Asks for diagnose_job first; once a tool result is in the conversation, answers with the kind it saw. */
    static FakeOpenAiServer.Reply script(JsonNode request) {
        JsonNode messages = request.path("messages");
        for (JsonNode m : messages) {
            if ("tool".equals(m.path("role").asText())) {
                String content = m.path("content").asText();
                String kind = content.replaceAll("(?s).*\"finding\":\\{\"kind\":\"([a-z_]+)\".*", "$1");
                return FakeOpenAiServer.Reply.text("The rules say " + kind + ".");
            }
        }
        return FakeOpenAiServer.Reply.toolCall("diagnose_job", "{\"job_id\":\"1001\"}");
    }
}
