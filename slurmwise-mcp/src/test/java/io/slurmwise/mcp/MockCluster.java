package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MCP tests' cluster: a mock export written into a directory (or the bundled mock cluster), and the SDK's MCP
 * client starting {@link SlurmwiseMcpServer} on it over stdio, as a real client does.
 *
 * <pre>{@code
 * McpSyncClient c = MockCluster.client(MockCluster.export(dir, row1, row2), dir.resolve("home"));
 * JsonNode job = JSON.readTree(MockCluster.text(MockCluster.ok(c, "get_job", Map.of("job_id", "7001")), 0));
 * }</pre>
 */
final class MockCluster {

    static final ObjectMapper JSON = new ObjectMapper();
    /** The columns of the mock's sacct.psv, as {@code sacct -P --format=...} prints them. */
    static final String SACCT_HEADER = "JobID|JobName|User|Account|Partition|QOS|State|ExitCode|DerivedExitCode|Submit|"
            + "Start|End|Elapsed|Timelimit|ReqMem|MaxRSS|AllocCPUS|AllocTRES|NodeList|TotalCPU|ConsumedEnergyRaw|WorkDir|"
            + "StdOut|StdErr|Reason";
    /** partitions.psv of one partition, cpu, where the exports' jobs run. */
    static final String PARTITIONS = "PARTITION|TIMELIMIT|NODES|CPUS|MEMORY|GRES|AVAIL\n"
            + "cpu|2-00:00:00|4|64|256000|(null)|up\n";
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    private MockCluster() {
    }

    /** Writes a mock export into {@code dir}: sacct.psv of {@code rows} (each in {@link #SACCT_HEADER}'s columns). */
    static Path export(Path dir, String... rows) throws IOException {
        Files.writeString(dir.resolve("sacct.psv"), SACCT_HEADER + "\n" + String.join("\n", rows) + "\n");
        Files.writeString(dir.resolve("partitions.psv"), PARTITIONS);
        return dir;
    }

    /**
     * The SDK's client, initialized, on a server of the mock backend over {@code mockDir} (null: the bundled mock
     * cluster) with {@code home} as its SLURMWISE_HOME. The caller closes it ({@code closeGracefully}).
     */
    static McpSyncClient client(Path mockDir, Path home) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Map<String, String> env = new HashMap<>(Map.of("SLURMWISE_BACKEND", "mock",
                "SLURMWISE_HOME", home.toAbsolutePath().toString()));
        if (mockDir != null) {
            env.put("SLURMWISE_MOCK_DIR", mockDir.toString());
        }
        ServerParameters params = ServerParameters.builder(java)
                .args("-cp", System.getProperty("java.class.path"), SlurmwiseMcpServer.class.getName())
                .env(env)
                .build();
        McpSyncClient client = McpClient.sync(new StdioClientTransport(params, new JacksonMcpJsonMapper(JSON)))
                .requestTimeout(TIMEOUT).initializationTimeout(TIMEOUT).build();
        try {
            assertThat(client.initialize().serverInfo().name()).isEqualTo("slurmwise");
        } catch (RuntimeException | AssertionError e) {
            client.close(); // the server's process goes with it
            throw e;
        }
        return client;
    }

    /** Calls {@code tool}, asserting that it answered and not with an error. */
    static McpSchema.CallToolResult ok(McpSyncClient client, String tool, Map<String, Object> args) {
        McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, args));
        assertThat(r.isError()).as(tool + ": " + text(r, 0)).isFalse();
        return r;
    }

    /** The text of an answer's content {@code i}: 0 the JSON (or an error's message), 1 the text form. */
    static String text(McpSchema.CallToolResult r, int i) {
        return ((McpSchema.TextContent) r.content().get(i)).text();
    }
}
