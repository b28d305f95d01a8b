package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The MCP server as a real MCP client sees it: the SDK's client starts it as a process over stdio. */
class McpServerTest {

    static final ObjectMapper JSON = MockCluster.JSON;
    static McpSyncClient client;

    @BeforeAll
    static void start() {
        client = MockCluster.client(null, Path.of("target", "mcp-home"));
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.closeGracefully();
        }
    }

    /**
     * Calls a tool; every answer is compact JSON followed by a short text form, the two together under 16 KB (or the
     * {@code max_bytes} asked for): the whole of what the client receives.
     */
    static JsonNode call(String tool, Map<String, Object> args) throws Exception {
        McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, args));
        assertThat(r.isError()).as(text(r)).isFalse();
        String json = text(r);
        int budget = tool.equals("read_job_log") || !(args.get("max_bytes") instanceof Number n) ? 16 * 1024 : n.intValue();
        assertThat(r.content().stream().mapToInt(c -> ((McpSchema.TextContent) c).text()
                .getBytes(java.nio.charset.StandardCharsets.UTF_8).length).sum()).as(tool + " answer size")
                .isLessThanOrEqualTo(budget);
        assertThat(json).as("compact JSON").doesNotContain("\n  ");
        assertThat(r.content()).hasSize(2);
        assertThat(((McpSchema.TextContent) r.content().get(1)).text()).as(tool + " text form").isNotBlank();
        return JSON.readTree(json);
    }

    private static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    @Test
    @SuppressWarnings("unchecked")
    void listsOnlyReadOnlyTools() {
        McpSchema.ListToolsResult tools = client.listTools();
        assertThat(tools.tools()).extracting(McpSchema.Tool::name).containsExactlyElementsOf(ToolDefinition.NAMES)
                .hasSizeGreaterThanOrEqualTo(10);
        assertThat(tools.tools()).allSatisfy(t -> {
            assertThat(t.annotations().readOnlyHint()).isTrue();
            assertThat(t.annotations().destructiveHint()).isFalse();
            assertThat(t.annotations().openWorldHint()).isFalse();
            assertThat(t.description()).contains("Read-only");
            // no tool takes a file path: logs are found from the job's record
            assertThat(((Map<String, Object>) t.inputSchema().get("properties")).keySet()).noneMatch(p -> p.contains("path") || p.contains("file"));
        });
    }

    @Test
    void diagnosesAJob() throws Exception {
        JsonNode d = call("diagnose_job", Map.of("job_id", "1001"));
        assertThat(d.get("schema").asText()).isEqualTo("slurmwise.diagnosis/v1");
        assertThat(d.at("/finding/kind").asText()).isEqualTo("oom");
        assertThat(d.at("/finding/evidence/0/text").asText()).isNotBlank();
        // clients (and models) often send a numeric id, or a number as a string
        assertThat(call("diagnose_job", Map.of("job_id", 22542799)).at("/finding/kind").asText()).isEqualTo("time_limit");
        assertThat(call("list_jobs", Map.of("limit", "2")).get("count").asInt()).isEqualTo(2);
        McpSchema.CallToolResult bad = client.callTool(new McpSchema.CallToolRequest("list_jobs", Map.of("limit", "many")));
        assertThat(bad.isError()).isTrue();
        assertThat(text(bad)).contains("limit must be a whole number from 1 to 500");
        // the text form's fix is a Fixes item, not the first line of another section (an outside audit: 1004's
        // "fix: - The full message: ..." was a What-to-check bullet)
        McpSchema.CallToolResult cuda = client.callTool(new McpSchema.CallToolRequest("diagnose_job", Map.of("job_id", "1004")));
        assertThat(((McpSchema.TextContent) cuda.content().get(1)).text()).contains("cuda_oom").contains("; fix: Reduce")
                .doesNotContain("fix: -");
    }

    @Test
    void listsAndFiltersJobs() throws Exception {
        JsonNode j = call("list_jobs", Map.of("states", "TIMEOUT", "limit", 5));
        assertThat(j.get("count").asInt()).isBetween(1, 5);
        j.get("jobs").forEach(job -> assertThat(job.get("state").asText()).isEqualTo("TIMEOUT"));
    }

    /**
     * What became of each job, as the CLI's {@code jobs --json} says it: the mock's one COMPLETED job whose step failed
     * (1062, its srun step out of memory; the mock cluster's README) is failed, and its text line says COMPLETED* with
     * the mark's key, where SLURM's plain word beside its oom read as a contradiction.
     */
    @Test
    void aCompletedJobWhoseStepFailedIsFailedAndMarked() throws Exception {
        JsonNode completed = call("list_jobs", Map.of("states", "COMPLETED", "limit", 500, "max_bytes", 200_000));
        assertThat(completed.get("count").asInt()).isGreaterThan(1).isEqualTo(completed.get("matched").asInt());
        for (JsonNode j : completed.get("jobs")) {
            boolean stepFailed = j.get("id").asText().equals("1062");
            assertThat(j.get("state").asText()).isEqualTo("COMPLETED");
            assertThat(j.get("state_text").asText()).as("SLURM's word, as jobs --json has it").isEqualTo("COMPLETED");
            assertThat(j.get("outcome").asText()).as(j.get("id").asText()).isEqualTo(stepFailed ? "failed" : "completed");
            assertThat(j.get("kind").isNull()).as(j.get("id").asText()).isEqualTo(!stepFailed);
        }
        assertThat(completed.get("jobs").findValuesAsText("id")).contains("1062");
        // a search for the step's state finds it; its text line carries the mark, explained once below the lines
        McpSchema.CallToolResult oom = client.callTool(new McpSchema.CallToolRequest("list_jobs",
                Map.of("states", "OUT_OF_MEMORY", "since", "2026-01-01")));
        JsonNode oomJson = JSON.readTree(text(oom));
        oomJson.get("jobs").forEach(j -> assertThat(j.get("outcome").asText()).isEqualTo("failed"));
        assertThat(oomJson.get("jobs").findValuesAsText("id")).contains("1062");
        String lines = MockCluster.text(oom, 1);
        assertThat(lines.lines().filter(l -> l.startsWith("1062 "))).singleElement().asString()
                .startsWith("1062 COMPLETED* ").endsWith("[oom]");
        assertThat(lines).endsWith("\n" + io.slurmwise.view.StateCell.KEY + " (outcome: failed)");
        assertThat(lines.lines().filter(l -> l.contains("COMPLETED*"))).hasSize(2);
        // a list without such a job has neither
        assertThat(MockCluster.text(MockCluster.ok(client, "list_jobs", Map.of("states", "TIMEOUT")), 1))
                .doesNotContain("COMPLETED*");
        // its whole record (full, and get_job) has the outcome and the step that failed
        JsonNode full = call("list_jobs", Map.of("states", "OUT_OF_MEMORY", "full", true, "since", "2026-01-01"));
        JsonNode row = java.util.stream.StreamSupport.stream(full.get("jobs").spliterator(), false)
                .filter(j -> j.get("id").asText().equals("1062")).findFirst().orElseThrow();
        assertThat(row.get("outcome").asText()).isEqualTo("failed");
        assertThat(row.at("/failed_step/state").asText()).isEqualTo("OUT_OF_MEMORY");
        assertThat(call("get_job", Map.of("job_id", "1062")).at("/job/outcome").asText()).isEqualTo("failed");
    }

    /** A cancelled or preempted job gets its kind from the record, as jobs gives it; a running or pending one none. */
    @Test
    void interruptedJobsHaveAKindAsInTheCli() throws Exception {
        JsonNode interrupted = call("list_jobs", Map.of("states", "CANCELLED,PREEMPTED", "limit", 500,
                "since", "2026-01-01", "max_bytes", 200_000));
        assertThat(interrupted.get("count").asInt()).isGreaterThan(0);
        for (JsonNode j : interrupted.get("jobs")) {
            assertThat(j.get("kind").asText()).as(j.get("id").asText()).isIn("cancelled", "preempted", "time_limit",
                    "oom", "node_fail", "deadline", "unknown");
        }
        JsonNode waiting = call("list_jobs", Map.of("states", "PENDING,RUNNING", "limit", 500, "max_bytes", 200_000));
        waiting.get("jobs").forEach(j -> assertThat(j.get("kind").isNull()).as(j.get("id").asText()).isTrue());
    }

    @Test
    void theThreeNewestFailuresComeFirst() throws Exception {
        JsonNode all = call("list_jobs", Map.of("states", "FAILED,TIMEOUT,OUT_OF_MEMORY,NODE_FAIL", "limit", 500,
                "max_bytes", 200_000));
        JsonNode three = call("list_jobs", Map.of("states", "FAILED,TIMEOUT,OUT_OF_MEMORY,NODE_FAIL", "limit", 3));
        assertThat(three.get("order").asText()).isEqualTo("newest");
        assertThat(three.get("count").asInt()).isEqualTo(3);
        assertThat(three.get("truncated").asBoolean()).isTrue();
        assertThat(three.get("matched").asInt()).isEqualTo(all.get("count").asInt()).isGreaterThan(3);
        // newest first: the first three of the whole list, by submit time, descending
        for (int i = 0; i < 3; i++) {
            assertThat(three.at("/jobs/" + i + "/id").asText()).isEqualTo(all.at("/jobs/" + i + "/id").asText());
        }
        assertThat(three.at("/jobs/0/submit").asText()).isGreaterThanOrEqualTo(three.at("/jobs/1/submit").asText());
        assertThat(three.at("/jobs/1/submit").asText()).isGreaterThanOrEqualTo(three.at("/jobs/2/submit").asText());
        three.get("jobs").forEach(job -> assertThat(job.get("kind").asText()).isNotBlank());
        JsonNode oldest = call("list_jobs", Map.of("order", "oldest", "limit", 1));
        assertThat(oldest.at("/jobs/0/id").asText()).isEqualTo("1001");
        // a busy answer is cut to 16 KB and says so
        McpSchema.CallToolResult bigResult = client.callTool(new McpSchema.CallToolRequest("list_jobs",
                Map.of("limit", 500, "full", true)));
        JsonNode big = call("list_jobs", Map.of("limit", 500, "full", true));
        assertThat(big.get("truncated").asBoolean()).isTrue();
        // and both parts say what was cut
        String said = ((McpSchema.TextContent) bigResult.content().get(1)).text();
        assertThat(said.replaceAll("\\s+", " ")).contains("the structured answer leaves out "
                + big.get("omitted").asInt() + " entries to stay under 16 KiB");
        // on lines that fit a terminal, as the rest of the text form
        assertThat(said.substring(said.indexOf("(the structured answer")).lines())
                .allSatisfy(l -> assertThat(l).hasSizeLessThanOrEqualTo(80));
    }

    @Test
    void anUnknownPartitionIsAnErrorThatListsThem() {
        McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest("list_jobs", Map.of("partition", "nope")));
        assertThat(r.isError()).isTrue();
        assertThat(text(r)).contains("no partition 'nope'").contains("gpuA100x4").contains("debug");
    }

    @Test
    void diagnosesSeveralJobsAndTheLastFailures() throws Exception {
        JsonNode d = call("diagnose_job", Map.of("last_failed", 3));
        assertThat(d.get("schema").asText()).isEqualTo("slurmwise.diagnoses/v1");
        assertThat(d.get("count").asInt()).isEqualTo(3);
        d.get("diagnoses").forEach(x -> assertThat(x.get("status").asText()).isEqualTo("failed"));
        JsonNode two = call("diagnose_job", Map.of("job_ids", "1001,22542799"));
        assertThat(two.at("/diagnoses/0/finding/kind").asText()).isEqualTo("oom");
        assertThat(two.at("/diagnoses/1/finding/kind").asText()).isEqualTo("time_limit");
    }

    @Test
    void readsTheTailOfAJobsOwnLog() throws Exception {
        JsonNode l = call("read_job_log", Map.of("job_id", "1001", "stream", "stderr", "lines", 5));
        assertThat(l.get("schema").asText()).isEqualTo("slurmwise.log/v1");
        assertThat(l.at("/logs/0/stream").asText()).isEqualTo("stderr");
        assertThat(l.at("/logs/0/lines").asInt()).isBetween(1, 5);
        assertThat(l.at("/logs/0/text").asText()).isNotBlank();
        JsonNode small = call("read_job_log", Map.of("job_id", "1001", "lines", 1000, "max_bytes", 300));
        assertThat(Bounded.size(small)).isLessThan(2000);
    }

    /**
     * An array's id names its tasks: get_job lists them, read_job_log asks for one and names it, job_efficiency takes
     * them all (an outside audit: each said "the cluster has no record of job 4242" while diagnose_job diagnosed 4242_3).
     */
    @Test
    void anArraysIdNamesItsTasksInEveryTool() throws Exception {
        JsonNode j = call("get_job", Map.of("job_id", "4242"));
        assertThat(j.get("array_job_id").asText()).isEqualTo("4242");
        assertThat(j.get("tasks").size()).isGreaterThan(1);
        assertThat(j.get("tasks").findValuesAsText("id")).allMatch(id -> id.startsWith("4242_"));
        McpSchema.CallToolResult log = client.callTool(new McpSchema.CallToolRequest("read_job_log",
                Map.of("job_id", "4242")));
        assertThat(log.isError()).isTrue();
        assertThat(text(log)).startsWith("job 4242 is an array job of ").contains("give one task's id, e.g. job_id \"4242_")
                .doesNotContain("no record");
        JsonNode eff = call("job_efficiency", Map.of("job_id", "4242"));
        assertThat(eff.toString()).contains("4242_");
    }

    @Test
    void patchesPendingReasonsPartitionsEfficiencyAndKnowledge() throws Exception {
        JsonNode p = call("suggest_patch", Map.of("job_id", "1001"));
        assertThat(p.at("/patch/status").asText()).isEqualTo("suggested");
        assertThat(p.at("/patch/diff").asText()).contains("--mem");
        JsonNode pending = call("explain_pending", Map.of());
        assertThat(pending.get("count").asInt()).isPositive();
        pending.get("jobs").forEach(j -> assertThat(j.at("/pending/reason").asText()).isNotBlank());
        // the text a model reads carries what else holds a pending job: 1060 gets cpu's DefaultTime
        McpSchema.CallToolResult one = client.callTool(new McpSchema.CallToolRequest("explain_pending",
                Map.of("job_id", "1060")));
        assertThat(((McpSchema.TextContent) one.content().get(1)).text())
                .contains("Note: it asks no --time, so partition cpu's DefaultTime, 01:00:00, is its limit");
        JsonNode parts = call("partition_limits", Map.of());
        assertThat(parts.get("count").asInt()).isEqualTo(6);
        assertThat(parts.at("/partitions/1/max_time").asText()).isEqualTo("12:00:00");
        assertThat(parts.at("/partitions/1/gres").asText()).isEqualTo("gpu:a100:4");
        assertThat(parts.at("/partitions/1/qos_access").asText()).isEqualTo("AllowQos=gpu,normal,scavenger");
        assertThat(parts.at("/partitions/0/default_time").asText()).isEqualTo("01:00:00");
        assertThat(parts.at("/qos/0/name").asText()).isEqualTo("normal");
        assertThat(parts.at("/qos/0/max_wall_seconds").asLong()).isEqualTo(172_800);
        assertThat(parts.at("/qos/1/preempts/0").asText()).isEqualTo("scavenger");
        assertThat(parts.at("/qos/2/max_wall").isNull()).as("long has no MaxWall").isTrue();
        JsonNode eff = call("job_efficiency", Map.of("since", "now-60days", "limit", 5));
        assertThat(eff.get("count").asInt()).isPositive();
        eff.get("jobs").forEach(j -> assertThat(j.get("state").asText()).isEqualTo("COMPLETED"));
        JsonNode kb = call("search_knowledge", Map.of("query", "CUDA out of memory. Tried to allocate 2.00 GiB"));
        assertThat(kb.get("rules_kind").asText()).isEqualTo("cuda_oom");
        assertThat(kb.at("/results/0/kind").asText()).isEqualTo("cuda_oom");
        JsonNode compact = call("fleet_stats", Map.of("since", "now-40days"));
        assertThat(compact.get("by_kind").size()).isLessThanOrEqualTo(5);
        assertThat(compact.has("by_day")).isFalse();
        JsonNode top2 = call("fleet_stats", Map.of("since", "now-40days", "top", 2));
        assertThat(top2.get("top_jobs").size()).isEqualTo(2);
    }

    /**
     * A pending job that can never start as submitted has a patch in diagnose_job (and `diagnose --patch`):
     * suggest_patch gives the same one, and explain_pending points to it (an outside audit: suggest_patch refused
     * 1055-1057 with "there is no failure to patch", and explain_pending left the patch out).
     */
    @Test
    void suggestPatchGivesAPendingJobsPatchAndExplainPendingPointsToIt() throws Exception {
        for (String id : java.util.List.of("1055", "1056", "1057")) {
            JsonNode d = call("diagnose_job", Map.of("job_id", id));
            assertThat(d.at("/pending/can_start").asText()).isEqualTo("never");
            JsonNode p = call("suggest_patch", Map.of("job_id", id));
            assertThat(p.get("schema").asText()).isEqualTo("slurmwise.patch/v1");
            assertThat(p.get("job_id").asText()).isEqualTo(id);
            assertThat(p.get("can_start").asText()).isEqualTo("never");
            assertThat(p.get("pending_reason").asText()).isEqualTo(d.at("/pending/reason").asText());
            assertThat(p.get("kind").asText()).isEqualTo(d.at("/pending/finding/kind").asText());
            assertThat(p.at("/patch/status").asText()).isEqualTo("suggested");
            assertThat(p.at("/patch/applied").asBoolean()).isFalse();
            // the same patch as diagnose_job's
            assertThat(p.at("/patch/diff")).isEqualTo(d.at("/pending/patch/diff"));
            assertThat(p.at("/patch/changes")).isEqualTo(d.at("/pending/patch/changes"));
            assertThat(p.at("/patch/patched_script").asText()).isNotBlank();
            McpSchema.CallToolResult e = client.callTool(new McpSchema.CallToolRequest("explain_pending",
                    Map.of("job_id", id)));
            assertThat(((McpSchema.TextContent) e.content().get(1)).text())
                    .contains("suggest_patch gives the change that lets it start: "
                            + d.at("/pending/patch/changes/0/what").asText());
            JsonNode ej = JSON.readTree(text(e));
            assertThat(ej.at("/jobs/0/pending/patch/diff")).isEqualTo(d.at("/pending/patch/diff"));
            assertThat(ej.at("/jobs/0/pending/patch/patched_script").isMissingNode()).isTrue();
        }
        assertThat(call("suggest_patch", Map.of("job_id", "1057")).at("/patch/diff").asText()).contains("+#SBATCH --qos=normal");
        // a pending job that will start needs no patch: an error that says so, and where to look
        McpSchema.CallToolResult waits = client.callTool(new McpSchema.CallToolRequest("suggest_patch",
                Map.of("job_id", "1061")));
        assertThat(waits.isError()).isTrue();
        assertThat(text(waits)).contains("it will start without changes").contains("there is no patch for it")
                .contains("explain_pending says why it waits");
        McpSchema.CallToolResult running = client.callTool(new McpSchema.CallToolRequest("suggest_patch",
                Map.of("job_id", "1058")));
        assertThat(running.isError()).isTrue();
        assertThat(text(running)).contains("RUNNING").contains("there is no patch for it: it has not failed");
        // explain_pending names the job a dependency waits on, as diagnose_job does
        McpSchema.CallToolResult dep = client.callTool(new McpSchema.CallToolRequest("explain_pending",
                Map.of("job_id", "1053")));
        assertThat(((McpSchema.TextContent) dep.content().get(1)).text()).contains("it depends on job 1051")
                .doesNotContain("suggest_patch");
    }

    /**
     * explain_pending without an id carries every pending job the text names (an outside audit: its JSON kept 4 of
     * the mock's 10 under the 16 KB cap while the text named all 10): the bulky parts of each job go first, and the
     * answer says which and where they are; one job asked for by id is whole.
     */
    @Test
    void explainPendingOfManyCarriesEveryJobItsTextNames() throws Exception {
        McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest("explain_pending", Map.of()));
        assertThat(r.isError()).isFalse();
        JsonNode m = JSON.readTree(text(r));
        String words = ((McpSchema.TextContent) r.content().get(1)).text();
        // the whole answer, both parts, under 16 KB
        assertThat((text(r) + words).getBytes(java.nio.charset.StandardCharsets.UTF_8).length).isLessThanOrEqualTo(16 * 1024);
        java.util.List<String> named = new java.util.ArrayList<>();
        java.util.regex.Matcher job = java.util.regex.Pattern.compile("(?m)^job (\\d+) ").matcher(words);
        while (job.find()) {
            named.add(job.group(1));
        }
        assertThat(named).hasSize(10);
        java.util.List<String> carried = new java.util.ArrayList<>();
        m.get("jobs").forEach(j -> carried.add(j.get("job_id").asText()));
        assertThat(carried).isEqualTo(named);
        assertThat(m.get("count").asInt()).isEqualTo(10);
        assertThat(m.get("truncated").asBoolean()).isFalse();
        assertThat(m.has("left_out")).isFalse();
        m.get("jobs").forEach(j -> {
            assertThat(j.at("/pending/reason").asText()).isNotBlank();
            assertThat(j.at("/pending/can_start").asText()).isNotBlank();
            assertThat(j.at("/job/user").asText()).isNotBlank();
            assertThat(j.at("/pending/fixes").isMissingNode()).isTrue();
            assertThat(j.at("/pending/patch/patched_script").isMissingNode()).isTrue();
        });
        // what it left out, and how to get it
        assertThat(m.get("left_out_of_each_job").get(0).asText()).startsWith("pending.fixes");
        assertThat(m.get("whole_answer").asText()).contains("explain_pending with a job_id").contains("suggest_patch");
        assertThat(words.replaceAll("\\s+", " ")).contains("the structured answer leaves out of each job: pending.fixes")
                .doesNotContain("holds the first");
        // 1055 can never start: its brief keeps the change that lets it start
        JsonNode p1055 = m.get("jobs").get(named.indexOf("1055"));
        assertThat(p1055.at("/pending/patch/changes/0/what").asText()).contains("--partition=gpuH100x8");
        // by id, the whole answer: the notes too
        JsonNode one = call("explain_pending", Map.of("job_id", "1055"));
        assertThat(one.at("/jobs/0/pending/fixes").size()).isPositive();
        assertThat(one.has("left_out_of_each_job")).isFalse();
    }

    /**
     * diagnose_job leaves a pending job's patched script out as it does a failed job's (an outside audit: it dropped
     * 1001's but kept 1055's {@code pending.patch.patched_script}); suggest_patch gives both, and the text says so.
     */
    @Test
    void diagnoseJobLeavesEveryPatchedScriptToSuggestPatch() throws Exception {
        JsonNode failed = call("diagnose_job", Map.of("job_id", "1001"));
        assertThat(failed.at("/patch/diff").asText()).contains("--mem=48G");
        assertThat(failed.at("/patch/patched_script").isMissingNode()).isTrue();
        McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest("diagnose_job", Map.of("job_id", "1055")));
        JsonNode pending = JSON.readTree(text(r));
        assertThat(pending.at("/pending/patch/diff").asText()).contains("+#SBATCH --partition=gpuH100x8");
        assertThat(pending.at("/pending/patch/patched_script").isMissingNode()).isTrue();
        assertThat(((McpSchema.TextContent) r.content().get(1)).text())
                .contains("suggest_patch gives the change that lets it start: --partition=gpuH100x8");
        assertThat(call("suggest_patch", Map.of("job_id", "1055")).at("/patch/patched_script").asText())
                .contains("#SBATCH --partition=gpuH100x8");
        // several jobs: the same
        JsonNode two = call("diagnose_job", Map.of("job_ids", "1001,1055"));
        assertThat(two.at("/diagnoses/1/pending/patch/patched_script").isMissingNode()).isTrue();
    }

    @Test
    void notesAreResourcesAndThePromptsAreListed() {
        McpSchema.ListResourcesResult res = client.listResources();
        assertThat(res.resources()).extracting(McpSchema.Resource::uri).contains("slurmwise://taxonomy",
                "slurmwise://knowledge/oom", "slurmwise://knowledge/cuda_oom");
        assertThat(client.listResourceTemplates().resourceTemplates()).extracting(McpSchema.ResourceTemplate::uriTemplate)
                .containsExactly("slurmwise://knowledge/{kind}");
        McpSchema.ReadResourceResult note = client.readResource(new McpSchema.ReadResourceRequest("slurmwise://knowledge/cuda_oom"));
        assertThat(((McpSchema.TextResourceContents) note.contents().get(0)).text()).startsWith("# ")
                .contains("## Fixes").contains("PYTORCH_CUDA_ALLOC_CONF");
        assertThat(client.listPrompts().prompts()).extracting(McpSchema.Prompt::name)
                .containsExactlyInAnyOrder("diagnose_recent_failures", "why_pending", "failure_cost_this_month");
        McpSchema.GetPromptResult p = client.getPrompt(new McpSchema.GetPromptRequest("diagnose_recent_failures",
                Map.of("count", "3")));
        assertThat(((McpSchema.TextContent) p.messages().get(0).content()).text()).contains("limit=3")
                .contains("diagnose_job").contains("suggest_patch");
    }

    @Test
    void classifiesAPastedLog() throws Exception {
        JsonNode c = call("classify_log", Map.of("log",
                "Lmod has detected the following error: The following module(s) are unknown: \"cuda/12.9\"\n"
                        + "ModuleNotFoundError: No module named 'torch'\n"));
        assertThat(c.at("/finding/kind").asText()).isEqualTo("module_load");
    }

    @Test
    void explainsTheTaxonomy() throws Exception {
        assertThat(call("failure_kinds", Map.of()).get("kinds").size()).isGreaterThanOrEqualTo(19);
        assertThat(call("failure_kinds", Map.of("kind", "cuda_oom")).at("/sections/Fixes").asText()).contains("PYTORCH_CUDA_ALLOC_CONF");
    }

    @Test
    void reportsWhatFailuresCost() throws Exception {
        JsonNode s = call("fleet_stats", Map.of("since", "now-40days"));
        assertThat(s.get("schema").asText()).isEqualTo("slurmwise.stats/v1");
        assertThat(s.at("/total/failed").asInt()).isPositive();
        assertThat(s.at("/total/wasted_gpu_hours").asDouble()).isPositive();
        assertThat(s.get("by_partition").size()).isGreaterThanOrEqualTo(3);
        // "all time" from a client is refused at once, not a hundred thousand weekly queries
        McpSchema.CallToolResult all = client.callTool(new McpSchema.CallToolRequest("fleet_stats",
                Map.of("since", "0001-01-01")));
        assertThat(all.isError()).isTrue();
        assertThat(text(all)).contains("weeks").contains("start the window later");
    }

    /**
     * An argument a tool or prompt does not take is an error naming it and the ones it does take (an outside audit:
     * list_jobs {"state": "FAILED"} and {"status": "FAILED", "username": "bob"} answered "20 of 67 job(s)" of every
     * user and state, saying nothing of the filter it dropped).
     */
    @Test
    @SuppressWarnings("unchecked")
    void unknownArgumentsAreRefusedNamingTheOnesTheToolTakes() throws Exception {
        McpSchema.CallToolResult state = client.callTool(new McpSchema.CallToolRequest("list_jobs", Map.of("state", "FAILED")));
        assertThat(state.isError()).isTrue();
        assertThat(text(state)).isEqualTo("tool list_jobs has no argument 'state' (did you mean 'states'?); its arguments"
                + " are: states, since, until, user, partition, name, order, limit, full, max_bytes");
        McpSchema.CallToolResult two = client.callTool(new McpSchema.CallToolRequest("list_jobs",
                Map.of("status", "FAILED", "username", "bob")));
        assertThat(two.isError()).isTrue();
        assertThat(text(two)).startsWith("tool list_jobs has no argument 'status' (did you mean 'states'?) nor 'username'"
                + " (did you mean 'user'?); its arguments are: states,");
        // a known argument beside an unknown one does not make the call run
        McpSchema.CallToolResult mixed = client.callTool(new McpSchema.CallToolRequest("diagnose_job",
                Map.of("job_id", "1001", "full", true)));
        assertThat(mixed.isError()).isTrue();
        assertThat(text(mixed)).contains("tool diagnose_job has no argument 'full'").contains("job_id, job_ids, last_failed");
        // every tool, and every schema says so
        for (McpSchema.Tool t : client.listTools().tools()) {
            assertThat(t.inputSchema().get("additionalProperties")).as(t.name()).isEqualTo(false);
            java.util.Set<String> props = ((Map<String, Object>) t.inputSchema().get("properties")).keySet();
            McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(t.name(), Map.of("bogus", "x")));
            assertThat(r.isError()).as(t.name()).isTrue();
            assertThat(text(r)).as(t.name()).isEqualTo("tool " + t.name() + " has no argument 'bogus'; its arguments are: "
                    + String.join(", ", props));
        }
        // explain_pending reads a window's end: it declares it
        assertThat(call("explain_pending", Map.of("until", "now", "limit", 1)).get("count").asInt()).isEqualTo(1);
        // prompts too: -32602 naming the argument
        assertThatThrownBy(() -> client.getPrompt(new McpSchema.GetPromptRequest("why_pending", Map.of("jobid", "1055"))))
                .hasMessageContaining("prompt why_pending: it has no argument 'jobid' (did you mean 'job_id'?); its"
                        + " arguments are: job_id");
        assertThatThrownBy(() -> client.getPrompt(new McpSchema.GetPromptRequest("failure_cost_this_month",
                Map.of("count", "3")))).hasMessageContaining("has no argument 'count'; its arguments are: user");
        assertThat(((McpSchema.TextContent) client.getPrompt(new McpSchema.GetPromptRequest("why_pending",
                Map.of("job_id", "1055"))).messages().get(0).content()).text()).contains("job_id=1055")
                .contains("suggest_patch for the change to its request that lets it start");
    }

    @Test
    void badArgumentsAreToolErrorsTheModelCanRead() {
        McpSchema.CallToolResult bad = client.callTool(new McpSchema.CallToolRequest("diagnose_job", Map.of("job_id", "1; scancel 5")));
        assertThat(bad.isError()).isTrue();
        assertThat(text(bad)).contains("is not a SLURM job id");
        // an id SLURM cannot have, as a string or a JSON number (2^70): what was wrong and what a valid id looks like,
        // in the CLI's words (one parser, JobId.parse)
        String expected = org.assertj.core.api.Assertions.catchThrowable(
                () -> io.slurmwise.job.JobId.parse("1180591620717411303424")).getMessage();
        assertThat(expected).contains("the job number 1180591620717411303424 is larger than SLURM allows (at most"
                + " 4294967292").contains("use a number such as 1001");
        for (String tool : java.util.List.of("get_job", "diagnose_job", "read_job_log")) {
            for (Object id : java.util.List.of("1180591620717411303424", new java.math.BigInteger("1180591620717411303424"))) {
                McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, Map.of("job_id", id)));
                assertThat(r.isError()).as(tool + " " + id).isTrue();
                assertThat(text(r)).as(tool).isEqualTo(expected);
            }
        }
        McpSchema.CallToolResult task = client.callTool(new McpSchema.CallToolRequest("get_job",
                Map.of("job_id", "4242_4294967294")));
        assertThat(text(task)).contains("the array task id 4294967294 is larger than SLURM allows (at most 4000000");
        McpSchema.CallToolResult missing = client.callTool(new McpSchema.CallToolRequest("diagnose_job", Map.of()));
        assertThat(missing.isError()).isTrue();
        assertThat(text(missing)).contains("job_id");
        // last_failed is 1 to 10, as its range error says (0 was let through, then refused as if it were absent)
        for (Object n : java.util.List.of(0, "0", 11, -1)) {
            McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest("diagnose_job",
                    Map.of("last_failed", n)));
            assertThat(r.isError()).as(String.valueOf(n)).isTrue();
            assertThat(text(r)).isEqualTo("last_failed must be a whole number from 1 to 10, got " + n);
        }
        McpSchema.CallToolResult withId = client.callTool(new McpSchema.CallToolRequest("diagnose_job",
                Map.of("job_id", "1001", "last_failed", 0)));
        assertThat(text(withId)).isEqualTo("last_failed must be a whole number from 1 to 10, got 0");
    }
}
