package io.slurmwise.cli;

import io.slurmwise.cli.context.ExitCodes;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.agent.testing.FakeOpenAiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code slurmwise doctor} on the mock cluster: what it checks, what it says, and its exit codes. */
class DoctorCliTest {

    private static Map<String, String> statuses(CliTest.Result r) throws IOException {
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertThat(j.get("schema").asText()).isEqualTo("slurmwise.doctor/v1");
        Map<String, String> m = new HashMap<>();
        j.get("checks").forEach(c -> m.put(c.get("name").asText(), c.get("status").asText() + ": " + c.get("detail").asText()));
        return m;
    }

    @Test
    void aHealthyMockSetupPassesEveryCheckItRuns() throws IOException {
        CliTest.Result r = CliTest.run("doctor", "--json");
        assertThat(r.code()).as(r.out()).isZero();
        Map<String, String> s = statuses(r);
        assertThat(s.keySet()).containsExactlyInAnyOrder("settings", "home", "knowledge", "backend", "accounting",
                "controller", "qos limits", "knowledge index", "chroma", "language model", "energy");
        assertThat(s.get("backend")).startsWith("ok: backend mock");
        assertThat(s.get("accounting")).startsWith("ok: job records answer");
        assertThat(s.get("controller")).startsWith("ok: 6 partitions").contains("gpuA100x4");
        assertThat(s.get("qos limits")).startsWith("ok: 5 QOS (normal (MaxWall 2-00:00:00), gpu (MaxWall 1-00:00:00)");
        assertThat(s.get("knowledge")).startsWith("ok: 24 notes");
        assertThat(s.get("chroma")).startsWith("skip: SLURMWISE_CHROMA_URL is not set");
        assertThat(s.get("language model")).startsWith("skip: disabled");
        assertThat(s.get("energy")).startsWith("ok: datasheet defaults");
        CliTest.Result text = CliTest.run("doctor");
        assertThat(text.out()).contains("slurmwise doctor").contains("accounting").containsAnyOf("all good", "works, with");
    }

    @Test
    void aServedModelIsOkAndAnUnreachableOneIsOnlyAWarning() throws IOException {
        try (FakeOpenAiServer llm = FakeOpenAiServer.answering(q -> "unused")) {
            Map<String, String> env = new HashMap<>(Map.of("SLURMWISE_LLM_BASE_URL", llm.baseUrl()));
            env.put("SLURMWISE_NO_LLM", "");
            CliTest.Result r = CliTest.run(env, false, "doctor", "--json");
            assertThat(statuses(r).get("language model")).isEqualTo("ok: model qwen2.5:7b served at " + llm.baseUrl());
            env.put("SLURMWISE_LLM_MODEL", "llama3.1:405b");
            CliTest.Result missing = CliTest.run(env, false, "doctor", "--json");
            assertThat(missing.code()).as("a missing model degrades explanations, it breaks nothing").isZero();
            assertThat(statuses(missing).get("language model")).startsWith("warn:").contains("ollama pull llama3.1:405b");
        }
    }

    @Test
    void anUnreachableChromaIsAWarningBecauseDiagnosesFallBack() throws IOException {
        CliTest.Result r = CliTest.run(Map.of("SLURMWISE_CHROMA_URL", "http://127.0.0.1:9"), false, "doctor", "--json");
        assertThat(r.code()).isZero();
        assertThat(statuses(r).get("chroma")).startsWith("warn: Chroma at http://127.0.0.1:9 did not answer")
                .contains("diagnoses use the embedded index");
    }

    @Test
    void brokenNotesOrEnergyFileFailWithTheFileAndExitSix(@TempDir Path dir) throws IOException {
        Path notes = Files.createDirectories(dir.resolve("notes"));
        Files.writeString(notes.resolve("oom.md"), "---\nid: oom\ntitle: x\ncategory: nonsense\n---\n# x\n");
        CliTest.Result r = CliTest.run(Map.of("SLURMWISE_KNOWLEDGE", notes.toString()), false, "doctor", "--json");
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        Map<String, String> s = statuses(r);
        assertThat(s.get("knowledge")).startsWith("fail:").contains("oom.md");
        assertThat(s.get("knowledge index")).startsWith("skip:");
        Path energy = Files.writeString(dir.resolve("energy.properties"), "pue=lots\n");
        CliTest.Result e = CliTest.run(Map.of("SLURMWISE_ENERGY_FILE", energy.toString()), false, "doctor", "--json");
        assertThat(e.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(statuses(e).get("energy")).startsWith("fail:").contains("energy.properties");
    }

    @Test
    void aBackendThatCannotStartFailsWithExitFour() throws IOException {
        CliTest.Result r = CliTest.run(Map.of("SLURMWISE_BACKEND", "real", "PATH", "/nonexistent"), false, "doctor", "--json");
        assertThat(r.code()).isEqualTo(ExitCodes.BACKEND);
        Map<String, String> s = statuses(r);
        assertThat(s.get("backend") + s.get("accounting")).contains("fail:").contains("sacct");
    }
}
