package io.slurmwise.cli;

import io.slurmwise.cli.context.ExitCodes;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.backend.real.LabCluster;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code slurmwise diagnose <id> --json}, {@code jobs} and {@code classify} through {@link Main#run} with
 * SLURMWISE_BACKEND=real against the lab's real SLURM cluster, for every scenario of its manifest. Writes what
 * slurmwise diagnosed per real job to target/real-scenario-diagnoses.tsv. Fails, never skips, without the cluster.
 */
@Tag("slurm")
class RealCliScenariosTest {

    record Result(int code, String out, String err, long millis) {
        JsonNode json() throws IOException {
            return new ObjectMapper().readTree(out);
        }
    }

    static LabCluster lab;
    static final Taxonomy TAXONOMY = Taxonomy.load(null);
    static final List<String> TABLE = new ArrayList<>();

    @BeforeAll
    static void cluster() {
        lab = LabCluster.require();
    }

    static Map<String, String> env(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", System.getenv("PATH"));
        env.put("SLURMWISE_HOME", Path.of("target", "slurmwise-home").toAbsolutePath().toString());
        env.put("SLURMWISE_BACKEND", "real");
        env.put("COLUMNS", "100"); // the width the expected lines were written at
        env.putAll(extra);
        env.values().removeIf(v -> v == null);
        return env;
    }

    static Result run(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        long t0 = System.nanoTime();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err), env, false);
        return new Result(code, out.toString(), err.toString(), (System.nanoTime() - t0) / 1_000_000);
    }

    /** The panel's text with its wrapped lines joined: "│" and the indent of a continued line become one space. */
    static String flat(String panel) {
        return panel.replaceAll("\\s*\n│\\s+", " ");
    }

    static Result run(String... args) {
        return run(env(Map.of()), args);
    }

    @Test
    void doctorFindsTheRealClusterHealthy() throws IOException {
        Result r = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "doctor", "--json");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertThat(j.get("ok").asBoolean()).isTrue();
        Map<String, String> status = new java.util.HashMap<>();
        Map<String, String> detail = new java.util.HashMap<>();
        j.get("checks").forEach(c -> {
            status.put(c.get("name").asText(), c.get("status").asText());
            detail.put(c.get("name").asText(), c.get("detail").asText());
        });
        assertThat(status).containsEntry("backend", "ok").containsEntry("accounting", "ok")
                .containsEntry("controller", "ok").containsEntry("qos limits", "ok").containsEntry("language model", "skip");
        assertThat(detail.get("backend")).contains("real");
        assertThat(detail.get("controller")).contains("gpuA100x4");
        assertThat(detail.get("qos limits")).contains("short (MaxWall 00:10:00)");
    }

    @TestFactory
    Stream<DynamicTest> diagnoseJsonForEveryScenario() {
        return lab.scenarios().stream().map(s -> DynamicTest.dynamicTest(s.name() + " (job " + s.jobId() + ")", () -> {
            Result r = run("diagnose", s.jobId(), "--json");
            assertThat(r.code()).as(r.err()).isZero();
            JsonNode j = r.json();
            assertThat(j.get("schema").asText()).isEqualTo("slurmwise.diagnosis/v1");
            assertThat(j.get("backend").asText()).isEqualTo("backend real (requested)");
            assertThat(s.names(j.at("/job/id").asText())).as(j.at("/job/id").asText() + " for " + s.jobId()).isTrue();
            assertThat(j.at("/job/state").asText()).isEqualTo(s.expectedState());
            assertThat(j.at("/job/exit_code").asText()).isIn(s.acceptableExitCodes());
            assertThat(j.at("/job/node_list").asText()).isEqualTo(s.observedNodeList());
            String kind;
            String evidence = "";
            String confidence = "";
            if (s.pending()) {
                assertThat(j.get("status").asText()).isEqualTo("status_only");
                assertThat(j.at("/pending/reason").asText()).isEqualTo(s.observedReason());
                assertThat(j.at("/job/pending_reason").asText()).isEqualTo(s.observedReason());
                kind = j.at("/pending/finding/kind").asText("none");
                confidence = j.at("/pending/finding/confidence").asText("");
                evidence = "pending: " + s.observedReason() + ", can start: " + j.at("/pending/can_start").asText();
            } else if (s.expectedKind().equals("none")) {
                assertThat(j.get("status").asText()).isEqualTo("status_only");
                assertThat(j.get("summary").asText()).contains("COMPLETED");
                kind = "none";
                evidence = j.get("summary").asText();
            } else {
                assertThat(j.get("status").asText()).isEqualTo("failed");
                kind = j.at("/finding/kind").asText();
                confidence = j.at("/finding/confidence").asText();
                JsonNode first = j.at("/finding/evidence/0");
                evidence = first.get("source").asText() + (first.get("line").isNull() ? "" : ":" + first.get("line").asText())
                        + " " + first.get("text").asText();
                if (!s.observedNodeList().startsWith("None")) {
                    // no notice but the one naming the failed step of a COMPLETED job (step_oom)
                    assertThat(j.get("notices")).as("notices").allMatch(n -> !j.at("/job/failed_step").isNull()
                            && n.asText().endsWith("diagnosed from that step"));
                    for (JsonNode log : j.get("logs")) {
                        assertThat(log.get("problem").isNull()).as(log.toString()).isTrue();
                        assertThat(Path.of(log.get("path").asText())).isRegularFile().startsWith(s.workDir());
                    }
                }
            }
            if (s.expectedKind().equals("none")) {
                assertThat(kind).isEqualTo("none");
            } else {
                assertThat(TAXONOMY.isA(kind, s.expectedKind())).as("kind " + kind + ", want " + s.expectedKind()).isTrue();
            }
            synchronized (TABLE) {
                TABLE.add(String.join("\t", s.name(), s.jobId(), j.at("/job/state").asText()
                                + (j.at("/job/state_detail").isNull() ? "" : " " + j.at("/job/state_detail").asText()),
                        j.at("/job/exit_code").asText(), j.at("/job/exit_code_scontrol").asText("-"),
                        s.expectedKind(), kind, confidence, evidence.replace('\t', ' ').replace('\n', ' '),
                        Long.toString(r.millis())));
            }
        }));
    }

    @AfterAll
    static void writeTable() throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("scenario\tjob\tstate\texit\texit_scontrol\texpected_kind\tdiagnosed_kind\tconfidence\tdeciding_evidence\tmillis");
        lines.addAll(TABLE);
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target", "real-scenario-diagnoses.tsv"), lines);
    }

    @Test
    void theTextPanelNamesTheRealBackendAndTheEvidence() {
        LabCluster.Scenario s = lab.scenario("import_error");
        Result r = run("diagnose", s.jobId());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("job " + s.jobId() + " import_error [FAILED] exit 1:0")
                .contains("(import_error)").contains("ModuleNotFoundError: No module named 'torch'")
                .contains("backend real (requested)");
        Result auto = run(env(Map.of("SLURMWISE_BACKEND", "auto")), "diagnose", s.jobId());
        assertThat(auto.out()).contains("backend real (auto)");
    }

    /**
     * The qos_limit scenario asks 30 minutes under QOS short (MaxWall 00:10:00, setup.sh); the user's association
     * also lists normal (no MaxWall): sacctmgr's answers make the patch move it to normal, which allows the whole run
     * (an outside audit: it was cut to the 10 minutes), on a real slurmdbd.
     */
    @Test
    void aPendingJobOverItsQosMaxWallMovesToAQosOfTheUsersThatAllowsIt() throws IOException {
        LabCluster.Scenario s = lab.scenario("qos_limit");
        Result r = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode patch = r.json().at("/pending/patch");
        assertThat(patch.at("/changes/0/what").asText()).isEqualTo("--qos=normal (was short)");
        assertThat(patch.at("/changes/0/why").asText()).contains("its QOS short allows at most 00:10:00 (MaxWall)")
                .contains("QOS normal has no MaxWall and is one your account may use");
        assertThat(patch.get("diff").asText()).contains("+#SBATCH --qos=normal").doesNotContain("--time=00:10:00");
        // scenarios.sh submitted it with --qos=short on sbatch's command line, which overrides #SBATCH lines
        assertThat(patch.get("advice").toString()).contains("'s --qos short is not in its script: it came from the"
                + " sbatch command line").doesNotContain("labcpu")
                // the lab's scontrol show partition says AllowQos=ALL: nothing is left to check
                .doesNotContain("must admit QOS");
        // the note's example QOSes are not this cluster's: said so, with its own
        assertThat(r.json().at("/pending/fixes/0/text").asText()).contains("`#SBATCH --qos=long` (not a QOS of this cluster)")
                .contains("This cluster's QOSes: normal (no MaxWall), short (MaxWall 00:10:00)")
                // and the user's own, from sacctmgr's associations (setup.sh grants short besides normal)
                .contains("Yours with account research: normal, short.");
    }

    /**
     * The dependency scenario was submitted with {@code --dependency=afterok:<import_error>} on sbatch's command line,
     * which no script holds: slurmctld's {@code Dependency=} names the parent, and its state (an outside audit on this
     * lab read no parent for it).
     */
    @Test
    void aDependencyGivenOnTheCommandLineNamesItsParent() throws IOException {
        LabCluster.Scenario s = lab.scenario("dependency");
        String parent = lab.scenario("import_error").jobId();
        Result r = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.json().at("/pending/reason").asText()).isEqualTo("DependencyNeverSatisfied");
        assertThat(r.json().at("/pending/meaning").asText())
                .contains("it depends on job " + parent + " (afterok), which is FAILED");
    }

    /**
     * The partition_config scenario asks {@code -c 16} on sbatch's command line, more than the lab's node has (its
     * CPUs are the machine's): the record's request is set against what a node of the partition has.
     */
    @Test
    void aRequestNoNodeHoldsIsNamedWithWhatANodeHas() throws IOException {
        LabCluster.Scenario s = lab.scenario("partition_config");
        Result r = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.json().at("/pending/reason").asText()).isEqualTo("PartitionConfig");
        assertThat(r.json().at("/pending/meaning").asText()).containsPattern("has \\(CPUs, memory, GPUs, features\\): 16 CPUs per node \\(a \\w+ node has \\d+\\); resubmit");
    }

    /**
     * step_oom: the batch script exited 0 after its srun step was killed for memory. The panel shows the job as SLURM
     * recorded it, COMPLETED, yet diagnoses oom and says which step; the JSON carries failed_step.
     */
    @Test
    void aCompletedJobWhoseStepRanOutOfMemoryIsShownAsItsOom() throws IOException {
        LabCluster.Scenario s = lab.scenario("step_oom");
        Result text = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId());
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out()).contains("job " + s.jobId() + " step_oom [COMPLETED] exit 0:0")
                .contains("(oom)").contains("oom-kill event(s) in StepId=" + s.jobId() + ".0")
                .doesNotContain("nothing to diagnose");
        assertThat(flat(text.out())).contains("but step " + s.jobId() + ".0 ended");
        Result r = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId(), "--json");
        JsonNode j = r.json();
        assertThat(j.get("status").asText()).isEqualTo("failed");
        assertThat(j.at("/finding/kind").asText()).isEqualTo("oom");
        assertThat(j.at("/job/state").asText()).isEqualTo("COMPLETED");
        assertThat(j.at("/job/failed_step/id").asText()).isEqualTo(s.jobId() + ".0");
        if (lab.fact("MODE").equals("cgroup")) {
            assertThat(j.at("/job/failed_step/state").asText()).isEqualTo("OUT_OF_MEMORY");
            assertThat(j.at("/job/failed_step/exit_code").asText()).isEqualTo("0:125");
        }
        assertThat(j.get("notices").toString()).contains("its batch script exited 0")
                .contains("step " + s.jobId() + ".0 ended");
    }

    /**
     * dep_cancelled: slurmctld cancelled it when its afterok parent (import_error) failed (--kill-on-invalid-dep=yes).
     * It reads as a dependency that can never be satisfied, never as a cancel to resubmit.
     */
    @Test
    void aJobCancelledForItsDependencyReadsAsTheDependency() throws IOException {
        LabCluster.Scenario s = lab.scenario("dep_cancelled");
        Result r = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.json();
        assertThat(j.at("/job/state").asText()).isEqualTo("CANCELLED");
        assertThat(j.at("/job/state_detail").isNull()).as("no canceller").isTrue();
        assertThat(j.at("/finding/kind").asText()).isEqualTo("dependency");
        assertThat(j.at("/finding/evidence/0/text").asText()).startsWith("State=CANCELLED by no one while it waited on"
                + " Reason=Dependency: slurmctld cancelled it").contains("--kill-on-invalid-dep=yes");
        Result text = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId());
        assertThat(flat(text.out())).contains("Job dependency can never be satisfied (dependency)")
                .doesNotContain("cancelled by mistake");
    }

    /** deadline_never: DEADLINE before it started, a deadline kind whose patch changes no --time. */
    @Test
    void aJobItsDeadlineEndedBeforeItStartedIsTheDeadlineKind() throws IOException {
        LabCluster.Scenario s = lab.scenario("deadline_never");
        Result r = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.json();
        assertThat(j.at("/job/state").asText()).isEqualTo("DEADLINE");
        assertThat(j.at("/finding/kind").asText()).isEqualTo("deadline");
        assertThat(j.at("/finding/parent").asText()).isEqualTo("time_limit");
        assertThat(j.at("/patch/changes")).isEmpty();
        assertThat(j.at("/patch/advice").toString()).contains("'s --deadline came before it could start and finish,"
                + " so no --time is changed");
        Result text = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId());
        assertThat(text.out()).contains("job " + s.jobId() + " deadline_never [DEADLINE]")
                .contains("no node (never started)").doesNotContain("+#SBATCH --time");
    }

    /** held: sbatch --hold. Pending JobHeldUser: it can start once released (can_start "held"), not never. */
    @Test
    void aHeldJobCanStartOnceReleased() throws IOException {
        LabCluster.Scenario s = lab.scenario("held");
        Result r = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.json().at("/pending/reason").asText()).isEqualTo("JobHeldUser");
        assertThat(r.json().at("/pending/can_start").asText()).isEqualTo("held");
        Result text = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId());
        assertThat(text.out()).contains("Can start    once released, with nothing else changed")
                .contains("scontrol release " + s.jobId()).doesNotContain("never, as submitted");
    }

    /** begin_later: --begin=now+2hours. The pending view says when it starts at the earliest (F13). */
    @Test
    void aPendingJobsBeginTimeIsShown() throws IOException {
        LabCluster.Scenario s = lab.scenario("begin_later");
        Result r = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.json();
        assertThat(j.at("/pending/reason").asText()).isEqualTo("BeginTime");
        assertThat(j.at("/pending/can_start").asText()).isEqualTo("will");
        java.time.LocalDateTime submit = java.time.LocalDateTime.parse(j.at("/job/submit").asText());
        String begin = io.slurmwise.job.SlurmTime.iso(submit.plusHours(2));
        assertThat(j.at("/pending/meaning").asText()).isEqualTo("its --begin time has not come yet; it starts no earlier"
                + " than " + begin);
        Result text = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId());
        assertThat(flat(text.out())).contains("BeginTime: its --begin time has not come yet; it starts no earlier than "
                + begin).doesNotContain("requeued");
    }

    /**
     * time_override: sbatch --time=00:01:00 over the script's #SBATCH --time=00:10:00. The patch edits the line, and
     * the advice's first item says the job ran with the command line's value, which must change there too.
     */
    @Test
    void aCommandLineTimeOverTheScriptsLineIsSaid() throws IOException {
        LabCluster.Scenario s = lab.scenario("time_override");
        Result r = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.json();
        assertThat(j.at("/finding/kind").asText()).isEqualTo("time_limit");
        assertThat(j.at("/job/time_limit").asText()).isEqualTo("00:01:00");
        assertThat(j.at("/patch/diff").asText()).contains("-#SBATCH --time=00:10:00");
        assertThat(j.at("/patch/advice/0").asText()).startsWith("Job " + s.jobId() + " ran with --time 00:01:00, not"
                + " its script's 00:10:00: the sbatch command line").contains("(`sbatch --time=");
        Result text = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId());
        assertThat(flat(text.out())).contains("Job " + s.jobId() + " ran with --time 00:01:00, not its script's 00:10:00");
    }

    /**
     * deadline_cut: TimeLimit cut from the script's 00:10:00 to 00:01:00 by a --deadline (with --time-min 00:01:00).
     * The JSON carries deadline and time_min (from scontrol, while slurmctld remembers the job), and the advice says the
     * limit was cut to the deadline; it never says a command line overrode it (F6).
     */
    @Test
    void aLimitCutToTheDeadlineIsNotCalledAnOverride() throws IOException {
        LabCluster.Scenario s = lab.scenario("deadline_cut");
        Result r = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.json();
        assertThat(j.at("/finding/kind").asText()).isEqualTo("time_limit");
        assertThat(j.at("/job/time_limit").asText()).isEqualTo("00:01:00");
        assertThat(j.at("/patch/advice").toString()).doesNotContain("the sbatch command line");
        Result text = run(env(Map.of("SLURMWISE_NO_LLM", "1")), "diagnose", s.jobId());
        assertThat(flat(text.out())).doesNotContain("the sbatch command line");
        if (!j.at("/job/exit_code_scontrol").isNull()) { // slurmctld still remembers it (MinJobAge)
            assertThat(j.at("/job/time_min").asText()).isEqualTo("00:01:00");
            assertThat(j.at("/job/deadline").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d");
            assertThat(j.at("/patch/advice/0").asText()).startsWith("Job " + s.jobId() + " ran with --time 00:01:00, not"
                    + " its script's 00:10:00, because slurmctld cut the limit to the time left before its --deadline "
                    + j.at("/job/deadline").asText());
            assertThat(flat(text.out())).contains("because slurmctld cut the limit to the time left before its --deadline");
        }
        // a job without a deadline has none in its JSON
        assertThat(run("diagnose", lab.scenario("time_override").jobId(), "--json").json().at("/job/deadline").isNull()).isTrue();
    }

    @Test
    void jobsListsEveryScenarioAndFilters() throws IOException {
        Result all = run("jobs", "--since", "now-1days", "--json");
        assertThat(all.code()).as(all.err()).isZero();
        List<String> ids = new ArrayList<>();
        all.json().get("jobs").forEach(j -> ids.add(j.get("id").asText()));
        for (LabCluster.Scenario s : lab.scenarios()) {
            assertThat(ids).as(s.name()).anyMatch(s::names);
        }
        Result failed = run("jobs", "--since", "now-1days", "--state", "FAILED,OUT_OF_MEMORY", "--user", lab.fact("TEST_USER"));
        assertThat(failed.code()).isZero();
        // the footer is wrapped to the width (its COMPLETED* key made "backend real" break across lines): read it whole;
        // a COMPLETED job whose step failed (step_oom) is a failure, marked COMPLETED*, never a plain COMPLETED
        assertThat(failed.out().replaceAll("\\s+", " ")).contains(lab.scenario("import_error").jobId())
                .contains("OUT_OF_MEMORY").contains(lab.scenario("step_oom").jobId() + " step_oom")
                .contains("COMPLETED*").doesNotContain("COMPLETED ").contains("backend real (requested)");
        Result pending = run("jobs", "--since", "now-1days", "--state", "PENDING", "--json");
        List<String> reasons = new ArrayList<>();
        pending.json().get("jobs").forEach(j -> reasons.add(j.get("pending_reason").asText()));
        assertThat(reasons).contains("DependencyNeverSatisfied", "PartitionTimeLimit", "PartitionConfig",
                "QOSMaxWallDurationPerJobLimit", "AssocGrpCPUMinutesLimit", "JobHeldUser", "BeginTime");
    }

    @Test
    void classifyReadsARealLogWithTheRealBackendSelected() throws IOException {
        LabCluster.Scenario s = lab.scenario("disk_quota");
        Path err = s.workDir().resolve("disk_quota-" + s.jobId() + ".err");
        Result r = run("classify", err.toString(), "--state", "FAILED", "--exit-code", "1:0", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.json().at("/finding/kind").asText()).isEqualTo("disk_quota");
    }

    @Test
    void unknownJobsExitWithNotFound() {
        Result r = run("diagnose", "999999");
        assertThat(r.code()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(StderrText.text(r.err())).contains("job 999999 is not known to").contains("(backend real (requested))")
                .hasLineCount(1);
        assertThat(r.out()).isEmpty();
    }
}
