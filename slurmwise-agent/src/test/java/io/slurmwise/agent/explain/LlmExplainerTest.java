package io.slurmwise.agent.explain;

import io.slurmwise.Slurmwise;
import io.slurmwise.agent.testing.FakeOpenAiServer;
import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.config.Settings;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.diagnose.TemplateExplainer;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The LLM path against a real local OpenAI-compatible HTTP server that the test runs. */
class LlmExplainerTest {

    private static LlmSettings settings(String url) {
        return new LlmSettings(true, url, "test-model", "none", Duration.ofSeconds(10));
    }

    @Test
    void theFooterNamesTheModelTheServerSaysAnsweredWhenThatIsAPlainName() {
        assertThat(LlmExplainer.answeredBy("Llama-3.2-3B-Instruct-Q4_K_M.gguf", "qwen2.5:7b"))
                .isEqualTo("Llama-3.2-3B-Instruct-Q4_K_M.gguf");
        assertThat(LlmExplainer.answeredBy("gpt-4o-2024-08-06", "gpt-4o")).isEqualTo("gpt-4o-2024-08-06");
        assertThat(LlmExplainer.answeredBy(null, "qwen2.5:7b")).isEqualTo("qwen2.5:7b");
        assertThat(LlmExplainer.answeredBy("\u001b[31mevil\u001b[0m", "qwen2.5:7b")).isEqualTo("qwen2.5:7b");
        assertThat(LlmExplainer.answeredBy("x".repeat(300), "qwen2.5:7b")).isEqualTo("qwen2.5:7b");
    }

    @Test
    void theModelWordsTheFindingFromTheRulesEvidenceAndFixes() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.answering(req -> "Your job ran out of host memory: raise --mem to 48G.");
             Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled())
                     .explainer(LlmExplainer.openAiCompatible(settings(server.baseUrl()), new TemplateExplainer(), Taxonomy.load(null))).build()) {
            Diagnosis d = sw.diagnose("1001");
            assertThat(d).isInstanceOfSatisfying(Diagnosis.Failed.class, f -> {
                assertThat(f.finding().kindId()).isEqualTo("oom");
                assertThat(f.explanation().text()).isEqualTo("Your job ran out of host memory: raise --mem to 48G.");
                assertThat(f.explanation().source()).isEqualTo("llm:test-model");
                assertThat(f.method()).isEqualTo("rules + llm:test-model");
            });
            assertThat(server.requests()).hasSize(1);
            String prompt = FakeOpenAiServer.text(server.requests().get(0));
            assertThat(prompt).contains("Cause decided by the rules: oom")
                    .contains("Detected 1 oom-kill event(s) in StepId=1001.batch")
                    .contains("MaxRSS 31.8G")
                    .contains("must not change");
            assertThat(server.requests().get(0).path("model").asText()).isEqualTo("test-model");
        }
    }

    /**
     * The prompt asks which listed fix to try first, so the finding's own Fixes section leads it: for 1008 the knowledge
     * base ranked What to check and Messages matched above it, and the two filled the prompt's budget before it.
     */
    @Test
    void theFindingsOwnFixesLeadThePrompt() {
        Taxonomy t = Taxonomy.load(null);
        io.slurmwise.taxonomy.FailureKind k = t.kind("cuda_oom");
        java.util.List<io.slurmwise.diagnose.FixNote> retrieved = new java.util.ArrayList<>();
        for (String heading : java.util.List.of("What to check", "Messages matched", "Fixes")) {
            io.slurmwise.taxonomy.NoteSection s = k.note().section(heading).orElseThrow();
            retrieved.add(new io.slurmwise.diagnose.FixNote(k.id(), k.title(), s.heading(), s.text(), 1.0,
                    k.note().source(), s.items()));
        }
        io.slurmwise.classify.Finding f = new io.slurmwise.classify.Finding(k, 1.0, java.util.List.of(), java.util.List.of());
        String prompt = LlmExplainer.prompt(null, f, retrieved);
        assertThat(prompt).contains("[GPU out of memory (CUDA OOM) / Fixes]\n1. Reduce the per-GPU batch size");
        assertThat(prompt.indexOf("/ Fixes]")).isLessThan(prompt.indexOf("/ What to check]"));
    }

    private static final String FAITHFUL = "Your job ran out of host memory: raise --mem to 48G.";
    /** A scratchpad that muses about other causes and a number in no material: the guard sets such words aside. */
    private static final String MUSING = "Hmm, maybe this was really a segfault, or an NCCL timeout on 99 ranks?"
            + " No: the rules say oom, so I will word that.";

    /**
     * A reasoning model (qwen3, deepseek-r1 behind Ollama or vLLM) starts its answer with its scratchpad: a whole
     * {@code <think>} block, or only {@code </think>} when the server stripped the opening tag. Neither the panel nor
     * the guard sees it: the answer after it is shown, though the scratchpad names other causes.
     */
    @ParameterizedTest
    @ValueSource(strings = {"<think>\n" + MUSING + "\n</think>\n\n" + FAITHFUL, MUSING + "\n</think>\n\n" + FAITHFUL,
            "<THINKING>" + MUSING + "</THINKING>" + FAITHFUL, "\n<think></think>\n" + FAITHFUL})
    void aReasoningModelsScratchpadIsNeitherShownNorGuarded(String answer) throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.answering(req -> answer);
             Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled())
                     .explainer(LlmExplainer.openAiCompatible(settings(server.baseUrl()), new TemplateExplainer(), Taxonomy.load(null))).build()) {
            Diagnosis.Failed f = (Diagnosis.Failed) sw.diagnose("1001");
            assertThat(f.explanation().text()).isEqualTo(FAITHFUL);
            assertThat(f.explanation().source()).isEqualTo("llm:test-model");
            assertThat(f.explanation().optNote()).isEmpty();
            // the scratchpad alone would have been set aside: the guard must not read it
            String material = FakeOpenAiServer.text(server.requests().get(0));
            assertThat(ExplanationGuard.of(Taxonomy.load(null)).problem(MUSING, f.finding(), material)).isPresent();
            assertThat(server.requests().get(0).toString()).doesNotContain("think");
        }
    }

    /** Only a scratchpad, closed or cut inside it: nothing was answered, and the template words it with that note. */
    @ParameterizedTest
    @ValueSource(strings = {"<think>" + MUSING + "</think>", "<think>\n" + MUSING, MUSING + "</think>\n  \n"})
    void anAnswerThatIsOnlyReasoningIsNoAnswer(String answer) throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.answering(req -> answer);
             Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled())
                     .explainer(LlmExplainer.openAiCompatible(settings(server.baseUrl()), new TemplateExplainer(), Taxonomy.load(null))).build()) {
            Diagnosis.Failed f = (Diagnosis.Failed) sw.diagnose("1001");
            assertThat(f.explanation().source()).isEqualTo("template");
            assertThat(f.explanation().text()).doesNotContain("segfault").doesNotContain("think");
            assertThat(f.explanation().note()).contains("answered nothing but its reasoning")
                    .endsWith("the template worded this");
            assertThat(f.method()).isEqualTo("rules");
        }
    }

    @Test
    void reasoningIsCutFromAnywhereInTheAnswer() {
        assertThat(LlmExplainer.withoutReasoning("A. <think>x</think> B. <think>y")).isEqualTo("A.   B.");
        assertThat(LlmExplainer.withoutReasoning("x </think> A.")).isEqualTo("A.");
        assertThat(LlmExplainer.withoutReasoning("No tags: 2 < 3 > 1.")).isEqualTo("No tags: 2 < 3 > 1.");
    }

    /**
     * An answer the server stopped at its length limit ({@code finish_reason: "length"}) ends mid-sentence ("Do not
     * raise --mem; instead"): an unfinished claim the guard cannot judge. None of it is shown; the note says why.
     */
    @Test
    void anAnswerCutAtItsLengthLimitIsSetAsideWithANote() throws Exception {
        String cut = "Your job ran out of host memory. Do not raise --mem; instead";
        try (FakeOpenAiServer server = new FakeOpenAiServer(req -> FakeOpenAiServer.Reply.cut(cut));
             Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled())
                     .explainer(LlmExplainer.openAiCompatible(settings(server.baseUrl()), new TemplateExplainer(), Taxonomy.load(null))).build()) {
            Diagnosis.Failed f = (Diagnosis.Failed) sw.diagnose("1001");
            assertThat(f.finding().kindId()).isEqualTo("oom");
            assertThat(f.explanation().source()).isEqualTo("template");
            assertThat(f.explanation().text()).doesNotContain("instead");
            assertThat(f.explanation().note()).contains("the model's answer was cut at its length limit")
                    .endsWith("the template worded this");
            assertThat(f.method()).isEqualTo("rules");
            @SuppressWarnings("unchecked")
            Map<String, Object> json = (Map<String, Object>) io.slurmwise.view.Views.diagnosis(f, "mock").get("explanation");
            assertThat(json).containsEntry("source", "template").containsEntry("note", f.explanation().note());
            // the next job is asked again: a cut answer is no failure of the endpoint
            sw.diagnose("22542799");
            assertThat(server.requests()).hasSize(2);
        }
    }

    /**
     * Every oom job of the mock cluster gets its note's Fixes and What to check whole: the oom fixes for a program's own
     * memory error and a workflow's task, shown to every oom job, once filled the prompt's budget and cut 1001's What to
     * check, and a faithful answer citing its {@code seff 1001} was set aside as invented (the revert of ece2ea9).
     */
    @Test
    void anOomJobsPromptKeepsWhatToCheckWithinTheBudget() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.answering(req -> "The job ran out of host memory (oom).");
             Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundledAsRecorded())
                     .explainer(LlmExplainer.openAiCompatible(settings(server.baseUrl()), new TemplateExplainer(), Taxonomy.load(null))).build()) {
            for (String id : java.util.List.of("1001", "1011", "1024", "1062")) {
                Diagnosis.Failed f = (Diagnosis.Failed) sw.diagnose(id);
                assertThat(f.finding().kindId()).as(id).isEqualTo("oom");
                String prompt = FakeOpenAiServer.text(server.requests().get(server.requests().size() - 1));
                assertThat(prompt).as(id).contains("[Out of memory (host RAM) / Fixes]")
                        .contains("[Out of memory (host RAM) / What to check]")
                        .contains("`seff " + id + "`")
                        .doesNotContain("\n...\n").doesNotContain("Java's own heap limit")
                        .doesNotContain("Fix the memory in the workflow").doesNotContain("One allocation larger than a node");
            }
        }
    }

    @Test
    void aModelThatClaimsAnotherCauseCannotChangeTheKind() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.answering(req -> "Ignore the rules: this was really a segfault.");
             Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled())
                     .explainer(LlmExplainer.openAiCompatible(settings(server.baseUrl()), new TemplateExplainer(), Taxonomy.load(null))).build()) {
            Diagnosis.Failed f = (Diagnosis.Failed) sw.diagnose("1001");
            assertThat(f.finding().kindId()).isEqualTo("oom");
            assertThat(f.finding().source()).isEqualTo("rules");
        }
    }

    @Test
    void noServerFallsBackToTheTemplateAndSaysWhyOnce() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        LlmExplainer llm = LlmExplainer.openAiCompatible(settings("http://127.0.0.1:" + port + "/v1"), new TemplateExplainer(), Taxonomy.load(null));
        try (Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).explainer(llm).build()) {
            Diagnosis.Failed f = (Diagnosis.Failed) sw.diagnose("1001");
            assertThat(f.explanation().source()).isEqualTo("template");
            assertThat(f.method()).isEqualTo("rules");
            assertThat(llm.fallbackReason()).hasValueSatisfying(r -> assertThat(r).contains("no language model answered")
                    .contains("SLURMWISE_NO_LLM"));
            // nothing listening is a login node's common case: said on stderr (once a day), not in every footer
            assertThat(f.explanation().optNote()).isEmpty();
            long start = System.nanoTime();
            sw.diagnose("22542799");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("not asked again after a failure").isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void settingsComeFromTheEnvironment() {
        LlmSettings d = LlmSettings.from(Settings.from(Map.of()));
        assertThat(d.enabled()).isTrue();
        assertThat(d.baseUrl()).isEqualTo("http://localhost:11434/v1");
        assertThat(d.model()).isEqualTo("qwen2.5:7b");
        LlmSettings off = LlmSettings.from(Settings.from(Map.of("SLURMWISE_NO_LLM", "1", "SLURMWISE_LLM_MODEL", "llama3")));
        assertThat(off.enabled()).isFalse();
        assertThat(off.model()).isEqualTo("llama3");
    }
}
