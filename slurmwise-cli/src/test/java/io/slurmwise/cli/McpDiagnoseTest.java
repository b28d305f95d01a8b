package io.slurmwise.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import static io.slurmwise.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code diagnose --mcp-server}: the same diagnosis through a real MCP client talking to {@code slurmwise mcp}. */
class McpDiagnoseTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** {@code slurmwise mcp} as a separate process, with the test's settings. */
    private static String server(Path home) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return "env SLURMWISE_BACKEND=mock SLURMWISE_NO_LLM=1 SLURMWISE_HOME=" + home + " " + java + " -cp "
                + System.getProperty("java.class.path") + " io.slurmwise.cli.Main mcp";
    }

    /**
     * The mock cluster anchors its times to "now" (to the minute): the server, started in another process, may see
     * them shifted by one minute. The clock is not what this test compares.
     */
    private static JsonNode timeless(JsonNode diagnosis) throws IOException {
        return JSON.readTree(JSON.writeValueAsString(diagnosis)
                .replaceAll("\\d{4}-\\d\\d-\\d\\d[T ]\\d\\d:\\d\\d(:\\d\\d)?", "<time>")
                // the time left until a maintenance window starts is counted from "now" too (1052)
                .replaceAll("at most [\\d:-]+ \\(until the window starts\\)", "at most <left> (until the window starts)"));
    }

    @Test
    void theMcpServerGivesTheSameJsonAsInProcess(@TempDir Path home) throws IOException {
        Map<String, String> env = Map.of("SLURMWISE_HOME", home.toString());
        for (String job : new String[] {"1001", "22542799", "1055"}) {
            CliTest.Result local = run(env, false, "diagnose", job, "--json");
            CliTest.Result remote = run(env, false, "diagnose", job, "--json", "--mcp-server", server(home));
            assertThat(remote.code()).as(remote.err()).isZero();
            JsonNode a = timeless(local.json());
            JsonNode b = timeless(remote.json());
            // the MCP tool keeps its answers bounded: it leaves out the whole patched script (the diff is there),
            // a failed job's and a pending job's alike (1055)
            if (a.path("patch").isObject()) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) a.get("patch")).remove("patched_script");
            }
            if (a.path("pending").path("patch").isObject()) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) a.get("pending").get("patch")).remove("patched_script");
            }
            assertThat(b).as(job).isEqualTo(a);
        }
        CliTest.Result text = run(env, false, "diagnose", "1001", "--mcp-server", server(home));
        assertThat(text.out()).contains("(oom)").contains("+#SBATCH --mem=48G").contains("through the MCP server");
    }

    /**
     * {@code --patch} through the server prints the diff it prints in process, also for a pending job that can never
     * start (its patch is under {@code pending}, not at the top of the diagnosis), and says why when there is none.
     */
    @Test
    void thePatchThroughTheMcpServerIsTheSameAsInProcess(@TempDir Path home) {
        Map<String, String> env = Map.of("SLURMWISE_HOME", home.toString());
        for (String job : new String[] {"1001", "1055", "1057"}) {
            CliTest.Result local = run(env, false, "diagnose", job, "--patch");
            CliTest.Result remote = run(env, false, "diagnose", job, "--patch", "--mcp-server", server(home));
            assertThat(local.code()).as(local.err()).isZero();
            assertThat(remote.code()).as(job + ": " + remote.err()).isZero();
            assertThat(remote.out()).as(job).startsWith("--- a/" + job + ".sh").isEqualTo(local.out());
        }
        CliTest.Result waits = run(env, false, "diagnose", "1061", "--patch", "--mcp-server", server(home));
        assertThat(waits.code()).isEqualTo(7);
        assertThat(waits.out()).isEmpty();
        assertThat(waits.err()).isEqualTo(run(env, false, "diagnose", "1061", "--patch").err())
                .contains("no patch for job 1061: no patch applies to this job's state");
    }

    @Test
    void aServerThatDoesNotStartIsABackendError() {
        CliTest.Result r = run("diagnose", "1001", "--mcp-server", "/nonexistent/slurmwise mcp");
        assertThat(r.code()).isEqualTo(4);
        assertThat(StderrText.text(r.err())).contains("did not start").hasLineCount(1);
    }

    @Test
    void directKeepsTheKnowledgeBaseAndRulesOnlyIsTheFastPath() {
        CliTest.Result direct = run("diagnose", "22542799", "--no-llm", "--direct");
        assertThat(direct.code()).isZero();
        assertThat(direct.out()).contains("rules + kb");
        CliTest.Result rules = run("diagnose", "22542799", "--rules-only");
        assertThat(rules.code()).isZero();
        assertThat(rules.out()).contains("╰─ rules ·").doesNotContain("rules + kb");
    }
}
