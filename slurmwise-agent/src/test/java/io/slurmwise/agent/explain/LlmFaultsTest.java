package io.slurmwise.agent.explain;

import io.slurmwise.Slurmwise;
import io.slurmwise.agent.testing.FakeOpenAiServer;
import io.slurmwise.agent.testing.FakeOpenAiServer.Fault;
import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.diagnose.TemplateExplainer;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A model endpoint that is slow, answers garbage, cuts its answer off, fails with HTTP 500 or answers no choice: the
 * rules' diagnosis stands, the template words it, and one line says what happened and what to do.
 */
class LlmFaultsTest {

    @ParameterizedTest
    @EnumSource(Fault.class)
    void everyFaultLeavesTheRulesDiagnosisAndOneLineSayingWhatToDo(Fault fault) throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.faulty(fault)) {
            LlmExplainer llm = LlmExplainer.openAiCompatible(new LlmSettings(true, server.baseUrl(), "test-model", "none",
                    Duration.ofSeconds(1)), new TemplateExplainer(), Taxonomy.load(null));
            try (Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).explainer(llm).build()) {
                Diagnosis.Failed f = (Diagnosis.Failed) assertTimeoutPreemptively(Duration.ofSeconds(30),
                        () -> sw.diagnose("1001"));
                assertThat(f.finding().kindId()).isEqualTo("oom");
                assertThat(f.explanation().source()).isEqualTo("template");
                assertThat(f.method()).isEqualTo("rules");
                String reason = llm.fallbackReason().orElseThrow();
                assertThat(reason).doesNotContain("\n").doesNotContain("Exception").doesNotContain("\u001b")
                        .contains(server.baseUrl()).contains("the template worded this").hasSizeLessThan(400)
                        .contains(switch (fault) {
                            case SLOW -> "did not answer within 1 s; the template worded this; raise SLURMWISE_LLM_TIMEOUT";
                            case GARBAGE, TRUNCATED, NO_CHOICES -> "not an OpenAI-compatible chat response";
                            case ERROR_500 -> "failed (HTTP 500: model runner crashed: CUDA error: out of memory)";
                        });
                // the diagnosis carries what happened (footer, --json's note), as for an answer set aside
                String note = f.explanation().note();
                assertThat(note).isNotNull().doesNotContain("\n").doesNotContain("\u001b").contains(server.baseUrl())
                        .endsWith("; the template worded this").isEqualTo(reason.substring(0, note.length()));
                @SuppressWarnings("unchecked")
                java.util.Map<String, Object> json = (java.util.Map<String, Object>) io.slurmwise.view.Views
                        .diagnosis(f, "mock").get("explanation");
                assertThat(json).containsEntry("note", note);
                // not asked again in this process, and every later explanation says why
                Diagnosis.Failed next = (Diagnosis.Failed) sw.diagnose("22542799");
                assertThat(next.explanation().note()).isEqualTo(note);
                assertThat(server.requests()).hasSize(1);
            }
        }
    }
}
