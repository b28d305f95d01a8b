package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;

import static io.slurmwise.mcp.MockCluster.JSON;
import static io.slurmwise.mcp.MockCluster.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job's record names its own log files, and its user chose them ({@code sbatch -o /etc/shadow}). The server, run
 * by root in CI as an admin might run it, reads a log only when the file belongs to the job's user: over MCP, a
 * job whose StdOut points at a root-owned file is refused, and the file's text never reaches the client.
 */
class LogOwnershipTest {

    private static String row(String id, String user, String out) {
        return id + "|steal|" + user + "|lab|cpu|normal|FAILED|1:0|0:0|2026-11-20T10:00:00|2026-11-20T10:00:05|"
                + "2026-11-20T10:01:00|00:00:55|01:00:00|4G||4|billing=4,cpu=4,mem=4G,node=1|n01|00:00:10||/tmp|"
                + out + "|" + out + "|None";
    }

    @Test
    void aLogThatIsNotTheJobUsersFileIsRefused(@TempDir Path dir) throws Exception {
        String me = System.getProperty("user.name");
        Path own = dir.resolve("own.out");
        Files.writeString(own, "Traceback (most recent call last):\nMemoryError\n");
        Path link = dir.resolve("innocent.out");
        Files.createSymbolicLink(link, Path.of("/etc/shadow"));
        Path fifo = dir.resolve("fifo.out");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        // a record whose job name and work dir are 300 KB each (an outside audit: answers of megabytes)
        String huge = row("7006", me, own.toString()).replace("|steal|", "|" + "n".repeat(300_000) + "|")
                .replace("|/tmp|", "|/" + "w".repeat(300_000) + "|");
        MockCluster.export(dir, row("7001", "alice", "/etc/shadow"), row("7002", "alice", link.toString()),
                row("7003", me, own.toString()), row("7004", me, "/dev/zero"), row("7005", me, fifo.toString()), huge);
        McpSyncClient client = MockCluster.client(dir, dir.resolve("home"));
        try {
            String shadow = Files.isReadable(Path.of("/etc/shadow")) ? Files.readString(Path.of("/etc/shadow")) : "";
            for (String id : new String[] {"7001", "7002"}) {
                JsonNode log = result(client, "read_job_log", Map.of("job_id", id));
                assertThat(log.at("/logs/0/problem").asText()).contains("refusing to read")
                        .contains("not to the job's user alice");
                assertThat(log.at("/logs/0/text").asText()).isEmpty();
                JsonNode d = result(client, "diagnose_job", Map.of("job_id", id));
                assertThat(d.at("/logs/0/problem").asText()).contains("refusing to read");
                assertThat(d.at("/logs/0/bytes_read").asInt()).isZero();
                if (!shadow.isBlank()) {
                    // not a line of the file, anywhere in either answer
                    String firstLine = shadow.lines().findFirst().orElseThrow();
                    assertThat(log.toString()).doesNotContain(firstLine);
                    assertThat(d.toString()).doesNotContain(firstLine);
                }
            }
            // the job user's own file is read
            JsonNode own7003 = result(client, "read_job_log", Map.of("job_id", "7003"));
            assertThat(own7003.at("/logs/0/problem").isNull()).as(own7003.toString()).isTrue();
            assertThat(own7003.at("/logs/0/text").asText()).endsWith("MemoryError");
            // a device or a pipe named as the job's log is not read: /dev/zero would be read for minutes (even after
            // the call was stopped) and a FIFO nobody writes to would leave a thread blocked in open for good
            // (a read of either would not answer within the client's 60 s: no clock is needed to see it)
            for (String id : new String[] {"7004", "7005"}) {
                JsonNode d = result(client, "diagnose_job", Map.of("job_id", id));
                assertThat(d.at("/logs/0/problem").asText()).as(id).contains("not a regular file");
                assertThat(d.at("/logs/0/bytes_read").asInt()).isZero();
            }
            // no answer is over its budget, whatever the record holds (HugeRecordTest has every field long)
            for (String tool : new String[] {"get_job", "diagnose_job", "read_job_log"}) {
                McpSchema.CallToolResult r = client.callTool(new McpSchema.CallToolRequest(tool, Map.of("job_id", "7006")));
                String all = r.content().stream().map(c -> ((McpSchema.TextContent) c).text())
                        .collect(Collectors.joining());
                assertThat(Bounded.utf8(all)).as(tool).isLessThanOrEqualTo(Bounded.DEFAULT_BYTES);
                if (!tool.equals("read_job_log")) { // it names the log's path, not the job's name or work dir
                    assertThat(all).as(tool).contains("more characters cut]");
                }
            }
        } finally {
            client.closeGracefully();
        }
    }

    /**
     * A log of 10 GB (sparse: a crashed writer's hole, then the error) costs what a small one does, and the error at
     * its end is read; a record naming the server's own /proc files (its environment, which may hold keys) gets
     * nothing of them: procfs says they are empty regular files, and the tail of an empty file is empty.
     */
    @Test
    void aTenGigabyteLogIsReadFromItsEndAndProcFilesGiveNothing(@TempDir Path dir) throws Exception {
        String me = System.getProperty("user.name");
        Path sparse = dir.resolve("sparse.out");
        long hole = 10L << 30;
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(sparse.toFile(), "rw")) {
            f.seek(hole);
            f.write("\nRuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n"
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        Path environ = dir.resolve("environ.out");
        Files.createSymbolicLink(environ, Path.of("/proc/self/environ"));
        // a log that sets the terminal's title, clears it and turns text around (a progress bar's colours alike)
        Path steering = Files.writeString(dir.resolve("steering.out"), "epoch 1\n\u001b]0;pwned\u0007\u001b[2J"
                + "\u001b[31mRuntimeError: CUDA out of memory\u001b[0m \u202eevil\n");
        MockCluster.export(dir, row("7101", me, sparse.toString()), row("7102", me, environ.toString()),
                row("7103", me, "/proc/self/environ"), row("7104", me, steering.toString()));
        McpSyncClient client = MockCluster.client(dir, dir.resolve("home"));
        try {
            McpSchema.CallToolResult r = MockCluster.ok(client, "read_job_log", Map.of("job_id", "7101"));
            JsonNode log = JSON.readTree(text(r, 0));
            assertThat(log.at("/logs/0/problem").isNull()).as(log.toString()).isTrue();
            assertThat(log.at("/logs/0/file_size").asLong()).isGreaterThan(hole);
            assertThat(log.at("/logs/0/text").asText()).endsWith("RuntimeError: CUDA out of memory. Tried to allocate"
                    + " 2.00 GiB");
            assertThat(Bounded.utf8(text(r, 0) + text(r, 1))).isLessThanOrEqualTo(Bounded.DEFAULT_BYTES);
            JsonNode d = result(client, "diagnose_job", Map.of("job_id", "7101"));
            assertThat(d.at("/finding/kind").asText()).isEqualTo("cuda_oom");
            assertThat(d.at("/logs/0/bytes_read").asLong()).isBetween(1L, (long) io.slurmwise.backend.LogTails.MAX_TAIL_BYTES);
            // the JSON keeps the log's bytes (escaped, as JSON escapes control characters); the text form, which a
            // client may print on a terminal, shows them as '?'
            McpSchema.CallToolResult esc = MockCluster.ok(client, "read_job_log", Map.of("job_id", "7104"));
            assertThat(JSON.readTree(text(esc, 0)).at("/logs/0/text").asText()).contains("\u001b]0;pwned\u0007");
            assertThat(text(esc, 1)).contains("?]0;pwned??[2J?[31mRuntimeError: CUDA out of memory?[0m ?evil")
                    .doesNotContain("\u001b", "\u0007", "\u202e");
            for (String id : new String[] {"7102", "7103"}) {
                McpSchema.CallToolResult p = MockCluster.ok(client, "read_job_log", Map.of("job_id", id));
                String all = text(p, 0) + text(p, 1);
                assertThat(JSON.readTree(text(p, 0)).at("/logs/0/text").asText()).as(id).isEmpty();
                // the server was started with SLURMWISE_HOME and SLURMWISE_MOCK_DIR in its environment
                assertThat(all).as(id).doesNotContain("SLURMWISE_HOME", "SLURMWISE_MOCK_DIR=");
                assertThat(result(client, "diagnose_job", Map.of("job_id", id)).at("/logs/0/bytes_read").asInt())
                        .as(id).isZero();
            }
        } finally {
            client.closeGracefully();
        }
    }

    private static JsonNode result(McpSyncClient client, String tool, Map<String, Object> args) throws Exception {
        return JSON.readTree(text(MockCluster.ok(client, tool, args), 0));
    }
}
