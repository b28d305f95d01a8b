package io.slurmwise.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.agent.chat.McpChatTools;
import io.slurmwise.mcp.SlurmwiseMcpServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One composition root: {@code slurmwise mcp} (and the MCP server's own main) answer {@code diagnose_job} exactly as
 * {@code slurmwise diagnose --json} does, for every job of the mock cluster, with the knowledge base in all three
 * (hashed-word embeddings, so no model has to load; no language model).
 */
class McpParityTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path HOME = Path.of("target", "mcp-parity-home").toAbsolutePath();
    private static final Map<String, String> ENV = Map.of("SLURMWISE_BACKEND", "mock", "SLURMWISE_EMBEDDINGS", "hash",
            "SLURMWISE_NO_LLM", "1", "SLURMWISE_HOME", HOME.toString());

    private static JsonNode cli(String... args) throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err), ENV, false);
        assertThat(code).as(String.join(" ", args) + ": " + err).isIn(0, 3);
        return JSON.readTree(out.toString());
    }

    /**
     * The bundled mock cluster moves its timestamps so that its newest job ended five minutes before "now" (to the
     * minute), its logs' too: a process started in another minute sees every time shifted by one. The clock is not
     * the wiring.
     */
    private static JsonNode timeless(Object diagnosis) throws IOException {
        return JSON.readTree(JSON.writeValueAsString(diagnosis)
                .replaceAll("\\d{4}-\\d\\d-\\d\\d[T ]\\d\\d:\\d\\d(:\\d\\d)?", "<time>")
                // the time left until a maintenance window starts is counted from "now" too (1052)
                .replaceAll("at most [\\d:-]+ \\(until the window starts\\)", "at most <left> (until the window starts)"));
    }

    /**
     * diagnose_job leaves out the patched script (suggest_patch gives it) to keep answers bounded: the one documented
     * difference from {@code diagnose --json}.
     */
    private static JsonNode asMcpSendsIt(JsonNode cliDiagnosis) {
        JsonNode patch = cliDiagnosis.path("patch");
        if (patch instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
            o.remove("patched_script");
        }
        // a pending job's patch alike (1055-1057)
        if (cliDiagnosis.path("pending").path("patch") instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
            o.remove("patched_script");
        }
        return cliDiagnosis;
    }

    private static List<String> server(String mainClass, String... args) {
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/env"));
        ENV.forEach((k, v) -> cmd.add(k + "=" + v));
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(List.of(args));
        return cmd;
    }

    @Test
    void everyMockJobIsDiagnosedAlikeByTheCliAndBothMcpEntryPoints() throws IOException {
        List<String> ids = new ArrayList<>();
        cli("jobs", "--json", "--since", "2000-01-01").path("jobs").forEach(j -> ids.add(j.path("id").asText()));
        assertThat(ids).hasSizeGreaterThan(60);
        Map<String, JsonNode> byCli = new java.util.LinkedHashMap<>();
        for (String id : ids) {
            // the first one builds the index the servers then share
            byCli.put(id, cli("diagnose", id, "--json"));
        }
        assertThat(byCli.values()).anySatisfy(d -> assertThat(d.toString()).contains("rules + kb"));
        try (McpChatTools slurmwiseMcp = McpChatTools.start(server(Main.class.getName(), "mcp"), Duration.ofSeconds(60));
             McpChatTools serverMain = McpChatTools.start(server(SlurmwiseMcpServer.class.getName()), Duration.ofSeconds(60))) {
            for (String id : ids) {
                JsonNode cli = asMcpSendsIt(timeless(byCli.get(id)));
                assertThat(timeless(slurmwiseMcp.call("diagnose_job", Map.of("job_id", id))))
                        .as("slurmwise mcp, job " + id).isEqualTo(cli);
                assertThat(timeless(serverMain.call("diagnose_job", Map.of("job_id", id))))
                        .as("SlurmwiseMcpServer.main, job " + id).isEqualTo(cli);
            }
        }
    }
}
