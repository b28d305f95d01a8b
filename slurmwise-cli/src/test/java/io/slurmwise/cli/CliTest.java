package io.slurmwise.cli;

import io.slurmwise.cli.context.ExitCodes;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.agent.testing.FakeOpenAiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CliTest {

    record Result(int code, String out, String err) {
        JsonNode json() throws IOException {
            return new ObjectMapper().readTree(out);
        }
    }

    static Result run(Map<String, String> extraEnv, boolean terminal, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        // no language model unless a test brings its own server
        Map<String, String> env = new HashMap<>(Map.of("SLURMWISE_BACKEND", "mock", "SLURMWISE_NO_LLM", "1"));
        // the knowledge index goes where surefire says, never into the developer's ~/.slurmwise
        env.put("SLURMWISE_HOME", System.getenv().getOrDefault("SLURMWISE_HOME", "target/slurmwise-home"));
        // the width the tests' expected lines were written at; a test of the piped default passes COLUMNS=""
        env.put("COLUMNS", "100");
        env.putAll(extraEnv);
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err), env, terminal);
        return new Result(code, out.toString(), err.toString());
    }

    static Result run(String... args) {
        return run(Map.of(), false, args);
    }

    @Test
    void diagnoseShowsTheOomPanelWithEvidenceAndFixes() {
        Result r = run("diagnose", "1001");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("job 1001 train_llama_sft [OUT_OF_MEMORY] exit 0:125 00:41:12/08:00:00")
                .contains("(oom)")
                .contains("rules")
                .contains("Detected 1 oom-kill event(s) in StepId=1001.batch")
                .contains("MaxRSS 31.8G")
                .contains("Fixes")
                .contains("1. ")
                .contains("#SBATCH --mem=");
        assertThat(r.out()).doesNotContain("\u001b[");
    }

    @Test
    void patchPrintsTheWholeDiffThatTheFullViewShowsUnderContinuationMarks() throws IOException {
        // 1037's change line is wider than 80 columns: --full showed it cut with an ellipsis, under a header that
        // said to save it as a patch (an outside audit); --patch is the file, --full shows every char of it
        Result p = run("diagnose", "1037", "--patch");
        assertThat(p.code()).isZero();
        assertThat(p.err()).isEmpty();
        JsonNode json = run("diagnose", "1037", "--json").json();
        String diff = json.path("patch").path("diff").asText();
        // --json names the words that matched on each log line (the part a narrow view shows)
        JsonNode deciding = json.at("/finding/evidence/0");
        assertThat(deciding.path("text").asText()).contains(deciding.path("match").asText()).contains("GLIBCXX_3.4.29");
        assertThat(deciding.path("match").asText()).isNotBlank();
        assertThat(p.out().strip()).isEqualTo(diff.strip()).startsWith("--- a/").contains("\n+export LD_LIBRARY_PATH=");
        String full = run(Map.of("COLUMNS", "80"), false, "diagnose", "1037", "--full").out();
        assertThat(full).contains("slurmwise diagnose 1037 --patch > fix.patch").contains("↪ ");
        String longest = diff.lines().max(java.util.Comparator.comparingInt(String::length)).orElseThrow();
        assertThat(longest.length()).isGreaterThan(76);
        assertThat(full.lines().map(l -> l.replaceFirst("^│ {3}(↪ )?", "")).collect(java.util.stream.Collectors.joining()))
                .as("every char of the longest diff line is on screen").contains(longest.substring(40));
        // a job without a suggested patch: nothing on stdout, why on stderr
        Result none = run("diagnose", "1042", "--patch");
        assertThat(none.code()).as("a job with no patch is no job not found").isEqualTo(7);
        assertThat(none.out()).isEmpty();
        assertThat(none.err()).startsWith("slurmwise: no patch for job 1042: ");
        assertThat(run("diagnose", "1037", "--patch", "--json").code()).isEqualTo(2);
        assertThat(run("diagnose", "999999", "--patch").code()).isEqualTo(3);
    }

    @Test
    void theDefaultPanelPutsTheFixFirstAndFitsAScreen() {
        for (String job : new String[] {"1001", "22542799", "1008"}) {
            Result r = run(Map.of("COLUMNS", "100"), false, "diagnose", job);
            assertThat(r.code()).isZero();
            java.util.List<String> lines = r.out().lines().toList();
            assertThat(lines).as(job).hasSizeLessThanOrEqualTo(30);
            // 1008's patch adds an export line, no #SBATCH one
            String added = job.equals("1008") ? "│ +\\+export .*" : "│ +\\+#SBATCH .*";
            int at = -1;
            for (int i = 0; i < lines.size() && at < 0; i++) {
                if (lines.get(i).matches(added)) {
                    at = i;
                }
            }
            assertThat(at).as(job + ": the patch's added line\n" + r.out()).isBetween(0, 19);
            assertThat(r.out()).contains("Fixes").contains("1. ").doesNotContain("What to check").doesNotContain("Prevention")
                    .doesNotContain("The deciding evidence").contains("--full");
            Result full = run(Map.of("COLUMNS", "100"), false, "diagnose", job, "--full");
            assertThat(full.out()).contains("What to check").contains("Why").contains("@@");
        }
        String oom = run(Map.of("COLUMNS", "100"), false, "diagnose", "1001").out();
        assertThat(oom.indexOf("oom-kill event")).as("the deciding line first").isLessThan(oom.indexOf("DataLoader worker"));
        assertThat(oom.lines().filter(l -> l.contains("stderr:") || l.contains("sacct ") || l.contains("check ")).count())
                .isBetween(2L, 3L);
    }

    @Test
    void rulesOnlyDiagnosisUsesTheRulesAndTheKindsNoteOnly() {
        Result r = run("diagnose", "1001", "--rules-only");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("(oom)").contains("╰─ rules ·").doesNotContain("rules + kb");
    }

    @Test
    void diagnoseShowsTheTimeLimitPanel() {
        Result r = run("diagnose", "22542799");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("[TIMEOUT]").contains("12:00:03/12:00:00").contains("(time_limit)")
                .contains("DUE TO TIME LIMIT");
    }

    @Test
    void diagnoseShowsTheSuggestedPatches() throws IOException {
        Result oom = run("diagnose", "1001");
        assertThat(oom.out()).contains("Patch").contains("never applied")
                .contains("-#SBATCH --mem=32G").contains("+#SBATCH --mem=48G");
        Result time = run("diagnose", "22542799", "--full");
        // 22542799 needs about 23 of its partition's 12 hours: the patch moves it where they are allowed
        assertThat(time.out()).contains("+#SBATCH --partition=gpuH100x8").contains("+#SBATCH --time=22:00:00")
                .contains("To stay on gpuA100x4").doesNotContain("+#SBATCH --signal").doesNotContain("+#SBATCH --requeue");
        JsonNode j = run("diagnose", "1001", "--json").json();
        assertThat(j.at("/patch/status").asText()).isEqualTo("suggested");
        assertThat(j.at("/patch/applied").asBoolean()).isFalse();
        assertThat(j.at("/patch/diff").asText()).contains("+#SBATCH --mem=48G");
        assertThat(j.at("/patch/changes/0/what").asText()).startsWith("--mem=48G");
        // 1004's script was not kept: the change is listed to make by hand, with no diff (an outside audit read
        // "not_suggested" beside it)
        JsonNode none = run("diagnose", "1004", "--json").json();
        assertThat(none.at("/patch/status").asText()).isEqualTo("by_hand");
        assertThat(none.at("/patch/diff").isNull()).isTrue();
        assertThat(none.at("/patch/reason").asText()).contains("not available");
        assertThat(none.at("/patch/changes/0/what").asText()).contains("PYTORCH_CUDA_ALLOC_CONF");
        assertThat(run("diagnose", "1003", "--json").json().at("/patch/status").asText()).isEqualTo("not_suggested");
    }

    @Test
    void diagnoseJsonFollowsTheSchema() throws IOException {
        Result r = run("diagnose", "1001", "--json");
        assertThat(r.code()).isZero();
        JsonNode j = r.json();
        assertThat(j.get("schema").asText()).isEqualTo("slurmwise.diagnosis/v1");
        assertThat(j.get("status").asText()).isEqualTo("failed");
        assertThat(j.at("/finding/kind").asText()).isEqualTo("oom");
        assertThat(j.at("/finding/source").asText()).isEqualTo("rules");
        assertThat(j.at("/job/max_rss_bytes").asLong()).isGreaterThan(30L << 30);
        assertThat(j.at("/job/consumed_energy_joules").isNull()).isTrue();
        assertThat(j.get("fixes").size()).isPositive();
    }

    @Test
    void runningAndPendingJobsGetTheirStatus() throws IOException {
        assertThat(run("diagnose", "1051").out()).contains("RUNNING");
        Result pending = run("diagnose", "1053");
        assertThat(pending.code()).isZero();
        assertThat(pending.out()).contains("Can start");
        JsonNode dep = null;
        for (String id : new String[] {"1052", "1054", "1055", "1056", "1057"}) {
            JsonNode j = run("diagnose", id, "--json").json();
            if (j.at("/pending/can_start").asText().equals("never")) {
                dep = j;
            }
        }
        assertThat(dep).as("a pending job that can never start").isNotNull();
        // one that will start is told so, not that its request was refused (1052 waits out a maintenance reservation)
        assertThat(run("diagnose", "1052").out()).contains("yes, without changes").contains("a wait, not a failure")
                .doesNotContain("refused");
        assertThat(run("diagnose", "1056").out()).contains("never, as submitted").contains("Job request refused");
    }

    /**
     * Errors on stderr are wrapped to the output's width as the rest is (they ran on in one line of 300 characters):
     * a job not found, a bad option, a backend that cannot be read, at 80 columns; under the text after
     * {@code slurmwise: }, a command or a path never broken.
     */
    @Test
    void errorsAreWrappedToTheWidthWithoutBreakingAPathOrACommand(@org.junit.jupiter.api.io.TempDir Path tmp) {
        Path missingDir = tmp.resolve("site-exports/cluster-alpha/2026-november/accounting-snapshot-for-replay");
        Result notFound = run(Map.of("COLUMNS", "80"), false, "diagnose", "999999");
        Result badOption = run(Map.of("COLUMNS", "80"), false, "watch", "--interval", "5 minutes");
        Result unreadable = run(Map.of("COLUMNS", "80", "SLURMWISE_MOCK_DIR", missingDir.toString()), false,
                "diagnose", "1001");
        assertThat(notFound.code()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(badOption.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(unreadable.code()).isEqualTo(ExitCodes.BACKEND);
        for (Result r : List.of(notFound, badOption, unreadable)) {
            List<String> lines = r.err().lines().toList();
            assertThat(lines.get(0)).startsWith("slurmwise: ");
            // every line fits, but one that a single word wider than the line needs (a path, a format list)
            assertThat(lines).allSatisfy(l -> assertThat(l.length() <= 80 || !l.strip().contains(" ")).as(l).isTrue());
            assertThat(lines.subList(1, lines.size())).allSatisfy(l -> assertThat(l).startsWith(" ".repeat(11)));
        }
        assertThat(notFound.err().lines().count()).isGreaterThan(1);
        assertThat(notFound.err()).contains("`sacct -j 999999`").contains("`sacct -M <cluster> -j 999999`");
        assertThat(unreadable.err()).contains(missingDir.toString());
    }

    /**
     * A task still waiting in its pending array's row ({@code 3000088_[50-99]}, the one record SLURM keeps for them) is
     * that row, said so, as the MCP tools say it (an outside audit: "not known to accounting").
     */
    @Test
    void aTaskInAPendingArrayRangeIsDiagnosedAsThatRange(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("sacct.psv"), "JobID|JobName|User|Account|Partition|QOS|State|ExitCode|"
                + "DerivedExitCode|Submit|Start|End|Elapsed|Timelimit|ReqMem|MaxRSS|AllocCPUS|AllocTRES|NodeList|"
                + "TotalCPU|ConsumedEnergyRaw|WorkDir|StdOut|StdErr|Reason\n"
                + "3000088_49|sweep|alice|lab|cpu|normal|FAILED|1:0|0:0|2026-11-20T10:00:00|2026-11-20T10:00:05|"
                + "2026-11-20T10:01:00|00:00:55|01:00:00|4G||4|billing=4,cpu=4,mem=4G,node=1|n01|00:00:10||/tmp|"
                + "/tmp/sweep.out|/tmp/sweep.out|None\n"
                + "3000088_[50-99]|sweep|alice|lab|cpu|normal|PENDING|0:0|0:0|2026-11-20T10:00:00|Unknown|Unknown|"
                + "00:00:00|01:00:00|4G||4|||00:00:00||/tmp|/tmp/sweep.out|/tmp/sweep.out|Resources\n");
        Files.writeString(dir.resolve("partitions.psv"), "PARTITION|TIMELIMIT|NODES|CPUS|MEMORY|GRES|AVAIL\n"
                + "cpu|2-00:00:00|4|64|256000|(null)|up\n");
        Map<String, String> env = Map.of("SLURMWISE_MOCK_DIR", dir.toString());
        Result text = run(env, false, "diagnose", "3000088_50");
        assertThat(text.code()).as(text.err()).isZero();
        // the panel's Note row, its wrapped lines joined
        assertThat(text.out().replaceAll("[\\s│]+", " ")).contains("Note task 50 of array 3000088 has not started: it is pending"
                + " as part of 3000088_[50-99]");
        JsonNode json = run(env, false, "diagnose", "3000088_50", "--json").json();
        assertThat(json.at("/job/id").asText()).isEqualTo("3000088_[50-99]");
        assertThat(json.get("summary").asText()).startsWith("task 50 of array 3000088 has not started");
        Result none = run(env, false, "diagnose", "3000088_100");
        assertThat(none.code()).isEqualTo(ExitCodes.NOT_FOUND);
    }

    @Test
    void badInputGivesOneClearLineAndADocumentedExitCode() {
        Result malformed = run("diagnose", "12;rm");
        assertThat(malformed.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(malformed.err()).contains("is not a SLURM job id").doesNotContain("Exception").doesNotContain("\tat ");
        // an id SLURM cannot have (2^70): what was wrong and what a valid id looks like, in the MCP tools' words
        Result huge = run("diagnose", "1180591620717411303424");
        assertThat(huge.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(huge.err().replaceAll("\\s+", " ")).contains(org.assertj.core.api.Assertions.catchThrowable(
                () -> io.slurmwise.job.JobId.parse("1180591620717411303424")).getMessage())
                .contains("at most 4294967292");
        Result missing = run("diagnose", "999999");
        assertThat(missing.code()).isEqualTo(ExitCodes.NOT_FOUND);
        // one message: its first line says it, the rest are its words wrapped under it
        assertThat(missing.err()).startsWith("slurmwise: job 999999 is not known to");
        assertThat(missing.err().lines().skip(1)).allSatisfy(l -> assertThat(l).startsWith(" ".repeat(11)));
        assertThat(missing.out()).isEmpty();
        Result typo = run("diagnoze", "1001");
        assertThat(typo.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(typo.err()).containsPattern("Did you mean|Possible solutions").contains("diagnose");
        Result optionTypo = run("diagnose", "1001", "--ful");
        assertThat(optionTypo.err()).containsPattern("Did you mean|Possible solutions").contains("--full");
        Result backend = run(Map.of("SLURMWISE_BACKEND", "nosuch"), false, "diagnose", "1001");
        assertThat(backend.code()).isEqualTo(ExitCodes.BACKEND);
        assertThat(backend.err()).contains("unknown").contains("mock");
        Result option = run("diagnose", "--frobnicate", "1001");
        assertThat(option.code()).isEqualTo(ExitCodes.USAGE);
        Result tail = run(Map.of("SLURMWISE_LOG_TAIL", "lots"), false, "diagnose", "1001");
        assertThat(tail.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(tail.err()).contains("SLURMWISE_LOG_TAIL");
        // checked before the server reads stdin: one line, the configuration exit code
        Result mcp = run(Map.of("SLURMWISE_MCP_CALL_TIMEOUT", "forever"), false, "mcp");
        assertThat(mcp.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(mcp.err().strip()).contains("SLURMWISE_MCP_CALL_TIMEOUT must be a number of seconds between 1 and"
                + " 3600, got 'forever'").doesNotContain("\n").doesNotContain("Exception");
        assertThat(mcp.out()).isEmpty();
    }

    @Test
    void classifyWorksWithoutACluster(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("slurm-77.out");
        Files.writeString(log, "step 100\n[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n");
        Result r = run(Map.of("SLURMWISE_BACKEND", "real"), false, "classify", log.toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("cuda_oom").contains("stdout:2");
        Result j = run("classify", log.toString(), "--state", "FAILED", "--exit-code", "1:0", "--json");
        assertThat(j.json().at("/finding/kind").asText()).isEqualTo("cuda_oom");
        Result missing = run("classify", dir.resolve("nope.log").toString());
        assertThat(missing.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(missing.err()).contains("does not exist");
        Result badState = run("classify", log.toString(), "--state", "SOMETIMES");
        assertThat(badState.code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void aJobThatNeverStartedIsNotShownWithZeroCpusOrSlurmsNoneAssigned() {
        String out = run(Map.of("COLUMNS", "120"), false, "diagnose", "1040", "--rules-only").out();
        String job = out.lines().filter(l -> l.startsWith("│ Job ")).findFirst().orElseThrow();
        assertThat(job).contains("no node (never started)").contains("partition gpuA100x4")
                .doesNotContain("0 CPU").doesNotContain("None assigned");
        // the evidence still quotes the record as SLURM wrote it
        assertThat(out).contains("NodeList is 'None assigned'");
    }

    @Test
    void anUnknownLogSaysWhereToReadFirstAndCallsItNoEvidence(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("slurm-78.err");
        Files.writeString(log, "loading index\nError: Encountered internal HISAT2 exception (#1)\n(ERR): hisat2-align exited with value 1\n");
        Result r = run("classify", log.toString(), "--no-color");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("no failure recognised").contains("Read first").contains("stderr:3")
                .contains("Start reading at stderr:2").doesNotContain("Evidence");
        Result j = run("classify", log.toString(), "--json");
        assertThat(j.json().at("/finding/kind").asText()).isEqualTo("unknown");
        assertThat(j.json().at("/finding/evidence").size()).isZero();
        assertThat(j.json().at("/finding/leads/1/text").asText()).isEqualTo("(ERR): hisat2-align exited with value 1");
        assertThat(j.json().at("/finding/leads/1/line").asLong()).isEqualTo(3);
    }

    @Test
    void anUnknownWithWeakSignsNamesThemAndDoesNotSayNothingMatched(@TempDir Path dir) throws IOException {
        // a bare Killed that the log goes on after: SIGKILL, most often the memory cgroup, too weak alone (oom 35%)
        Path log = dir.resolve("slurm-79.err");
        Files.writeString(log, "step 1\nKilled\nwriting results\n");
        String out = run(Map.of("COLUMNS", "160"), false, "classify", log.toString(), "--no-color").out();
        assertThat(out).contains("no failure recognised").contains("signs too weak to decide: oom 35%")
                .contains("(a cause needs 50%)").doesNotContain("no known signature matched")
                .contains("the signs seen (oom 35%) are below the 50% a cause needs")
                .doesNotContain("No note knows that message");
        String full = run(Map.of("COLUMNS", "80"), false, "classify", log.toString(), "--no-color", "--full").out();
        assertThat(full).doesNotContain("Also seen"); // said once, in the cause row
        Result j = run("classify", log.toString(), "--json");
        assertThat(j.json().at("/finding/kind").asText()).isEqualTo("unknown");
        assertThat(j.json().at("/finding/others/0/kind").asText()).isEqualTo("oom");
    }

    /** A pending job has no exit and no time run: its headline and panel say what it asks for instead. */
    @Test
    void aPendingJobsPanelSaysWhatItAsksForNotAnExit() {
        String out = run(Map.of("COLUMNS", "100"), false, "diagnose", "1055", "--rules-only").out();
        String head = out.lines().findFirst().orElseThrow();
        assertThat(head).contains("[PENDING] asks 1-00:00:00").doesNotContain("exit").doesNotContain("00:00:00/");
        assertThat(out).contains("│ Asks         16 CPU, 1 GPU a100 · 64G · partition gpuA100x4 · time 1-00:00:00");
        // one that set no --time asks its partition's default ("asks partition default" read as a partition's name)
        String noTime = run(Map.of("COLUMNS", "100"), false, "diagnose", "1021", "--rules-only").out();
        assertThat(noTime.lines().findFirst().orElseThrow()).contains("[PENDING] asks the default time");
        assertThat(noTime).contains("· the partition's default time\n").doesNotContain("partition default");
        // a failed job keeps its exit and time run
        assertThat(run(Map.of("COLUMNS", "100"), false, "diagnose", "1001", "--rules-only").out().lines().findFirst()
                .orElseThrow()).contains("exit 0:125 00:41:12/08:00:00");
    }

    @Test
    void jobsJsonTimesKeepTheirSecondsOnARealExport() throws IOException {
        // hb-jobinfo's job 7946767 ended at 2024-04-05T11:42:00: JSON said "2024-04-05T11:42"
        String dir = java.nio.file.Path.of("..", "slurmwise-core", "src", "test", "resources", "peers", "hb-jobinfo")
                .toString();
        JsonNode jobs = run(Map.of("SLURMWISE_MOCK_DIR", dir), false, "jobs", "--json", "--user", "user420",
                "--since", "2024-04-04", "--until", "2024-04-06").json();
        JsonNode job = null;
        for (JsonNode j : jobs.get("jobs")) {
            if (j.get("id").asText().equals("7946767")) {
                job = j;
            }
        }
        assertThat(job).isNotNull();
        assertThat(job.get("end").asText()).isEqualTo("2024-04-05T11:42:00");
        assertThat(job.get("submit").asText()).isEqualTo("2024-04-04T10:08:19");
    }

    @Test
    void jobsListsAndFilters() throws IOException {
        Result all = run(Map.of("COLUMNS", "160"), false, "jobs");
        assertThat(all.code()).isZero();
        assertThat(all.out()).contains("JOBID").contains("1001").contains("train_llama_sft").contains("backend mock");
        JsonNode timeouts = run("jobs", "--state", "TIMEOUT", "--json").json();
        assertThat(timeouts.get("count").asInt()).isPositive();
        timeouts.get("jobs").forEach(j -> assertThat(j.get("state").asText()).isEqualTo("TIMEOUT"));
        JsonNode alice = run("jobs", "--user", "alice", "--json").json();
        alice.get("jobs").forEach(j -> assertThat(j.get("user").asText()).isEqualTo("alice"));
        assertThat(run("jobs", "--since", "yesterday").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run("jobs", "--state", "WEIRD").code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void jobsAtEightyColumnsKeepsIdsAndTimesWhole() {
        // the wide table cut every column to fit 80: 22542799 read "225…", array tasks 4242_1..5 all "424…"
        String out = run(Map.of("COLUMNS", "80"), false, "jobs").out();
        assertThat(out.lines().findFirst().orElseThrow()).contains("JOBID").contains("STATE").contains("ELAPSED").contains("WHY");
        assertThat(out).contains("22542799").contains("4242_1").contains("4242_5").doesNotContain("225…").doesNotContain("424…");
        assertThat(out).contains("12:00:03").contains("2-00:00:31"); // 22542799's and 1016's elapsed, whole
        assertThat(out.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
        // a wide terminal keeps every column
        assertThat(run(Map.of("COLUMNS", "220"), false, "jobs").out()).contains("PARTITION").contains("REASON");
    }

    @Test
    void jobsSaysWhyAtAGlance() throws IOException {
        Result all = run(Map.of("COLUMNS", "220"), false, "jobs");
        assertThat(all.out()).contains("KIND").contains("REASON").contains("newest first");
        // who cancelled, by name (the mock cluster's uid 1001 is alice; uid 0 is root)
        assertThat(all.out()).contains("CANCELLED by alice").contains("CANCELLED by root").doesNotContain("by 1001");
        // with --classify, every KIND jobs shows is the kind diagnose names (1027, cancelled while stuck on a full quota,
        // was blank in jobs and disk_quota in diagnose)
        int compared = 0;
        for (JsonNode j : run("jobs", "--classify", "--json").json().get("jobs")) {
            if (j.hasNonNull("kind")) {
                JsonNode d = run("diagnose", j.get("id").asText(), "--json").json();
                assertThat(d.at("/finding/kind").asText()).as("job " + j.get("id").asText()).isEqualTo(j.get("kind").asText());
                compared++;
            }
        }
        assertThat(compared).isGreaterThanOrEqualTo(40);
        // diagnose names them as jobs does (its header once said "CANCELLED by 0" where jobs said "by root")
        assertThat(run("diagnose", "1048").out()).contains("[CANCELLED by root]").doesNotContain("by 0]");
        assertThat(run("diagnose", "1017").out()).contains("[CANCELLED by alice]");
        JsonNode json = run("jobs", "--json").json();
        JsonNode first = json.at("/jobs/0");
        for (JsonNode j : json.get("jobs")) {
            assertThat(j.get("submit").asText()).as("newest first").isLessThanOrEqualTo(first.get("submit").asText());
            switch (j.get("state").asText()) {
                case "PENDING" -> {
                    assertThat(j.get("pending_reason").asText()).isNotBlank();
                }
                case "FAILED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL", "CANCELLED", "PREEMPTED" ->
                        assertThat(j.get("kind").asText()).isNotBlank();
                // 1062 COMPLETED 0:0, its srun step OUT_OF_MEMORY: a failure, of the step's kind, as diagnose says
                case "COMPLETED" -> assertThat(j.get("kind").isNull()).as(j.get("id").asText())
                        .isEqualTo(j.get("failed_step").isNull());
                default -> assertThat(j.get("kind").isNull()).isTrue();
            }
        }
        // SLURM's state and what became of the job, both: 1062 is COMPLETED to SLURM and failed to every command
        for (JsonNode j : json.get("jobs")) {
            String outcome = j.get("id").asText().equals("1062") ? "failed"
                    : io.slurmwise.job.Outcome.of(io.slurmwise.job.JobState.valueOf(j.get("state").asText())).id();
            assertThat(j.get("outcome").asText()).as(j.get("id").asText()).isEqualTo(outcome);
        }
        // and the table does not say COMPLETED beside an oom without a mark that its footer explains
        String row1062 = all.out().lines().filter(l -> l.startsWith("1062 ")).findFirst().orElseThrow();
        assertThat(row1062).contains("COMPLETED*").contains("oom");
        assertThat(all.out().lines().filter(l -> l.contains("COMPLETED*") && !l.contains(" · "))).hasSize(1);
        assertThat(all.out().replaceAll("\\s+", " ")).contains("COMPLETED* = the batch script exited 0, but a step failed");
        assertThat(run("jobs", "--state", "TIMEOUT").out()).doesNotContain("COMPLETED*");
        // a pending job shows its reason, not a zero exit and elapsed time
        String pendingLine = all.out().lines().filter(l -> l.contains(" PENDING ")).findFirst().orElseThrow();
        assertThat(pendingLine).doesNotContainPattern("PENDING\\s+0:0").doesNotContainPattern("PENDING\\s+00:00:00\\s");
        JsonNode oom = run("jobs", "--json", "--state", "OUT_OF_MEMORY").json();
        oom.get("jobs").forEach(j -> assertThat(j.get("kind").asText()).isEqualTo("oom"));
        // a search for failures finds 1062, COMPLETED to SLURM with its step out of memory, as every command counts it
        JsonNode failedOnly = run("jobs", "--json", "--state", "FAILED").json();
        List<String> failedIds = new ArrayList<>();
        failedOnly.get("jobs").forEach(j -> {
            failedIds.add(j.get("id").asText());
            assertThat(j.get("outcome").asText()).isEqualTo("failed");
        });
        assertThat(failedIds).contains("1062", "1047");
        assertThat(oom.get("jobs").findValuesAsText("id")).contains("1062", "1001", "1024");
        JsonNode classified = run("jobs", "--json", "--state", "FAILED", "--classify", "--last", "3").json();
        assertThat(classified.get("count").asInt()).isEqualTo(3);
        assertThat(classified.get("kinds_from").asText()).isEqualTo("records_and_logs");
        assertThat(classified.get("truncated").asBoolean()).isTrue();
        assertThat(run("jobs", "--json", "--last", "2").json().get("count").asInt()).isEqualTo(2);
        assertThat(run("jobs", "--json", "--last", "1", "--oldest-first").json().at("/jobs/0/id").asText()).isEqualTo("1001");
        // from records only, a failure the record cannot explain is "?", never an "unknown" that diagnose contradicts
        String row1047 = all.out().lines().filter(l -> l.startsWith("1047 ")).findFirst().orElseThrow();
        assertThat(row1047).doesNotContain("unknown").containsPattern("\\s\\?\\s*$");
        assertThat(all.out()).contains("? where a record alone does not say");
        // exit status 127 alone only suggests a missing file (1009's log says a missing library, 1012's a missing
        // module): a lead, marked as one, and said so in JSON
        JsonNode listed = run("jobs", "--json").json();
        listed.get("jobs").forEach(j -> {
            if (j.get("id").asText().equals("1009") || j.get("id").asText().equals("1012")) {
                assertThat(j.get("kind").asText()).isEqualTo("file_not_found");
                assertThat(j.get("kind_tentative").asBoolean()).isTrue();
            }
            if (j.get("id").asText().equals("1001")) {
                assertThat(j.has("kind_tentative")).isFalse();
            }
        });
        String row1009 = run(Map.of("COLUMNS", "220"), false, "jobs").out().lines().filter(l -> l.startsWith("1009 "))
                .findFirst().orElseThrow();
        assertThat(row1009).contains("file_not_found?");
        String classifiedTable = run(Map.of("COLUMNS", "220"), false, "jobs", "--classify").out();
        String classifiedRow = classifiedTable.lines().filter(l -> l.startsWith("1047 ")).findFirst().orElseThrow();
        assertThat(classifiedRow).contains("allocation_exhausted");
        // with the logs read, 1012's kind is its log's: not marked with the record's doubt, as --json does not mark it
        String classified1012 = classifiedTable.lines().filter(l -> l.startsWith("1012 ")).findFirst().orElseThrow();
        assertThat(classified1012).contains("module_load").doesNotContain("module_load?");
    }

    @Test
    void jobsTakesSacctsTimesAndRefusesUnknownFilters() {
        assertThat(run("jobs", "--since", "today").code()).isZero();
        assertThat(run("jobs", "--since", "midnight", "--until", "now").code()).isZero();
        assertThat(run("jobs", "--since", "now-2hours").code()).isZero();
        Result nope = run("jobs", "--partition", "nope");
        assertThat(nope.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(nope.err()).contains("no partition 'nope'").contains("gpuA100x4").contains("debug");
        Result nobody = run("jobs", "--user", "nobody-here-42");
        assertThat(nobody.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(nobody.err()).contains("alice").contains("bob");
    }

    @Test
    void colourOnlyOnATerminalAndNeverWithNoColor() {
        assertThat(run(Map.of(), true, "diagnose", "1001").out()).contains("\u001b[");
        assertThat(run(Map.of("NO_COLOR", "1"), true, "diagnose", "1001").out()).doesNotContain("\u001b[");
        assertThat(run(Map.of(), true, "--no-color", "diagnose", "1001").out()).doesNotContain("\u001b[");
    }

    @Test
    void aLanguageModelWordsTheExplanationWhenOneAnswers() throws IOException {
        try (FakeOpenAiServer llm = FakeOpenAiServer.answering(req -> "Job 1001 ran out of host memory at 31.8G of 32G.")) {
            Map<String, String> env = new HashMap<>();
            env.put("SLURMWISE_NO_LLM", "");
            env.put("SLURMWISE_LLM_BASE_URL", llm.baseUrl());
            env.put("SLURMWISE_LLM_MODEL", "test-model");
            Result r = run(env, false, "diagnose", "1001");
            assertThat(r.out()).contains("Job 1001 ran out of host memory at 31.8G of 32G.").contains("rules + kb + llm:test-model")
                    .contains("(oom)");
            // the model's words are labelled as the model's, in the short panel and with --full; the template's are not
            assertThat(r.out()).contains("│ Why (model)  Job 1001 ran out of host memory");
            assertThat(run(env, false, "diagnose", "1001", "--full").out()).contains("│ Why (model)");
            Result off = run(env, false, "diagnose", "1001", "--no-llm", "--full");
            assertThat(off.out()).doesNotContain("ran out of host memory at").contains("The deciding evidence")
                    .doesNotContain("Why (model)").contains("│ Why ");
            assertThat(llm.requests()).hasSize(2);
        }
        Map<String, String> gone = Map.of("SLURMWISE_NO_LLM", "", "SLURMWISE_LLM_BASE_URL", "http://127.0.0.1:9/v1");
        Result fallback = run(gone, false, "diagnose", "1001", "--full");
        assertThat(fallback.code()).isZero();
        assertThat(fallback.out()).contains("The deciding evidence");
        assertThat(fallback.err()).contains("no language model answered at http://127.0.0.1:9/v1");
    }

    @Test
    void aModelThatContradictsTheRulesIsSetAsideAndTheFooterSaysSo() throws IOException {
        String contradiction = "The real cause is an NCCL network failure between nodes, not memory.";
        try (FakeOpenAiServer llm = FakeOpenAiServer.answering(req -> contradiction)) {
            Map<String, String> env = new HashMap<>();
            env.put("SLURMWISE_NO_LLM", "");
            env.put("SLURMWISE_LLM_BASE_URL", llm.baseUrl());
            env.put("SLURMWISE_LLM_MODEL", "test-model");
            Result r = run(env, false, "diagnose", "1001", "--full");
            assertThat(r.out()).doesNotContain("NCCL network failure").contains("(oom)")
                    .contains("model's words set aside: presents nccl, a consequence of oom, as the cause");
            assertThat(StderrText.text(r.err())).contains("the model's answer was set aside").hasLineCount(1);
            JsonNode json = run(env, false, "diagnose", "1001", "--json").json();
            assertThat(json.path("explanation").path("text").asText()).doesNotContain("NCCL network failure");
            assertThat(json.path("explanation").path("source").asText()).isEqualTo("template");
            assertThat(json.path("explanation").path("note").asText()).contains("nccl");
        }
    }

    @Test
    void chatAnswersWithTheToolsThroughAModel() throws IOException {
        FakeOpenAiServer.Script script = req -> {
            for (JsonNode m : req.path("messages")) {
                if ("tool".equals(m.path("role").asText())) {
                    return FakeOpenAiServer.Reply.text("Job 22542799 hit its time limit.");
                }
            }
            return FakeOpenAiServer.Reply.toolCall("diagnose_job", "{\"job_id\":\"22542799\"}");
        };
        try (FakeOpenAiServer llm = new FakeOpenAiServer(script)) {
            Result r = run(Map.of("SLURMWISE_NO_LLM", "", "SLURMWISE_LLM_BASE_URL", llm.baseUrl()), false,
                    "chat", "--once", "why did 22542799 fail?");
            assertThat(r.code()).isZero();
            assertThat(r.out()).contains("Job 22542799 hit its time limit.");
            assertThat(r.err()).contains("diagnose_job");
        }
        Result noModel = run("chat", "--once", "hi");
        assertThat(noModel.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(noModel.err()).contains("SLURMWISE_NO_LLM");
        Result gone = run(Map.of("SLURMWISE_NO_LLM", "", "SLURMWISE_LLM_BASE_URL", "http://127.0.0.1:9/v1"), false,
                "chat", "--once", "hi");
        assertThat(gone.code()).isEqualTo(ExitCodes.BACKEND);
        assertThat(gone.err()).contains("no language model answered");
    }

    @Test
    void chatTakesItsToolsFromAnMcpServerWhenAsked() throws IOException {
        FakeOpenAiServer.Script script = req -> {
            for (JsonNode m : req.path("messages")) {
                if ("tool".equals(m.path("role").asText())) {
                    return FakeOpenAiServer.Reply.text(m.path("content").asText().contains("\"kind\":\"oom\"")
                            ? "Job 1001 ran out of memory." : "I could not tell.");
                }
            }
            return FakeOpenAiServer.Reply.toolCall("diagnose_job", "{\"job_id\":\"1001\"}");
        };
        // the server as a user would start it on a login node: here the same CLI, `slurmwise mcp`, on the mock
        String server = "/usr/bin/env SLURMWISE_BACKEND=mock 'SLURMWISE_HOME=" + java.nio.file.Path.of("target",
                "mcp-chat-home").toAbsolutePath() + "' " + java.nio.file.Path.of(System.getProperty("java.home"), "bin",
                "java") + " -cp '" + System.getProperty("java.class.path") + "' " + Main.class.getName() + " mcp";
        try (FakeOpenAiServer llm = new FakeOpenAiServer(script)) {
            Result r = run(Map.of("SLURMWISE_NO_LLM", "", "SLURMWISE_LLM_BASE_URL", llm.baseUrl()), false,
                    "chat", "--once", "why did 1001 fail?", "--mcp-server", server);
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).contains("Job 1001 ran out of memory.");
            assertThat(r.err()).contains("tools from the MCP server `/usr/bin/env SLURMWISE_BACKEND=mock")
                    .contains("diagnose_job").contains("· diagnose_job");
        }
        Result bad = run(Map.of("SLURMWISE_NO_LLM", "", "SLURMWISE_LLM_BASE_URL", "http://127.0.0.1:9/v1"), false,
                "chat", "--once", "hi", "--mcp-server", "ssh 'unterminated");
        assertThat(bad.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("unbalanced ' in --mcp-server");
    }

    @Test
    void helpAndVersionEverywhere() {
        Result help = run("--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("diagnose").contains("classify").contains("jobs").contains("Exit codes");
        assertThat(run("diagnose", "--help").out()).contains("JOBID");
        assertThat(run("--version").out()).contains("slurmwise");
        assertThat(run("classify", "--version").code()).isZero();
    }
}
