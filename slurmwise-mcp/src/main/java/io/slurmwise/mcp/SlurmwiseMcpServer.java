package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.slurmwise.Slurmwise;
import io.slurmwise.backend.BackendException;
import io.slurmwise.config.Settings;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

/**
 * The read-only MCP server (stdio) over the slurmwise API: every tool is annotated read-only and none can
 * submit, cancel, requeue or edit anything. Tool definitions (name, description, input schema) are data in
 * {@code io/slurmwise/mcp/tools/*.json}; their handlers are {@link SlurmwiseTools}.
 *
 * <pre>{@code
 * Slurmwise sw = Slurmwise.open(settings, System.err::println);
 * SlurmwiseMcpServer.serve(new SlurmwiseTools(sw), System.in, System.out);   // until stdin closes
 * }</pre>
 */
public final class SlurmwiseMcpServer {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SlurmwiseMcpServer() {
    }

    /**
     * Entry point for MCP clients that start the server with a plain java command: wired by the same composition
     * root as {@code slurmwise mcp} and the CLI ({@link Slurmwise#open}), so it answers as they do with the same jars
     * on the classpath. Notices go to stderr (stdout is the protocol's).
     */
    public static void main(String[] args) {
        try (Slurmwise sw = Slurmwise.open(Settings.fromEnvironment(), m -> System.err.println("slurmwise: " + m))) {
            serve(new SlurmwiseTools(sw), System.in, System.out);
        }
    }

    /** Serves MCP over the given streams until the input closes. Nothing else may write to {@code out}. */
    public static void serve(SlurmwiseTools tools, InputStream in, OutputStream out) {
        McpJsonMapper mapper = new JacksonMcpJsonMapper(JSON);
        EofWatch watch = new EofWatch(in);
        StdioServerTransportProvider transport = new StdioServerTransportProvider(mapper, watch, out);
        McpSyncServer server = McpServer.sync(transport)
                .serverInfo("slurmwise", version())
                .instructions("Read-only SLURM failure diagnosis. Call diagnose_job for a job id; list_jobs to find "
                        + "failed jobs; classify_log for a pasted log; failure_kinds for the taxonomy and its fixes; "
                        + "fleet_stats for what failures cost (estimates, by kind, partition, user and day). "
                        + "The cause in a diagnosis is decided by rules: report it as given.")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(specifications(tools, mapper))
                .build();
        try {
            watch.await();
        } finally {
            server.closeGracefully();
        }
    }

    static List<McpServerFeatures.SyncToolSpecification> specifications(SlurmwiseTools tools, McpJsonMapper mapper) {
        Map<String, Function<Map<String, Object>, Object>> handlers = tools.handlers();
        List<McpServerFeatures.SyncToolSpecification> specs = new ArrayList<>();
        for (ToolDefinition def : ToolDefinition.all()) {
            Function<Map<String, Object>, Object> handler = handlers.get(def.name());
            specs.add(McpServerFeatures.SyncToolSpecification.builder()
                    .tool(tool(def, mapper))
                    .callHandler((exchange, request) -> call(handler, request.arguments()))
                    .build());
        }
        return specs;
    }

    private static McpSchema.CallToolResult call(Function<Map<String, Object>, Object> handler, Map<String, Object> args) {
        try {
            String json = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(handler.apply(args == null ? Map.of() : args));
            return McpSchema.CallToolResult.builder().addTextContent(json).isError(false).build();
        } catch (IllegalArgumentException | BackendException e) {
            return McpSchema.CallToolResult.builder().addTextContent(e.getMessage()).isError(true).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static McpSchema.Tool tool(ToolDefinition def, McpJsonMapper mapper) {
        try {
            return McpSchema.Tool.builder(def.name(), mapper, JSON.writeValueAsString(def.inputSchema()))
                    .title(def.title())
                    .description(def.description())
                    .annotations(new McpSchema.ToolAnnotations(def.title(), true, false, true, false, null))
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String version() {
        String v = SlurmwiseMcpServer.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    /** Lets the serving thread wait until the client closes stdin. */
    static final class EofWatch extends InputStream {
        private final InputStream in;
        private final CountDownLatch eof = new CountDownLatch(1);

        EofWatch(InputStream in) {
            this.in = in;
        }

        void await() {
            try {
                eof.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b < 0) {
                eof.countDown();
            }
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = in.read(buf, off, len);
            if (n < 0) {
                eof.countDown();
            }
            return n;
        }
    }
}
