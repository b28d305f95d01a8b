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
 * CLI: diagnose still shows the rules' diagnosis with one line on stderr saying what to do; {@code chat --once} gives
 * the rules' answer for a job the question names, that one line, and exit 4 (a part that does not answer). No
 * stack trace either way. The interactive chat's survival is {@code ChatSessionCliTest}.
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
            List<String> err = StderrText.messages(r.err());
            assertThat(err).as(r.err()).hasSize(1);
            assertThat(err.get(0)).startsWith("slurmwise: ").contains(server.baseUrl())
                    .contains("the template worded this").contains("SLURMWISE_");
            assertNoTrace(r);
        }
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    void chatOnceEndsBackendUnavailableWithOneLineSayingWhatToDo(Fault fault) throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.faulty(fault)) {
            Result r = CliTest.run(env(server, "c-" + fault), false, "chat", "--once", "why do my jobs keep failing?");
            // README's table: 4 is a part slurmwise needs that does not answer (RELIABILITY said 3, "job not found")
            assertThat(r.code()).isEqualTo(ExitCodes.BACKEND);
            assertThat(r.out()).isEmpty();
            assertThat(StderrText.messages(r.err())).as(r.err()).hasSize(1)
                    .allSatisfy(l -> assertThat(l).startsWith("slurmwise: ").contains(server.baseUrl())
                            .contains("the question got no answer").contains("`slurmwise diagnose JOBID`")
                            // chat refuses SLURMWISE_NO_LLM: it is no way out here
                            .doesNotContain("SLURMWISE_NO_LLM"));
            assertNoTrace(r);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Fault.class, names = {"ERROR_500", "SLOW"})
    void chatOnceGivesTheRulesAnswerForTheJobTheQuestionNames(Fault fault) throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.faulty(fault)) {
            // the job named as "job 1001", or by its id alone, read as the chat agent reads a question it answers
            for (String question : List.of("Why did job 1001 fail?", "what went wrong with 1001?")) {
                Result r = CliTest.run(env(server, "r-" + fault), false, "chat", "--once", question);
                assertThat(r.code()).isEqualTo(ExitCodes.BACKEND);
                assertThat(r.out()).as(question).contains("Job 1001: ").contains("(oom), as slurmwise's rules decided")
                        .contains("First fix: ").contains("`slurmwise diagnose 1001`");
                assertThat(StderrText.messages(r.err())).as(r.err()).singleElement().satisfies(l -> assertThat(l)
                        .contains(server.baseUrl()).contains("above is the rules' answer alone"));
                assertNoTrace(r);
            }
        }
    }

    /**
     * A model that only calls tools has not answered either: after 8 rounds {@code chat --once} gives the rules'
     * answer for the job the question names (a bare id too) and exits 4 (an outside audit: it exited 0 with "I stopped
     * after 8 tool calls" and no rules' answer even for "job 1001").
     */
    @org.junit.jupiter.api.Test
    void chatOnceGivesTheRulesAnswerWhenTheModelOnlyCallsTools() throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer(
                req -> FakeOpenAiServer.Reply.toolCall("get_job", "{\"job_id\":\"1001\"}"))) {
            for (String question : List.of("Why did job 1001 fail?", "what went wrong with 1001?")) {
                Result r = CliTest.run(env(server, "l-" + question.length()), false, "chat", "--once", question);
                assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.BACKEND);
                assertThat(r.out()).contains("Job 1001: ").contains("(oom), as slurmwise's rules decided")
                        .contains("First fix: ").contains("`slurmwise diagnose 1001`").doesNotContain("I stopped");
                // the tool calls' progress lines, then one line saying what happened
                assertThat(StderrText.messages(r.err()).stream().filter(l -> !l.strip().startsWith("·")).toList())
                        .as(r.err()).singleElement()
                        .satisfies(l -> assertThat(l).contains("called tools 8 rounds without answering")
                                .contains("above is the rules' answer alone").contains("narrower question"));
                assertNoTrace(r);
            }
        }
    }

    private static void assertNoTrace(Result r) {
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("internal error")
                .doesNotContain("\u001b");
        HostileOutputTest.assertSafe(r, false);
    }
}
