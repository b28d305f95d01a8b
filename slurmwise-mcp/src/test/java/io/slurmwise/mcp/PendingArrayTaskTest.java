package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static io.slurmwise.mcp.MockCluster.JSON;
import static io.slurmwise.mcp.MockCluster.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * SLURM shows a pending array as one record, {@code 3000088_[50-99]}; a task among them has none of its own. Over MCP
 * (the SDK's client, a mock export with such an array in {@code SLURMWISE_MOCK_DIR}), asking for {@code 3000088_50}
 * answers with that record and says the task is pending as part of it (an outside audit: "no record of job
 * 3000088_50" from get_job, diagnose_job and read_job_log).
 */
class PendingArrayTaskTest {

    /** A mock export: array 3000088 whose tasks 48 and 49 ran, and 50 to 99 wait in one row. */
    static Path export(Path dir) throws java.io.IOException {
        String ran = "|sweep|alice|lab|cpu|normal|%s|%s|0:0|2026-11-20T10:00:00|2026-11-20T10:00:05|2026-11-20T10:01:00|"
                + "00:00:55|01:00:00|4G||4|billing=4,cpu=4,mem=4G,node=1|n01|00:00:10||/tmp|/tmp/sweep.out|/tmp/sweep.out|None";
        return MockCluster.export(dir, "3000088_48" + ran.formatted("COMPLETED", "0:0"),
                "3000088_49" + ran.formatted("FAILED", "1:0"),
                "3000088_[50-99]|sweep|alice|lab|cpu|normal|PENDING|0:0|0:0|2026-11-20T10:00:00|Unknown|Unknown|"
                + "00:00:00|01:00:00|4G||4|||00:00:00||/tmp|/tmp/sweep.out|/tmp/sweep.out|Resources");
    }

    @Test
    void aTaskInAPendingRangeIsThatRangeInEveryTool(@TempDir Path dir) throws Exception {
        McpSyncClient client = MockCluster.client(export(dir), dir.resolve("home"));
        String note = "task 50 of array 3000088 has not started: it is pending as part of 3000088_[50-99]";
        try {
            McpSchema.CallToolResult job = call(client, "get_job", "3000088_50");
            JsonNode j = JSON.readTree(text(job, 0));
            assertThat(j.at("/job/id").asText()).isEqualTo("3000088_[50-99]");
            assertThat(j.at("/job/state").asText()).isEqualTo("PENDING");
            assertThat(j.get("note").asText()).startsWith(note);
            assertThat(text(job, 1)).startsWith(note);

            McpSchema.CallToolResult diagnosis = call(client, "diagnose_job", "3000088_50");
            JsonNode d = JSON.readTree(text(diagnosis, 0));
            assertThat(d.get("status").asText()).isEqualTo("status_only");
            assertThat(d.at("/job/state").asText()).isEqualTo("PENDING");
            assertThat(d.at("/job/id").asText()).isEqualTo("3000088_[50-99]");
            assertThat(d.get("summary").asText()).startsWith(note);
            assertThat(text(diagnosis, 1)).startsWith(note);

            McpSchema.CallToolResult log = call(client, "read_job_log", "3000088_77");
            assertThat(JSON.readTree(text(log, 0)).get("note").asText()).startsWith(
                    "task 77 of array 3000088 has not started: it is pending as part of 3000088_[50-99]");

            McpSchema.CallToolResult pending = call(client, "explain_pending", "3000088_99");
            assertThat(text(pending, 1)).contains("task 99 of array 3000088 has not started");

            // a task the array does not have is still no record; one that ran is itself
            McpSchema.CallToolResult none = client.callTool(new McpSchema.CallToolRequest("get_job",
                    Map.of("job_id", "3000088_100")));
            assertThat(none.isError()).isTrue();
            assertThat(text(none, 0)).contains("no record of job 3000088_100");
            JsonNode ran = JSON.readTree(text(call(client, "get_job", "3000088_49"), 0));
            assertThat(ran.at("/job/id").asText()).isEqualTo("3000088_49");
            assertThat(ran.has("note")).isFalse();
        } finally {
            client.closeGracefully();
        }
    }

    private static McpSchema.CallToolResult call(McpSyncClient client, String tool, String id) {
        return MockCluster.ok(client, tool, Map.of("job_id", id));
    }
}
