package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.slurmwise.Slurmwise;
import io.slurmwise.backend.BackendException;
import io.slurmwise.config.Settings;
import io.slurmwise.config.SettingsException;
import io.slurmwise.mcp.stdio.Shown;
import io.slurmwise.mcp.stdio.StdioLimits;
import io.slurmwise.mcp.stdio.StdioTransport;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The read-only MCP server (stdio) over the slurmwise API: every tool is annotated read-only and none can
 * submit, cancel, requeue or edit anything. Tool definitions (name, description, input schema) are data in
 * {@code io/slurmwise/mcp/tools/*.json}; their handlers are {@link SlurmwiseTools}.
 *
 * <pre>{@code
 * Slurmwise sw = Slurmwise.open(settings, System.err::println);
 * SlurmwiseMcpServer.serve(new SlurmwiseTools(sw), sw.taxonomy(), System.in, System.out);  // until stdin closes
 * }</pre>
 * No input stops it: protocol faults get JSON-RPC errors and bad arguments tool errors, calls beyond the work
 * queue are answered "busy, retry", and it returns within {@link StdioLimits#drain()} of stdin closing
 * ({@link StdioTransport} has the bounds).
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
        Settings settings = Settings.fromEnvironment();
        StdioLimits limits;
        try {
            limits = StdioLimits.from(settings);
        } catch (SettingsException e) {
            System.err.println("slurmwise: " + e.getMessage());
            System.exit(6);  // the CLI's exit code of an invalid configuration
            return;
        }
        try (Slurmwise sw = Slurmwise.open(settings, m -> System.err.println("slurmwise: " + m))) {
            serve(new SlurmwiseTools(sw), sw.taxonomy(), limits, System.in, System.out);
        }
        System.exit(0);  // a call still running after stdin closed (a hung sacct) must not hold the process
    }

    /**
     * Serves MCP over the given streams until the input closes. Nothing else may write to {@code out}: when it is
     * {@code System.out}, {@code System.out} is pointed at stderr while serving, so a stray print cannot break the
     * protocol.
     */
    public static void serve(SlurmwiseTools tools, InputStream in, OutputStream out) {
        serve(tools, null, in, out);
    }

    /**
     * As {@link #serve(SlurmwiseTools, InputStream, OutputStream)}, with the failure kinds' notes as resources
     * ({@code slurmwise://knowledge/<kind>}, {@code slurmwise://taxonomy}) when {@code taxonomy} is given.
     */
    public static void serve(SlurmwiseTools tools, io.slurmwise.taxonomy.Taxonomy taxonomy, InputStream in, OutputStream out) {
        serve(tools, taxonomy, StdioLimits.DEFAULT, in, out);
    }

    /**
     * As {@link #serve(SlurmwiseTools, io.slurmwise.taxonomy.Taxonomy, InputStream, OutputStream)} within
     * {@code limits} ({@link StdioLimits#from(Settings)} reads the per-call time limit from the environment).
     */
    public static void serve(SlurmwiseTools tools, io.slurmwise.taxonomy.Taxonomy taxonomy, StdioLimits limits,
                             InputStream in, OutputStream out) {
        McpJsonMapper mapper = new JacksonMcpJsonMapper(JSON);
        PrintStream stray = System.out;
        boolean stdout = out == stray;
        Catalog catalog = taxonomy == null ? null : new Catalog(taxonomy);
        io.slurmwise.mcp.stdio.Offer offer = new io.slurmwise.mcp.stdio.Offer(tools.handlers().keySet(),
                Catalog.prompts().stream().map(Catalog.Prompt::name).collect(java.util.stream.Collectors.toCollection(
                        java.util.LinkedHashSet::new)),
                catalog == null ? List.of() : List.of(Catalog.TAXONOMY, Catalog.KNOWLEDGE));
        StdioTransport transport = new StdioTransport(mapper, in, stdout ? new FileOutputStream(FileDescriptor.out) : out,
                limits, m -> System.err.println("slurmwise mcp: " + m), offer);
        McpServer.SyncSpecification<?> spec = McpServer.sync(transport)
                .serverInfo("slurmwise", version())
                .instructions("Read-only SLURM failure diagnosis. To find jobs: list_jobs (newest first; states="
                        + "FAILED,TIMEOUT,OUT_OF_MEMORY for failures). Why a job failed: diagnose_job (job_id, or "
                        + "last_failed=N). More log context: read_job_log. The sbatch change: suggest_patch (never "
                        + "applied). Pending: explain_pending and partition_limits. Right-sizing: job_efficiency. "
                        + "A pasted log: classify_log; how-to: search_knowledge; the taxonomy: failure_kinds; what "
                        + "failures cost: fleet_stats. The cause in a diagnosis is decided by rules: report it as given.")
                // calls run on the transport's bounded workers, not on an unbounded scheduler
                .immediateExecution(true)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false)
                        .prompts(false).build())
                // the handlers read arguments leniently (a numeric job id, "3" for 3) and say what to send
                // instead; the SDK's schema check would refuse them with a type error
                .validateToolInputs(false)
                .tools(specifications(tools, mapper))
                .prompts(prompts());
        if (catalog != null) {
            spec.resources(resources(catalog)).resourceTemplates(new McpServerFeatures.SyncResourceTemplateSpecification(
                    McpSchema.ResourceTemplate.builder(Catalog.KNOWLEDGE + "{kind}", "knowledge-note")
                            .title("A failure kind's note").mimeType("text/markdown")
                            .description("The fix note of one failure kind (cause, what to check, fixes, prevention);"
                                    + " the kinds are in slurmwise://taxonomy").build(),
                    (exchange, request) -> read(catalog, request.uri())));
        }
        McpSyncServer server = spec.build();
        if (stdout) {
            System.setOut(System.err);
        }
        try {
            transport.run();
        } finally {
            if (stdout) {
                System.setOut(stray);
            }
            server.close();
        }
    }

    static List<McpServerFeatures.SyncToolSpecification> specifications(SlurmwiseTools tools, McpJsonMapper mapper) {
        Map<String, Function<Map<String, Object>, ToolAnswer>> handlers = tools.handlers();
        List<McpServerFeatures.SyncToolSpecification> specs = new ArrayList<>();
        for (ToolDefinition def : ToolDefinition.all()) {
            Function<Map<String, Object>, ToolAnswer> handler = handlers.get(def.name());
            specs.add(McpServerFeatures.SyncToolSpecification.builder()
                    .tool(tool(def, mapper))
                    .callHandler((exchange, request) -> call(handler, request.arguments()))
                    .build());
        }
        return specs;
    }

    /** The JSON first (compact: it is read by programs and models), then the short text form. */
    private static McpSchema.CallToolResult call(Function<Map<String, Object>, ToolAnswer> handler, Map<String, Object> args) {
        try {
            ToolAnswer a = handler.apply(args == null ? Map.of() : args);
            // no one field, nor the text form, longer than a field can sensibly be, whatever a record holds; both
            // parts together within the answer's budget
            Bounded.Parts parts = Bounded.parts(a);
            return McpSchema.CallToolResult.builder().addTextContent(parts.json()).addTextContent(parts.text())
                    .isError(false).build();
        } catch (IllegalArgumentException | BackendException e) {
            // an error may quote what the client sent: its control characters (terminal escapes) are not echoed
            return McpSchema.CallToolResult.builder().addTextContent(Bounded.capped(Shown.lines(e.getMessage()),
                    Bounded.MAX_FIELD_CHARS)).isError(true).build();
        } catch (RuntimeException e) {
            // a fault of slurmwise itself: one line the model can report, never a trace
            return McpSchema.CallToolResult.builder().addTextContent("slurmwise failed on this call ("
                    + e.getClass().getSimpleName() + ": " + ArgumentLimits.quote(String.valueOf(e.getMessage()))
                    + "); please report it").isError(true).build();
        }
    }

    private static List<McpServerFeatures.SyncResourceSpecification> resources(Catalog catalog) {
        List<McpServerFeatures.SyncResourceSpecification> out = new ArrayList<>();
        out.add(new McpServerFeatures.SyncResourceSpecification(McpSchema.Resource.builder()
                .uri(Catalog.TAXONOMY).name("taxonomy").title("Failure taxonomy").mimeType("application/json")
                .description("Every failure kind slurmwise diagnoses: id, title, category, parent").build(),
                (exchange, request) -> read(catalog, request.uri())));
        for (io.slurmwise.taxonomy.FailureKind k : catalog.kinds()) {
            out.add(new McpServerFeatures.SyncResourceSpecification(McpSchema.Resource.builder()
                    .uri(Catalog.KNOWLEDGE + k.id()).name(k.id()).title(k.title()).mimeType("text/markdown")
                    .description("Fix note: " + k.title()).build(),
                    (exchange, request) -> read(catalog, request.uri())));
        }
        return out;
    }

    private static McpSchema.ReadResourceResult read(Catalog catalog, String uri) {
        // -32002, as for a URI no template matches: a note's URI with an unknown kind is a resource not found
        String text = catalog.read(uri).orElseThrow(() -> McpError.builder(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND)
                .message("no resource " + uri + "; the notes are " + Catalog.KNOWLEDGE + "<kind> (lower case, as"
                        + " written) for the kinds in " + Catalog.TAXONOMY).data(Map.of("uri", uri)).build());
        String mime = uri.equals(Catalog.TAXONOMY) ? "application/json" : "text/markdown";
        return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(uri, mime, text)));
    }

    private static List<McpServerFeatures.SyncPromptSpecification> prompts() {
        List<McpServerFeatures.SyncPromptSpecification> out = new ArrayList<>();
        for (Catalog.Prompt p : Catalog.prompts()) {
            List<McpSchema.PromptArgument> args = p.arguments().stream()
                    .map(a -> new McpSchema.PromptArgument(a.name(), a.description(), a.required())).toList();
            out.add(new McpServerFeatures.SyncPromptSpecification(
                    new McpSchema.Prompt(p.name(), p.title(), p.description(), args),
                    (exchange, request) -> new McpSchema.GetPromptResult(p.description(), List.of(
                            new McpSchema.PromptMessage(McpSchema.Role.USER, new McpSchema.TextContent(
                                    rendered(p, request.arguments())))))));
        }
        return out;
    }

    /** A prompt with its arguments filled in; a bad argument is -32602 saying which, not an internal error. */
    private static String rendered(Catalog.Prompt p, Map<String, Object> args) {
        try {
            return Catalog.render(p, args, java.time.LocalDate.now());
        } catch (RuntimeException e) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message("prompt " + p.name() + ": "
                    + e.getMessage()).build();
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
}
