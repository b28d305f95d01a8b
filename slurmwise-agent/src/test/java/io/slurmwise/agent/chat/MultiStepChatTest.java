package io.slurmwise.agent.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.openai.OpenAiChatModel;
import io.slurmwise.Slurmwise;
import io.slurmwise.agent.testing.FakeOpenAiServer;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.job.JobRecord;
import io.slurmwise.mcp.SlurmwiseMcpServer;
import io.slurmwise.mcp.SlurmwiseTools;
import io.slurmwise.stats.Outcome;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Why did my last three jobs fail and what should I change?" as a model works it out: list_jobs, diagnose_job on
 * each of the three newest failures, suggest_patch, then the answer. The model is scripted (a local
 * OpenAI-compatible server that reads the tool results it is sent); the tools are slurmwise's, in-process and
 * through a real MCP client talking to the server process, against the mock cluster.
 */
class MultiStepChatTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String QUESTION = "Why did my last three jobs fail and what should I change?";

    @Test
    void inProcessTools() throws Exception {
        try (Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).build()) {
            check(new LocalChatTools(new SlurmwiseTools(sw, "backend mock")));
        }
    }

    @Test
    void toolsThroughARealMcpClient() throws Exception {
        List<String> server = List.of("/usr/bin/env", "SLURMWISE_BACKEND=mock",
                "SLURMWISE_HOME=" + Path.of("target", "mcp-multistep-home").toAbsolutePath(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), SlurmwiseMcpServer.class.getName());
        try (McpChatTools tools = McpChatTools.start(server, Duration.ofSeconds(60))) {
            check(tools);
        }
    }

    private void check(ChatTools tools) throws Exception {
        // what the answer must hold, worked out here from the cluster's records, independently of the tools
        List<String> newest = threeNewestFailures();
        List<String> kinds = new ArrayList<>();
        try (Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).build()) {
            for (String id : newest) {
                kinds.add(((Diagnosis.Failed) sw.diagnose(id)).finding().kindId());
            }
        }
        try (FakeOpenAiServer model = new FakeOpenAiServer(MultiStepChatTest::script)) {
            List<ChatAgent.ToolCall> calls = new ArrayList<>();
            ChatAgent agent = new ChatAgent(OpenAiChatModel.builder().baseUrl(model.baseUrl()).apiKey("none")
                    .modelName("test").timeout(Duration.ofSeconds(30)).maxRetries(0).build(), tools, calls::add);
            String answer = agent.ask(QUESTION);

            assertThat(calls).extracting(ChatAgent.ToolCall::tool).containsExactly("list_jobs", "diagnose_job",
                    "diagnose_job", "diagnose_job", "suggest_patch");
            assertThat(calls).noneMatch(ChatAgent.ToolCall::error);
            for (int i = 0; i < 3; i++) {
                assertThat(calls.get(1 + i).arguments()).isEqualTo("{\"job_id\":\"" + newest.get(i) + "\"}");
            }
            for (int i = 0; i < 3; i++) {
                assertThat(answer).contains("job " + newest.get(i) + ": " + kinds.get(i));
            }
            assertThat(answer).containsPattern("Change for job \\d+: .+");
            assertThat(model.requests()).hasSize(6);
        }
    }

    /** The three newest jobs that failed (not cancelled or preempted), by submit time. */
    private static List<String> threeNewestFailures() {
        try (Stream<JobRecord> s = MockBackend.bundled().jobs(JobQuery.window(LocalDateTime.now().minusDays(30),
                LocalDateTime.now()))) {
            return s.filter(j -> Outcome.of(j.state()) == Outcome.FAILED)
                    .sorted(Comparator.comparing(JobRecord::submit).reversed()).limit(3).map(j -> j.id().toString()).toList();
        }
    }

    /**
     * The scripted model. It reads the conversation: the tool it called last and that tool's result decide the
     * next step, as a model following the tools' descriptions would.
     */
    static FakeOpenAiServer.Reply script(JsonNode request) {
        List<String> tools = new ArrayList<>();
        List<JsonNode> results = new ArrayList<>();
        for (JsonNode m : request.path("messages")) {
            if ("assistant".equals(m.path("role").asText()) && m.has("tool_calls")) {
                tools.add(m.path("tool_calls").get(0).path("function").path("name").asText());
            }
            if ("tool".equals(m.path("role").asText())) {
                try {
                    results.add(JSON.readTree(m.path("content").asText()));
                } catch (IOException e) {
                    throw new IllegalStateException("a tool answered with no JSON: " + m.path("content").asText(), e);
                }
            }
        }
        if (tools.isEmpty()) {
            return FakeOpenAiServer.Reply.toolCall("list_jobs",
                    "{\"states\":\"FAILED,TIMEOUT,OUT_OF_MEMORY,NODE_FAIL\",\"limit\":3}");
        }
        JsonNode listed = results.get(0).path("jobs");
        int diagnosed = (int) tools.stream().filter("diagnose_job"::equals).count();
        if (diagnosed < listed.size()) {
            return FakeOpenAiServer.Reply.toolCall("diagnose_job",
                    "{\"job_id\":\"" + listed.get(diagnosed).path("id").asText() + "\"}");
        }
        if (!tools.contains("suggest_patch")) {
            // the first diagnosis whose patch changes the script
            for (JsonNode d : results.subList(1, results.size())) {
                if ("suggested".equals(d.at("/patch/status").asText())) {
                    return FakeOpenAiServer.Reply.toolCall("suggest_patch", "{\"job_id\":\"" + d.path("job_id").asText() + "\"}");
                }
            }
            return FakeOpenAiServer.Reply.toolCall("suggest_patch", "{\"job_id\":\"" + listed.get(0).path("id").asText() + "\"}");
        }
        StringBuilder answer = new StringBuilder();
        for (JsonNode d : results.subList(1, 1 + listed.size())) {
            answer.append("job ").append(d.path("job_id").asText()).append(": ").append(d.at("/finding/kind").asText())
                    .append(" (").append(d.at("/finding/evidence/0/text").asText()).append(")\n");
        }
        JsonNode patch = results.get(results.size() - 1);
        List<String> changes = new ArrayList<>();
        patch.at("/patch/changes").forEach(c -> changes.add(c.path("what").asText()));
        answer.append("Change for job ").append(patch.path("job_id").asText()).append(": ")
                .append(changes.isEmpty() ? patch.at("/patch/reason").asText() : String.join("; ", changes));
        return FakeOpenAiServer.Reply.text(answer.toString());
    }
}
