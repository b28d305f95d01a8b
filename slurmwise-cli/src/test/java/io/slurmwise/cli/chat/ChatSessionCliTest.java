package io.slurmwise.cli.chat;

import io.slurmwise.agent.testing.FakeOpenAiServer;
import io.slurmwise.agent.testing.FakeOpenAiServer.Fault;
import io.slurmwise.agent.testing.FakeOpenAiServer.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interactive {@code slurmwise chat}, as a user runs it (a real process reading its stdin), against a model
 * that fails: a failed question gets one line saying what happened and what to do, the rules' answer when it
 * diagnosed or names a job, and the session goes on (an outside audit: one HTTP 500 or timeout ended it, exit 4).
 */
class ChatSessionCliTest {

    @TempDir
    Path home;

    record Session(int code, String out, String err) {
    }

    private Session chat(FakeOpenAiServer server, String input) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), "io.slurmwise.cli.Main", "chat");
        Map<String, String> env = pb.environment();
        env.remove("SLURMWISE_NO_LLM");
        env.putAll(Map.of("SLURMWISE_BACKEND", "mock", "SLURMWISE_LLM_BASE_URL", server.baseUrl(),
                "SLURMWISE_LLM_MODEL", "fake-model", "SLURMWISE_LLM_TIMEOUT", "1", "SLURMWISE_RETRIEVER", "notes",
                "SLURMWISE_HOME", home.toString(), "COLUMNS", "100"));
        Path out = home.resolve("stdout");
        Path err = home.resolve("stderr");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try (OutputStream in = p.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        }
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chat did not end after its stdin closed: " + Files.readString(err));
        }
        return new Session(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    private static List<String> faultLines(Session s) {
        String err = s.err().lines().map(l -> l.replaceFirst("^(you> )+", "")).collect(Collectors.joining("\n"));
        return io.slurmwise.cli.StderrText.messages(err).stream().filter(l -> l.startsWith("slurmwise: ")).toList();
    }

    @Test
    void anHttp500OnEveryQuestionEndsNoSessionAndEachGetsTheRulesAnswer() throws Exception {
        try (FakeOpenAiServer server = FakeOpenAiServer.faulty(Fault.ERROR_500)) {
            Session s = chat(server, "why did job 1001 fail?\nand job 1008?\nwhat about my last jobs?\n"
                    + "your newest failure, 1047: what went wrong?\n");
            assertThat(s.code()).as(s.err()).isZero();
            // the chat's requests offer tools; the rules' answer's diagnose_job asks the explainer's own once
            assertThat(server.requests().stream().filter(r -> r.has("tools")))
                    .as("every question was put to the model").hasSize(4);
            assertThat(s.out()).contains("Job 1001: ").contains("(oom)").contains("Job 1008: ");
            // a bare id is read as the agent reads a question it answers (an audit: only "job N" was, here)
            assertThat(s.out()).contains("Job 1047: ").contains("(allocation_exhausted)");
            List<String> faults = faultLines(s);
            assertThat(faults).as(s.err()).hasSize(4).allSatisfy(l -> assertThat(l).contains(server.baseUrl())
                    .contains("HTTP 500").contains("(the chat goes on)").doesNotContain("SLURMWISE_NO_LLM"));
            assertThat(faults.get(0)).contains("above is the rules' answer alone");
            assertThat(faults.get(2)).contains("the question got no answer").contains("`slurmwise diagnose JOBID`");
            assertThat(faults.get(3)).contains("above is the rules' answer alone");
            assertThat(s.err()).doesNotContain("Exception").doesNotContain("\tat ");
        }
    }

    @Test
    void aTimeoutAfterTheToolsDiagnosedShowsTheRulesAnswerAndTheNextQuestionIsAnswered() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        try (FakeOpenAiServer server = new FakeOpenAiServer(req -> {
            if (!req.has("tools")) {
                // the explanation inside diagnose_job's result, not the chat
                return Reply.text("Job 1001 ran out of host memory (oom).");
            }
            switch (calls.incrementAndGet()) {
                case 1 -> {
                    return Reply.toolCall("diagnose_job", "{\"job_id\": \"1001\"}");
                }
                case 2 -> {
                    // longer than SLURMWISE_LLM_TIMEOUT=1: the client gives up on this answer
                    try {
                        Thread.sleep(5_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return Reply.text("too late");
                }
                default -> {
                    return Reply.text("Your jobs are fine otherwise.");
                }
            }
        })) {
            Session s = chat(server, "Why did my job fail? It was 1001.\nanything else?\n");
            assertThat(s.code()).as(s.err()).isZero();
            assertThat(s.out()).contains("Job 1001: ").contains("(oom), as slurmwise's rules decided")
                    .contains("Your jobs are fine otherwise.").doesNotContain("too late");
            assertThat(faultLines(s)).as(s.err()).singleElement().satisfies(l -> assertThat(l)
                    .contains("did not answer within 1 s").contains("raise SLURMWISE_LLM_TIMEOUT")
                    .contains("above is the rules' answer alone").contains("(the chat goes on)"));
        }
    }

    /** A model that answers nothing has not answered: the rules' answer for the question's job, and why. */
    @Test
    void anEmptyAnswerGetsTheRulesAnswer() throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer(req -> Reply.text(req.has("tools") ? "" : "oom."))) {
            Session s = chat(server, "what went wrong with 1001?\n");
            assertThat(s.code()).as(s.err()).isZero();
            assertThat(s.out()).contains("Job 1001: ").contains("(oom), as slurmwise's rules decided");
            assertThat(faultLines(s)).as(s.err()).singleElement().satisfies(l -> assertThat(l)
                    .contains("the language model at " + server.baseUrl() + " answered nothing")
                    .contains("SLURMWISE_LLM_MODEL").contains("above is the rules' answer alone"));
        }
    }
}
