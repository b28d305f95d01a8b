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

    @Test
    void anAnswerThatContradictsTheDiagnosisIsReplacedByTheRulesFinding() throws Exception {
        String disagreeing = "The job was killed because its node went offline; it was not a memory problem.";
        try (FakeOpenAiServer server = new FakeOpenAiServer(r -> answerAfterTool(r, disagreeing));
             Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).build()) {
            ChatAgent agent = new ChatAgent(OpenAiChatModel.builder().baseUrl(server.baseUrl()).apiKey("none")
                    .modelName("test").timeout(Duration.ofSeconds(20)).maxRetries(0).build(),
                    new SlurmwiseTools(sw, "backend mock"), c -> { });
            String answer = agent.ask("Why did job 1001 fail?");
            String shown = answer.substring(0, answer.indexOf("(The model's answer was set aside"));
            assertThat(shown).doesNotContain("went offline")
                    .startsWith("Job 1001: Out of memory (host RAM) (oom), as slurmwise's rules decided")
                    .contains("Evidence: State=OUT_OF_MEMORY")
                    .contains("First fix: Ask for more memory");
            assertThat(answer)
                    .contains("The model's answer was set aside: it names another cause, node_fail")
                    .contains("slurmwise diagnose 1001");
            // the next question's conversation carries what the user saw, not the model's contradiction
            agent.ask("And what should I change?");
            assertThat(FakeOpenAiServer.text(server.requests().get(server.requests().size() - 1)))
                    .contains("as slurmwise's rules decided").doesNotContain("it was not a memory problem");
        }
    }

    @Test
    void aFaithfulAnswerAboutTheFixAloneIsLeftAsItIs() throws Exception {
        String fixOnly = "Ask for more memory: change the #SBATCH --mem line as the first fix says, then resubmit.";
        try (FakeOpenAiServer server = new FakeOpenAiServer(r -> answerAfterTool(r, fixOnly));
             Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).build()) {
            ChatAgent agent = new ChatAgent(OpenAiChatModel.builder().baseUrl(server.baseUrl()).apiKey("none")
                    .modelName("test").timeout(Duration.ofSeconds(20)).maxRetries(0).build(),
                    new SlurmwiseTools(sw, "backend mock"), c -> { });
            assertThat(agent.ask("What should I change in job 1001?")).isEqualTo(fixOnly);
        }
    }

    /** Asks for diagnose_job of 1001 until a tool result is in this question's part of the conversation. */
    static FakeOpenAiServer.Reply answerAfterTool(JsonNode request, String answer) {
        JsonNode messages = request.path("messages");
        JsonNode last = messages.get(messages.size() - 1);
        return "tool".equals(last.path("role").asText()) ? FakeOpenAiServer.Reply.text(answer)
                : FakeOpenAiServer.Reply.toolCall("diagnose_job", "{\"job_id\":\"1001\"}");
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
