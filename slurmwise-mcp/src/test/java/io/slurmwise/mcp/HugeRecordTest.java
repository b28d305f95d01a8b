package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import static io.slurmwise.mcp.MockCluster.JSON;
import static io.slurmwise.mcp.MockCluster.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * One record whose every text field is as long as a field may be ({@link Bounded#MAX_FIELD_CHARS}, 16 K characters:
 * job name, user, account, partition, QOS, node list, work dir, log paths, reason) has no list to cut, and its JSON
 * alone was 10 times the 16 KB budget (an outside audit). Over MCP every tool that shows it answers within the budget,
 * both parts together, with valid JSON whose long fields are cut with a visible mark, and both parts say so.
 */
class HugeRecordTest {

    static final int LONG = Bounded.MAX_FIELD_CHARS;

    /** A job of {@code state} whose every text field is {@link #LONG} characters, each field its own letter. */
    static String row(String id, String state, String exit, String reason) {
        String[] f = new String[] {id, "n", "u", "a", "p", "q", state, exit, "0:0", "2026-11-20T10:00:00",
                state.equals("PENDING") ? "Unknown" : "2026-11-20T10:00:05",
                state.equals("PENDING") ? "Unknown" : "2026-11-20T10:01:00", "00:00:55", "01:00:00", "4G", "", "4",
                "billing=4,cpu=4,mem=4G,node=1", "h", "00:00:10", "", "/w", "/o", "/e", reason};
        for (int i : new int[] {1, 2, 3, 4, 5, 18, 21, 22, 23, 24}) {
            f[i] = f[i] + f[i].substring(f[i].length() - 1).repeat(LONG - f[i].length());
        }
        return String.join("|", f);
    }

    @Test
    void aRecordOfLongFieldsIsCutToTheBudgetInEveryTool(@TempDir Path dir) throws Exception {
        MockCluster.export(dir, row("7301", "FAILED", "1:0", "None"), row("7302", "PENDING", "0:0", "R"));
        McpSyncClient client = MockCluster.client(dir, dir.resolve("home"));
        try {
            Map<String, Map<String, Object>> calls = new java.util.LinkedHashMap<>();
            calls.put("get_job", Map.of("job_id", "7301"));
            calls.put("diagnose_job", Map.of("job_id", "7301"));
            calls.put("explain_pending", Map.of("job_id", "7302"));
            calls.put("list_jobs", Map.of("full", true, "since", "2026-11-01", "until", "2026-12-01"));
            calls.put("read_job_log", Map.of("job_id", "7301"));
            calls.put("job_efficiency", Map.of("job_id", "7301"));
            for (Map.Entry<String, Map<String, Object>> call : calls.entrySet()) {
                String tool = call.getKey();
                McpSchema.CallToolResult r = MockCluster.ok(client, tool, call.getValue());
                int bytes = r.content().stream().mapToInt(c -> ((McpSchema.TextContent) c).text()
                        .getBytes(StandardCharsets.UTF_8).length).sum();
                assertThat(bytes).as(tool + " answer bytes").isLessThanOrEqualTo(Bounded.DEFAULT_BYTES);
                JsonNode json = JSON.readTree(text(r, 0));
                if (json.has("fields_cut_to")) {
                    int cut = json.get("fields_cut_to").asInt();
                    assertThat(cut).as(tool).isBetween(Bounded.MIN_FIELD_CHARS, LONG - 1);
                    assertThat(text(r, 0)).as(tool).contains("more characters cut]");
                    assertThat(text(r, 1)).as(tool).contains("cuts every field longer than " + cut + " characters");
                }
            }
            // the record's own fields are cut with the mark, its short ones whole
            JsonNode job = JSON.readTree(text(MockCluster.ok(client, "get_job", Map.of("job_id", "7301")), 0));
            assertThat(job.get("fields_cut_to").isInt()).as(job.toString()).isTrue();
            assertThat(job.at("/job/name").asText()).startsWith("nnnn").endsWith("more characters cut]");
            assertThat(job.at("/job/work_dir").asText()).startsWith("/www").endsWith("more characters cut]");
            assertThat(job.at("/job/id").asText()).isEqualTo("7301");
            assertThat(job.at("/job/state").asText()).isEqualTo("FAILED");
            // a list of such records keeps its first, cut, rather than none
            JsonNode list = JSON.readTree(text(MockCluster.ok(client, "list_jobs", calls.get("list_jobs")), 0));
            assertThat(list.get("matched").asInt()).isEqualTo(2);
            assertThat(list.get("count").asInt()).isEqualTo(1);
            assertThat(list.get("omitted").asInt()).isEqualTo(1);
            assertThat(list.get("fields_cut_to").isInt()).isTrue();
            assertThat(list.at("/jobs/0/name").asText()).startsWith("nnnn").endsWith("more characters cut]");
            JsonNode d = JSON.readTree(text(MockCluster.ok(client, "diagnose_job", Map.of("job_id", "7301")), 0));
            assertThat(d.get("status").asText()).isEqualTo("failed");
            assertThat(d.get("fields_cut_to").isInt()).isTrue();
        } finally {
            client.closeGracefully();
        }
    }
}
