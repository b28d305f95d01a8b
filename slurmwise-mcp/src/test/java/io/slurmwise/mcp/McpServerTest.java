package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The MCP server as a real MCP client sees it: the SDK's client starts it as a process over stdio. */
class McpServerTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static McpSyncClient client;

    @BeforeAll
    static void start() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ServerParameters params = ServerParameters.builder(java)
                .args("-cp", System.getProperty("java.class.path"), SlurmwiseMcpServer.class.getName())
                .env(Map.of("SLURMWISE_BACKEND", "mock", "SLURMWISE_HOME",
                        Path.of("target", "mcp-home").toAbsolutePath().toString()))
                .build();
        client = McpClient.sync(new StdioClientTransport(params, new JacksonMcpJsonMapper(JSON)))
                .requestTimeout(Duration.ofSeconds(60)).initializationTimeout(Duration.ofSeconds(60)).build();
        McpSchema.InitializeResult init = client.initialize();
        assertThat(init.serverInfo().name()).isEqualTo("slurmwise");
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.closeGracefully();
        }
    }

    private static JsonNode call(String tool, Map<String, Object> args) throws Exception {
        McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, args));
        assertThat(r.isError()).as(text(r)).isFalse();
        return JSON.readTree(text(r));
    }

    private static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().get(0)).text();
    }

    @Test
    void listsOnlyReadOnlyTools() {
        McpSchema.ListToolsResult tools = client.listTools();
        assertThat(tools.tools()).extracting(McpSchema.Tool::name)
                .containsExactly("diagnose_job", "list_jobs", "classify_log", "failure_kinds", "fleet_stats");
        assertThat(tools.tools()).allSatisfy(t -> {
            assertThat(t.annotations().readOnlyHint()).isTrue();
            assertThat(t.annotations().destructiveHint()).isFalse();
            assertThat(t.description()).isNotBlank();
        });
    }

    @Test
    void diagnosesAJob() throws Exception {
        JsonNode d = call("diagnose_job", Map.of("job_id", "1001"));
        assertThat(d.get("schema").asText()).isEqualTo("slurmwise.diagnosis/v1");
        assertThat(d.at("/finding/kind").asText()).isEqualTo("oom");
        assertThat(d.at("/finding/evidence/0/text").asText()).isNotBlank();
        // clients (and models) often send a numeric id
        assertThat(call("diagnose_job", Map.of("job_id", 22542799)).at("/finding/kind").asText()).isEqualTo("time_limit");
    }

    @Test
    void listsAndFiltersJobs() throws Exception {
        JsonNode j = call("list_jobs", Map.of("states", "TIMEOUT", "limit", 5));
        assertThat(j.get("count").asInt()).isBetween(1, 5);
        j.get("jobs").forEach(job -> assertThat(job.get("state").asText()).isEqualTo("TIMEOUT"));
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
    }

    @Test
    void badArgumentsAreToolErrorsTheModelCanRead() {
        McpSchema.CallToolResult bad = client.callTool(new McpSchema.CallToolRequest("diagnose_job", Map.of("job_id", "1; scancel 5")));
        assertThat(bad.isError()).isTrue();
        assertThat(text(bad)).contains("is not a SLURM job id");
        McpSchema.CallToolResult missing = client.callTool(new McpSchema.CallToolRequest("diagnose_job", Map.of()));
        assertThat(missing.isError()).isTrue();
        assertThat(text(missing)).contains("job_id");
    }
}
