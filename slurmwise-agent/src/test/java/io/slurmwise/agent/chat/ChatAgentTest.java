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
                    .contains("Evidence: stderr:40: slurmstepd: error: Detected 1 oom-kill event(s) in StepId=1001.batch")
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

    /** The agent over the mock cluster and a model that answers as {@code script} says. */
    private static String ask(FakeOpenAiServer.Script script, String question) throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer(script);
             Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).build()) {
            ChatAgent agent = new ChatAgent(OpenAiChatModel.builder().baseUrl(server.baseUrl()).apiKey("none")
                    .modelName("test").timeout(Duration.ofSeconds(20)).maxRetries(0).build(),
                    new SlurmwiseTools(sw, "backend mock"), c -> { });
            return agent.ask(question);
        }
    }

    /**
     * An answer is checked against each job the question asks about or the answer names, diagnosed by the agent when
     * the model did not (an outside audit: answers given with no tool, or after get_job only, named a wrong cause).
     */
    @Test
    void anAnswerGivenWithoutTheDiagnosisIsCheckedAgainstIt() throws Exception {
        String noTool = ask(r -> FakeOpenAiServer.Reply.text("Job 1001 hit its time limit; resubmit it with more time."),
                "Why did job 1001 fail?");
        assertThat(noTool).startsWith("Job 1001: Out of memory (host RAM) (oom), as slurmwise's rules decided")
                .contains("The model's answer was set aside: it names another cause, time_limit")
                .doesNotContain("resubmit it with more time");
        String afterGetJob = ask(r -> {
            JsonNode m = r.path("messages");
            return "tool".equals(m.get(m.size() - 1).path("role").asText())
                    ? FakeOpenAiServer.Reply.text("It failed because of a node failure; resubmit it unchanged.")
                    : FakeOpenAiServer.Reply.toolCall("get_job", "{\"job_id\":\"1001\"}");
        }, "Why did job 1001 fail?");
        assertThat(afterGetJob).startsWith("Job 1001: Out of memory (host RAM) (oom)");
        // a question about no job, answered in general words, is left as it is
        String general = "Use squeue to see your jobs.";
        assertThat(ask(r -> FakeOpenAiServer.Reply.text(general), "How do I see my jobs?")).isEqualTo(general);
    }

    /** What no answer may say, whatever the job: an unsafe command, or an action slurmwise never takes. */
    @Test
    void unsafeAdviceAndClaimedActionsAreNeverShown() throws Exception {
        String rm = ask(r -> answerAfterTool(r, "It ran out of host memory. Free space with rm -rf ~ and resubmit with"
                + " more memory."), "Why did job 1001 fail?");
        assertThat(rm).doesNotContain("rm -rf").startsWith("Job 1001: Out of memory (host RAM) (oom)")
                .contains("it tells the user to do something unsafe (as root, a downloaded script, deleting a home");
        String acted = ask(r -> answerAfterTool(r, "It ran out of host memory; I have already resubmitted it for you"
                + " with more memory."), "Why did job 1001 fail?");
        assertThat(acted).doesNotContain("resubmitted it for you")
                .contains("it claims an action (\"I have already resubmitted\"): slurmwise never acts on the cluster");
        // a reasoning model's scratchpad is neither shown nor read by the guard; the answer after it is
        String thought = ask(r -> answerAfterTool(r, "<think>Maybe it was a time limit? No: the rules say oom.</think>"
                + "Job 1001 ran out of host memory; ask for more memory."), "Why did job 1001 fail?");
        assertThat(thought).isEqualTo("Job 1001 ran out of host memory; ask for more memory.");
        String sudo = ask(r -> FakeOpenAiServer.Reply.text("Run sudo sysctl vm.overcommit_memory=1 on the login node."),
                "How do I stop out-of-memory kills?");
        assertThat(sudo).startsWith("(The model's answer was set aside: it tells the user to do something unsafe")
                .doesNotContain("sudo")
                .contains("Ask again");
    }

    /**
     * A pending job's answer is checked against whether the job can start as it stands (an outside audit: "it will
     * start soon, just wait" passed for 1054, whose account's hours are used up, as no failed finding was there to
     * check against).
     */
    @Test
    void aPendingJobsAnswerMustNotContradictWhetherItCanStart() throws Exception {
        String wait = ask(r -> answerAfterTool(r, "1054", "Job 1054 is queued behind other work. It will start on its own"
                + " soon; no changes are needed."), "Why is job 1054 pending?");
        assertThat(wait).doesNotContain("start on its own")
                .startsWith("Job 1054: pending (AssocGrpGRESMinutes); it can never start as submitted (Project"
                        + " allocation used up or account not valid, allocation_exhausted), as slurmwise's rules read")
                .contains("Meaning: your account's allocation")
                .contains("First fix: Ask the project's PI or the allocation office for more hours")
                .contains("The model's answer was set aside: it says the job will start as it is (\"will start\"),"
                        + " but its pending reason means it can never start as submitted");
        // the same words made to wait on a change are no claim that it starts as it is
        String faithful = "Job 1054 cannot start as it is: account astro-ml has used its GPU minutes. It will start"
                + " once your PI adds hours, or if you charge it to another account.";
        assertThat(ask(r -> answerAfterTool(r, "1054", faithful), "Why is job 1054 pending?")).isEqualTo(faithful);
        // the other way: a job waiting on its dependency starts once that ends
        String never = ask(r -> answerAfterTool(r, "1053", "Job 1053 will never start; cancel it and submit again."),
                "Why is job 1053 pending?");
        assertThat(never).startsWith("Job 1053: pending (Dependency); it will start once the jobs ahead of it")
                .contains("it says the job can never start (\"will never start\")");
        String dependency = "Job 1053 waits for the job it depends on; it will start once that one ends.";
        assertThat(ask(r -> answerAfterTool(r, "1053", dependency), "Why is job 1053 pending?")).isEqualTo(dependency);
    }

    /** A diagnose_job of several jobs: each job's sentences are checked against that job's finding. */
    @Test
    void anAnswerAboutSeveralJobsIsCheckedJobByJob() throws Exception {
        java.util.function.Function<String, FakeOpenAiServer.Script> both = text -> r -> {
            JsonNode m = r.path("messages");
            return "tool".equals(m.get(m.size() - 1).path("role").asText()) ? FakeOpenAiServer.Reply.text(text)
                    : FakeOpenAiServer.Reply.toolCall("diagnose_job", "{\"job_ids\":\"1001,1008\"}");
        };
        String right = "Job 1001 ran out of host memory (oom). Job 1008 ran out of GPU memory (cuda_oom): lower the"
                + " batch size.";
        assertThat(ask(both.apply(right), "Why did jobs 1001 and 1008 fail?")).isEqualTo(right);
        String wrong = "Job 1001 ran out of host memory. Job 1008 hit its time limit.";
        String shown = ask(both.apply(wrong), "Why did jobs 1001 and 1008 fail?");
        assertThat(shown).contains("Job 1001: Out of memory (host RAM) (oom)").contains("Job 1008: GPU out of memory")
                .contains("set aside: about job 1008, it names another cause, time_limit")
                .contains("slurmwise diagnose 1001 1008");
    }

    /**
     * A chat answer's facts are checked in their roles against the job's record as diagnose_job gives it, as an
     * explanation's are: "ran the full 08:00:00" of a job that ran 00:41:12 of an 08:00:00 limit passed before, its
     * numbers all being in the tool's result. With or without the model's own diagnosis, of one job or of several.
     */
    @Test
    void aJobsFactsInAnotherRoleAreSetAside() throws Exception {
        String swapped = "1001 ran the full 08:00:00 and then ran out of memory at 32G. Ask for --mem=48G.";
        assertThat(ask(after("diagnose_job", "{\"job_id\":\"1001\"}", swapped), "why did 1001 fail?"))
                .startsWith("Job 1001: Out of memory (host RAM) (oom)")
                .contains("set aside: it says the job ran 08:00:00, but it ran 00:41:12 (08:00:00 is its time limit)");
        assertThat(ask(r -> FakeOpenAiServer.Reply.text("1001 ran out of memory: it peaked at 48G against its 32G"
                + " limit."), "why did 1001 fail?"))
                .contains("set aside: it gives the job's memory peak as 48G, but its peak was 31.8G");
        // the patch's partition as where the job hit its limit, in prose
        assertThat(ask(r -> FakeOpenAiServer.Reply.text("1016 timed out on the long partition after 2-00:00:31."),
                "what happened to 1016?"))
                .contains("set aside: it places the job on partition long, but it ran on cpu");
        String faithful = "1001 ran out of memory after 00:41:12 of its 08:00:00 limit: its peak of 31.8G reached the 32G"
                + " it asked for. Resubmit with --mem=48G.";
        assertThat(ask(after("diagnose_job", "{\"job_id\":\"1001\"}", faithful), "why did 1001 fail?"))
                .isEqualTo(faithful);
        String proposal = "1016 hit its 2-00:00:00 time limit on partition cpu. Move it to the long partition with"
                + " --time=5-16:00:00.";
        assertThat(ask(r -> FakeOpenAiServer.Reply.text(proposal), "why did 1016 fail?")).isEqualTo(proposal);
    }

    /**
     * Each job's facts are checked against the sentences about that job only: 22542799's 12:00:03 is right of it and
     * wrong of 1001, whether diagnose_job gave each whole or both in brief (its main numbers, no node list).
     */
    @Test
    void eachJobsFactsAreCheckedAgainstTheWordsAboutIt() throws Exception {
        String right = "1001 ran out of memory after only 00:41:12, while 22542799 ran the full 12:00:03 and hit its"
                + " 12:00:00 limit.";
        String wrong = "1001 ran out of memory after 12:00:03, while 22542799 hit its 12:00:00 limit.";
        String question = "why did 1001 and 22542799 fail?";
        for (FakeOpenAiServer.Script[] scripts : List.of(
                new FakeOpenAiServer.Script[] {r -> FakeOpenAiServer.Reply.text(right),
                        r -> FakeOpenAiServer.Reply.text(wrong)},
                new FakeOpenAiServer.Script[] {after("diagnose_job", "{\"job_ids\":\"1001,22542799\"}", right),
                        after("diagnose_job", "{\"job_ids\":\"1001,22542799\"}", wrong)})) {
            assertThat(ask(scripts[0], question)).isEqualTo(right);
            assertThat(ask(scripts[1], question))
                    .contains("set aside: about job 1001, it says the job ran 12:00:03, but it ran 00:41:12");
        }
        String partitions = "1016 timed out on partition cpu, and 1033 ran on partition cpu too before it was preempted.";
        assertThat(ask(after("diagnose_job", "{\"job_ids\":\"1016,1033\"}", partitions),
                "why did jobs 1016 and 1033 end early?"))
                .contains("set aside: about job 1033, it says the job ran on partition cpu, but it ran on gpuH100x8");
        // another job's node, which the conversation holds, as where this one failed
        assertThat(ask(r -> FakeOpenAiServer.Reply.text("1036 hit an uncorrectable ECC error on gpua033, and 1022 lost"
                + " its NCCL communicator on gpua033 too."), "why did 1036 and 1022 fail?"))
                .contains("set aside: about job 1022, it places the job on node gpua033, but it ran on gpua030,gpua031");
        String ownNodes = "1036 hit an uncorrectable ECC error on gpua033, while 1022 lost its NCCL communicator on"
                + " gpua[030-031].";
        assertThat(ask(r -> FakeOpenAiServer.Reply.text(ownNodes), "why did 1036 and 1022 fail?")).isEqualTo(ownNodes);
    }

    /** Calls {@code tool} with {@code args} first; once a tool result is in the conversation, gives {@code answer}. */
    static FakeOpenAiServer.Script after(String tool, String args, String answer) {
        return r -> {
            JsonNode m = r.path("messages");
            return "tool".equals(m.get(m.size() - 1).path("role").asText()) ? FakeOpenAiServer.Reply.text(answer)
                    : FakeOpenAiServer.Reply.toolCall(tool, args);
        };
    }

    /**
     * A job id written bare counts as naming the job when the question, or a tool result the model read, has it as
     * a job (an outside audit: "1001 hit its time limit" was shown for "what went wrong with 1001?", 1001 being oom).
     */
    @Test
    void aBareJobIdNamesTheJob() throws Exception {
        assertThat(ask(r -> FakeOpenAiServer.Reply.text("1001 hit its time limit; resubmit it with more time."),
                "what went wrong with 1001?"))
                .startsWith("Job 1001: Out of memory (host RAM) (oom), as slurmwise's rules decided")
                .contains("The model's answer was set aside: it names another cause, time_limit")
                .doesNotContain("resubmit it with more time");
        assertThat(ask(after("get_job", "{\"job_id\":\"1001\"}", "It hit its time limit."), "why did 1001 fail?"))
                .startsWith("Job 1001: Out of memory (host RAM) (oom)")
                .contains("it names another cause, time_limit");
        // an id the model read in list_jobs' result, written bare in its answer
        String last = ask(after("list_jobs", "{}", "Your newest failure, 1047, hit its time limit."),
                "why did my last job fail?");
        assertThat(last).startsWith("Job 1047: ").doesNotContain("Your newest failure")
                .contains("it names another cause, time_limit");
        // faithful answers with bare ids are left as they are
        String right = "1001 ran out of host memory (oom): the kernel killed it at its memory limit.";
        assertThat(ask(r -> FakeOpenAiServer.Reply.text(right), "what went wrong with 1001?")).isEqualTo(right);
        // a quantity, a time, a year or an option's value is no job
        String general = "It hit its time limit; ask for more than 48 hours.";
        assertThat(ask(r -> FakeOpenAiServer.Reply.text(general), "My run used 500 GB after 48 hours: why?"))
                .isEqualTo(general);
    }

    /**
     * A sentence that names several jobs is checked against each one's cause (an outside audit: "Jobs 1001 and 1008
     * both hit their time limits" was checked against neither); one that sets jobs against each other is read clause
     * by clause.
     */
    @Test
    void aSentenceNamingSeveralJobsIsCheckedAgainstEach() throws Exception {
        String both = "Jobs 1001 and 1008 both hit their time limits; raise --time.";
        assertThat(ask(r -> FakeOpenAiServer.Reply.text(both), "why did jobs 1001 and 1008 fail?"))
                .contains("Job 1001: Out of memory (host RAM) (oom)").contains("Job 1008: GPU out of memory")
                .contains("set aside: about job 1001, it names another cause, time_limit").doesNotContain("raise --time");
        assertThat(ask(after("diagnose_job", "{\"job_ids\":\"1001,1008\"}", "1001 and 1008 hit their time limits."),
                "why did 1001 and 1008 fail?")).contains("set aside: about job 1001, it names another cause, time_limit");
        String contrast = "1001 ran out of memory and 1008 out of GPU memory.";
        assertThat(ask(r -> FakeOpenAiServer.Reply.text(contrast), "why did jobs 1001 and 1008 fail?")).isEqualTo(contrast);
        String unlike = "Unlike 1008, 1001 ran out of host memory, not GPU memory.";
        assertThat(ask(r -> FakeOpenAiServer.Reply.text(unlike), "why did jobs 1001 and 1008 fail?")).isEqualTo(unlike);
        String swapped = "1001 ran out of GPU memory and 1008 out of host memory.";
        assertThat(ask(r -> FakeOpenAiServer.Reply.text(swapped), "why did jobs 1001 and 1008 fail?"))
                .contains("The model's answer was set aside: about job 1001, it names another cause, cuda_oom");
    }

    /**
     * An answer that names no job but gives one cause for all the newest failures list_jobs showed is checked against
     * each of them (an outside audit: "your five newest failures all ran out of time" was shown).
     */
    @Test
    void aCauseSaidOfAllTheListedFailuresIsCheckedAgainstEach() throws Exception {
        String shown = ask(after("list_jobs", "{\"states\":\"FAILED,OUT_OF_MEMORY,TIMEOUT,NODE_FAIL\"}",
                "Your five newest failures all ran out of time; raise --time."), "why do my jobs keep failing?");
        assertThat(shown).startsWith("Job ").doesNotContain("raise --time.\n")
                .contains("The model's answer was set aside: about job ").contains("one of the failures it speaks of")
                .contains("time_limit");
        // no cause said of them all: left as it is
        String general = "Your newest failures have different causes; ask about one of them to see its fix.";
        assertThat(ask(after("list_jobs", "{}", general), "why do my jobs keep failing?")).isEqualTo(general);
    }

    /** The question names one job and the answer none: the answer is about that job, whatever else was diagnosed. */
    @Test
    void anAnswerNamingNoJobIsAboutTheOneTheQuestionNames() throws Exception {
        String shown = ask(after("diagnose_job", "{\"job_ids\":\"1001,1008\"}", "It hit its time limit."),
                "why did 1001 fail?");
        assertThat(shown).startsWith("Job 1001: Out of memory (host RAM) (oom)")
                .contains("set aside: about job 1001, it names another cause, time_limit");
        String right = "It ran out of host memory; ask for more with --mem.";
        assertThat(ask(after("diagnose_job", "{\"job_ids\":\"1001,1008\"}", right), "why did job 1001 fail?"))
                .isEqualTo(right);
    }

    /**
     * A model that calls tools round after round never answers: the agent stops after {@link ChatAgent#MAX_STEPS} and
     * says which jobs the question named, for the caller to give the rules' answer (an outside audit: it said "I
     * stopped after 8 tool calls" and the chat exited 0, with nothing from the rules even for "job 1001").
     */
    @Test
    void aModelThatOnlyCallsToolsStopsWithTheQuestionsJobs() throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer(
                r -> FakeOpenAiServer.Reply.toolCall("get_job", "{\"job_id\":\"1001\"}"));
             Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).build()) {
            ChatAgent agent = new ChatAgent(OpenAiChatModel.builder().baseUrl(server.baseUrl()).apiKey("none")
                    .modelName("test").timeout(Duration.ofSeconds(20)).maxRetries(0).build(),
                    new SlurmwiseTools(sw, "backend mock"), c -> { });
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> agent.ask("what went wrong with 1001 after 48 hours?"))
                    .isInstanceOfSatisfying(ChatAgent.StepLimitReached.class,
                            e -> assertThat(e.jobs()).containsExactly("1001"))
                    .hasMessageContaining("called tools 8 rounds without answering");
            assertThat(server.requests()).hasSize(ChatAgent.MAX_STEPS);
        }
    }

    /**
     * A model that answers nothing (or only its reasoning) has not answered: the agent says so with the question's
     * jobs, bare ids too, for the caller to give the rules' answer, read as a question it answers is read.
     */
    @Test
    void anEmptyAnswerIsNoAnswerAndSaysTheQuestionsJobs() throws Exception {
        for (String empty : List.of("", "<think>Maybe a time limit? Let me see.</think>")) {
            try (FakeOpenAiServer server = new FakeOpenAiServer(r -> FakeOpenAiServer.Reply.text(empty));
                 Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).build()) {
                ChatAgent agent = new ChatAgent(OpenAiChatModel.builder().baseUrl(server.baseUrl()).apiKey("none")
                        .modelName("test").timeout(Duration.ofSeconds(20)).maxRetries(0).build(),
                        new SlurmwiseTools(sw, "backend mock"), c -> { });
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> agent.ask("what went wrong with 1001?"))
                        .isInstanceOfSatisfying(ChatAgent.NoAnswer.class,
                                e -> assertThat(e.jobs()).containsExactly("1001"))
                        .hasMessage("the model answered nothing" + (empty.isEmpty() ? "" : " but its reasoning"));
                // the same reading when the caller asks after any other failure of the model
                assertThat(agent.questionJobs("your newest failure, 1047: and 1001, since 2024, after 48 hours?"))
                        .containsExactly("1047", "1001");
                assertThat(agent.questionJobs("why did job 1008 fail after 500 GB?")).containsExactly("1008");
            }
        }
    }

    /**
     * The in-process tools cut each string as the MCP server does: a 5 MB explanation is not handed to the model
     * whole (an outside audit found the MCP path capped and the in-process one not).
     */
    @Test
    void inProcessToolAnswersAreCutAsTheServersAre() {
        String huge = "x".repeat(5_000_000);
        try (Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled())
                .explainer((job, finding, fixes) -> new io.slurmwise.diagnose.Explanation(huge, "llm:huge")).build()) {
            Object json = new LocalChatTools(new SlurmwiseTools(sw, "backend mock")).call("diagnose_job",
                    java.util.Map.of("job_id", "1001"));
            String text = ((java.util.Map<?, ?>) ((java.util.Map<?, ?>) json).get("explanation")).get("text").toString();
            assertThat(text.length()).isLessThan(17_000);
            assertThat(text).startsWith("xxxx");
        }
    }

    /** A megabyte answer is cut where it is received, and the guard reads the words kept (not the cut's count). */
    @Test
    void aHugeAnswerIsCutAndCheckedAsCut() throws Exception {
        String huge = "Job 1001 ran out of host memory (oom). " + "Ask for more memory. ".repeat(100_000);
        String shown = ask(r -> answerAfterTool(r, huge), "Why did job 1001 fail?");
        assertThat(shown.length()).isLessThanOrEqualTo(io.slurmwise.diagnose.Explanation.MAX_CHARS);
        assertThat(shown).startsWith("Job 1001 ran out of host memory (oom).").endsWith("more characters cut]");
    }

    /** Asks for diagnose_job of 1001 until a tool result is in this question's part of the conversation. */
    static FakeOpenAiServer.Reply answerAfterTool(JsonNode request, String answer) {
        return answerAfterTool(request, "1001", answer);
    }

    /** Asks for diagnose_job of {@code job} first; once its result is in the conversation, gives {@code answer}. */
    static FakeOpenAiServer.Reply answerAfterTool(JsonNode request, String job, String answer) {
        JsonNode messages = request.path("messages");
        JsonNode last = messages.get(messages.size() - 1);
        return "tool".equals(last.path("role").asText()) ? FakeOpenAiServer.Reply.text(answer)
                : FakeOpenAiServer.Reply.toolCall("diagnose_job", "{\"job_id\":\"" + job + "\"}");
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
