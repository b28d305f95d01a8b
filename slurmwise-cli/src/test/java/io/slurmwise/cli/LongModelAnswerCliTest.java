package io.slurmwise.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.slurmwise.agent.testing.FakeOpenAiServer;
import io.slurmwise.cli.CliTest.Result;
import io.slurmwise.diagnose.Explanation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A model that answers megabytes: the explanation is cut at the limit the MCP server puts on any field
 * ({@link Explanation#MAX_CHARS}), saying so, in {@code --json}, {@code --full} and the chat alike (an outside audit:
 * a 5.4 MB answer was taken whole, 6.4 MB printed by {@code --full}).
 */
class LongModelAnswerCliTest {

    @TempDir
    Path home;

    private static final String HUGE = "Job 1001 ran out of host memory (oom). ".repeat(140_000);

    private Map<String, String> env(FakeOpenAiServer server) {
        return Map.of("SLURMWISE_NO_LLM", "", "SLURMWISE_LLM_BASE_URL", server.baseUrl(), "SLURMWISE_LLM_MODEL",
                "fake-model", "SLURMWISE_RETRIEVER", "notes", "SLURMWISE_HOME", home.toString());
    }

    @Test
    void aMegabyteExplanationIsCutAndSaysSo() throws Exception {
        assertThat(HUGE.length()).isGreaterThan(5_000_000);
        try (FakeOpenAiServer server = FakeOpenAiServer.answering(req -> HUGE)) {
            Result json = CliTest.run(env(server), false, "diagnose", "1001", "--json");
            assertThat(json.code()).as(json.err()).isZero();
            JsonNode e = json.json().path("explanation");
            assertThat(e.path("source").asText()).as("the model's words, cut, not set aside").isEqualTo("llm:fake-model");
            String text = e.path("text").asText();
            assertThat(text.length()).isLessThanOrEqualTo(Explanation.MAX_CHARS);
            assertThat(text).startsWith("Job 1001 ran out of host memory (oom).")
                    .endsWith(" more characters cut]");
            assertThat(json.out().length()).isLessThan(64 * 1024);

            Result full = CliTest.run(env(server), false, "diagnose", "1001", "--full");
            assertThat(full.code()).as(full.err()).isZero();
            assertThat(full.out()).contains("more characters cut]");
            assertThat(full.out().length()).isLessThan(64 * 1024);
        }
    }

    @Test
    void aMegabyteChatAnswerIsCutTheSameWay() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.answering(req -> HUGE)) {
            // the question names the job the answer speaks of: an answer about a job no one asked of, with no tool
            // called, is checked against that job's diagnosis and set aside for the id it invents (ChatAgentTest)
            Result r = CliTest.run(env(server), false, "chat", "--once", "what is an oom, as in job 1001?");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out().strip()).endsWith(" more characters cut]");
            assertThat(r.out().strip().length()).isLessThanOrEqualTo(Explanation.MAX_CHARS);
        }
    }

    @Test
    void aCutTextIsNotCutAgain() {
        Explanation once = new Explanation(HUGE, "llm:x");
        assertThat(once.withNote("n").text()).isEqualTo(once.text());
        assertThat(new Explanation("short", "template").text()).isEqualTo("short");
    }
}
