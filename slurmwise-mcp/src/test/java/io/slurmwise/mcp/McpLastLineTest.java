package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that sends its last message without a newline and closes stdin (a script's {@code printf '%s' "$msg"}): the
 * server reads that cut line as a message and answers it before it exits (an outside audit found it dropped in
 * silence), and one it cannot read is answered as any malformed line is, and said on stderr.
 */
class McpLastLineTest {

    @Test
    void aLastMessageWithoutANewlineIsAnsweredBeforeTheServerExits() throws Exception {
        try (RawMcpClient c = RawMcpClient.start("mcp-last-line", true)) {
            c.initialize(true);
            c.sendBytes(RawMcpClient.toolCall("last", "get_job", Map.of("job_id", "1001"))
                    .getBytes(StandardCharsets.UTF_8));
            long ms = c.closeAndTimeExit(Duration.ofSeconds(30));
            assertThat(ms).as("exited; stderr: " + c.stderr()).isNotNegative();
            JsonNode answer = c.answer("last");
            assertThat(answer).as("stderr: " + c.stderr()).isNotNull();
            assertThat(answer.at("/result/isError").asBoolean()).isFalse();
            assertThat(answer.at("/result/content/0/text").asText()).contains("\"id\":\"1001\"");
            assertThat(c.impureLines()).isEmpty();
            assertThat(c.stderr()).contains("stdin closed in the middle of a message (" + RawMcpClient.toolCall("last",
                    "get_job", Map.of("job_id", "1001")).length() + " bytes after the last newline): read as the last"
                    + " message");
        }
    }

    @Test
    void aCutMessageItCannotReadIsAnsweredAndSaidOnStderr() throws Exception {
        try (RawMcpClient c = RawMcpClient.start("mcp-last-line-cut", true)) {
            c.initialize(true);
            String whole = RawMcpClient.toolCall("cut", "get_job", Map.of("job_id", "1001"));
            c.sendBytes(whole.substring(0, whole.length() / 2).getBytes(StandardCharsets.UTF_8));
            long ms = c.closeAndTimeExit(Duration.ofSeconds(30));
            assertThat(ms).as("exited; stderr: " + c.stderr()).isNotNegative();
            assertThat(c.nullIdAnswers()).as("stderr: " + c.stderr()).singleElement()
                    .satisfies(a -> assertThat(a.at("/error/code").asInt()).isEqualTo(-32700));
            assertThat(c.stderr()).contains("stdin closed in the middle of a message (" + whole.length() / 2
                    + " bytes after the last newline): it is not a whole JSON-RPC message and was answered as a"
                    + " malformed one");
        }
    }
}
