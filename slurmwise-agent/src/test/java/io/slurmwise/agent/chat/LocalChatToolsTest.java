package io.slurmwise.agent.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.Slurmwise;
import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.diagnose.Explanation;
import io.slurmwise.mcp.SlurmwiseTools;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-process chat reads a tool's JSON bounded as the MCP server bounds it, in one place (the server's own
 * bounding): each field cut, and the whole within the answer's share of 16 KB, not only each field (an answer of
 * several 16 K-character fields reached a model in process at three times what it read over MCP).
 */
class LocalChatToolsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aToolAnswerIsCutWholeAsTheServerCutsIt() throws Exception {
        String huge = "the job ran out of memory. ".repeat(200_000);
        try (Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled())
                .explainer((job, finding, fixes) -> new Explanation(huge, "llm:huge")).build()) {
            SlurmwiseTools tools = new SlurmwiseTools(sw, "backend mock");
            Object answer = new LocalChatTools(tools).call("diagnose_job", Map.of("job_id", "1001"));
            JsonNode whole = JSON.valueToTree(tools.call("diagnose_job", Map.of("job_id", "1001")).json());
            byte[] bytes = JSON.writeValueAsBytes(answer);
            JsonNode json = JSON.readTree(bytes);
            // the JSON's share of a 16 KiB answer: all of it but the 2 KiB kept for the text form
            assertThat(bytes.length).isLessThanOrEqualTo(16 * 1024 - 2 * 1024);
            int cutTo = json.get("fields_cut_to").asInt();
            assertThat(cutTo).isBetween(64, Explanation.MAX_CHARS - 1);
            String text = json.at("/explanation/text").asText();
            assertThat(text).startsWith("the job ran out of memory.").endsWith("more characters cut]");
            assertThat(text.length()).isLessThan(cutTo + 40);
            // the facts beside it stay whole
            assertThat(json.get("job_id").asText()).isEqualTo("1001");
            assertThat(json.at("/finding/kind").asText()).isNotBlank().isEqualTo(whole.at("/finding/kind").asText());
            // the tool's own answer carries the explanation at its per-field length: the whole answer cut it further
            assertThat(whole.at("/explanation/text").asText().length()).isGreaterThan(text.length() + 1000);
        }
    }

    @Test
    void anAnswerThatFitsIsHandedOnWhole() throws Exception {
        try (Slurmwise sw = Slurmwise.builder().backend(MockBackend.bundled()).build()) {
            SlurmwiseTools tools = new SlurmwiseTools(sw, "backend mock");
            Object answer = new LocalChatTools(tools).call("get_job", Map.of("job_id", "1001"));
            JsonNode handed = JSON.valueToTree(answer);
            JsonNode whole = JSON.valueToTree(tools.call("get_job", Map.of("job_id", "1001")).json());
            assertThat(handed).isEqualTo(whole);
        }
    }
}
