package io.slurmwise.cli;

import io.slurmwise.agent.testing.FakeOpenAiServer;
import io.slurmwise.agent.testing.FakeOpenAiServer.Fault;
import io.slurmwise.cli.CliTest.Result;
import io.slurmwise.cli.context.ExitCodes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The model endpoint slow, answering garbage, cut off, failing with HTTP 500 or answering no choice, through the
 * CLI: diagnose still shows the rules' diagnosis with one line on stderr saying what to do; chat, which has nothing
 * without the model, ends with that one line. No stack trace either way.
 */
class ModelFaultsCliTest {

    @TempDir
    Path home;

    private Map<String, String> env(FakeOpenAiServer server, String run) {
        return Map.of("SLURMWISE_NO_LLM", "", "SLURMWISE_LLM_BASE_URL", server.baseUrl(), "SLURMWISE_LLM_MODEL",
                "fake-model", "SLURMWISE_LLM_TIMEOUT", "1", "SLURMWISE_RETRIEVER", "notes",
                "SLURMWISE_HOME", home.resolve(run).toString());
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    void diagnoseKeepsTheRulesDiagnosisAndSaysWhatToDoInOneLine(Fault fault) throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.faulty(fault)) {
            Result r = CliTest.run(env(server, "d-" + fault), false, "diagnose", "1001");
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).contains("job 1001 train_llama_sft [OUT_OF_MEMORY]").contains("(oom)").contains("Fixes");
            List<String> err = r.err().strip().lines().toList();
            assertThat(err).as(r.err()).hasSize(1);
            assertThat(err.get(0)).startsWith("slurmwise: ").contains(server.baseUrl())
                    .contains("the template worded this").contains("SLURMWISE_");
            assertNoTrace(r);
        }
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    void chatEndsWithOneLineSayingWhatToDo(Fault fault) throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.faulty(fault)) {
            Result r = CliTest.run(env(server, "c-" + fault), false, "chat", "--once", "why did 1001 fail?");
            assertThat(r.code()).isEqualTo(ExitCodes.BACKEND);
            assertThat(r.out()).isEmpty();
            assertThat(r.err().strip().lines().toList()).as(r.err()).hasSize(1)
                    .allSatisfy(l -> assertThat(l).startsWith("slurmwise: ").contains(server.baseUrl()).contains("SLURMWISE_"));
            assertNoTrace(r);
        }
    }

    private static void assertNoTrace(Result r) {
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("internal error")
                .doesNotContain("\u001b");
        HostileOutputTest.assertSafe(r, false);
    }
}
