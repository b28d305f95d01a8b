package io.slurmwise.agent.explain;

import io.slurmwise.agent.testing.FakeOpenAiServer;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The probe against a local OpenAI-compatible server the test runs, a closed port, and a missing model. */
class LlmProbeTest {

    private static LlmSettings at(String url, String model) {
        return new LlmSettings(true, url, model, "not-needed", Duration.ofSeconds(5));
    }

    @Test
    void aServedModelIsUsableAndAMissingOneSaysWhatToPull() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.answering(r -> "unused")) {
            LlmProbe.Result ok = LlmProbe.check(at(server.baseUrl(), "qwen2.5:7b"));
            assertThat(ok.usable()).isTrue();
            assertThat(ok.certain()).isTrue();
            assertThat(ok.detail()).isEqualTo("model qwen2.5:7b served at " + server.baseUrl());
            LlmProbe.Result missing = LlmProbe.check(at(server.baseUrl() + "/", "llama3.1:70b"));
            assertThat(missing.certain()).as("a server may answer a name it does not list").isFalse();
            assertThat(missing.detail()).contains("does not serve llama3.1:70b").contains("qwen2.5:7b, fake-model")
                    .contains("Ollama and vLLM refuse it").contains("llama.cpp")
                    .contains("ollama pull llama3.1:70b").contains("SLURMWISE_LLM_MODEL");
            LlmProbe.Result tagged = LlmProbe.check(at(server.baseUrl(), "fake-model:latest"));
            assertThat(tagged.certain()).as("Ollama's untagged name is its :latest").isTrue();
            assertThat(tagged.detail()).startsWith("model fake-model:latest served");
            assertThat(server.requests()).as("no generation was asked for").isEmpty();
        }
    }

    @Test
    void anUntaggedNameIsTheLatestTagAndARegistryPathIsNoTag() {
        assertThat(LlmProbe.sameModel("llama3.2:latest", "llama3.2")).isTrue();
        assertThat(LlmProbe.sameModel("llama3.2", "llama3.2:latest")).isTrue();
        assertThat(LlmProbe.sameModel("llama3.2:3b", "llama3.2")).isFalse();
        assertThat(LlmProbe.sameModel("localhost:5000/org/model", "localhost:5000/org/model:latest")).isTrue();
    }

    @Test
    void nothingListeningOrDisabledIsReportedWithTheFallback() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        LlmProbe.Result down = LlmProbe.check(at("http://127.0.0.1:" + port + "/v1", "qwen2.5:7b"));
        assertThat(down.usable()).isFalse();
        assertThat(down.detail()).contains("nothing listens at 127.0.0.1:" + port).contains("ollama serve")
                .contains("the template words explanations");
        LlmProbe.Result off = LlmProbe.check(at("http://127.0.0.1:1/v1", "x").disabled());
        assertThat(off.usable()).isFalse();
        assertThat(off.detail()).startsWith("disabled");
    }
}
