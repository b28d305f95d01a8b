package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.slurmwise.mcp.RawMcpClient.request;
import static io.slurmwise.mcp.RawMcpClient.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MCP server (a separate process, 256 MB heap, mock cluster) under the two ends of a client that misbehaves
 * with time: one that closes stdin while calls are still running, and one that stops reading its answers.
 */
class McpBackpressureTest {

    static final Duration WAIT = Duration.ofSeconds(120);

    static String calls(String prefix, int n, String tool, Map<String, Object> args, List<String> ids) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            ids.add(prefix + i);
            b.append(toolCall(prefix + i, tool, args)).append('\n');
        }
        return b.toString();
    }

    @Test
    void stdinClosedWhileCallsRunEndsTheServerWithinSeconds() throws Exception {
        try (RawMcpClient server = RawMcpClient.start("inflight-home", true)) {
            // a sloppy client that never sends notifications/initialized is served all the same
            server.initialize(false);
            List<String> ids = new ArrayList<>();
            server.sendBytes(calls("f", 200, "diagnose_job", Map.of("job_id", "1001"), ids).getBytes(StandardCharsets.UTF_8));
            long exitMs = server.closeAndTimeExit(Duration.ofSeconds(15));
            long answered = ids.stream().filter(id -> server.answer(id) != null).count();
            System.out.printf("stdin closed with 200 diagnose_job calls sent: exit after %d ms, %d answered before it%n",
                    exitMs, answered);
            assertThat(exitMs).as("ended within 15 s of stdin closing; stderr: " + server.stderr()).isBetween(0L, 15_000L);
            assertThat(server.impureLines()).isEmpty();
            ids.stream().map(server::answer).filter(a -> a != null).forEach(a -> assertThat(a.has("result")
                    || a.at("/error/code").asInt() == -32000).as(a.toString()).isTrue());
        }
    }

    @Test
    void aClientThatStopsReadingHoldsTheServerAtAFixedSizeAndLosesNoAnswer() throws Exception {
        try (RawMcpClient server = RawMcpClient.start("unread-home", true)) {
            server.initialize(true);
            server.pauseReading();
            List<String> ids = new ArrayList<>();
            // answers of ~55 KB (every mock job in full), in two waves: the second runs into the 16 MiB of unread
            // output the server holds, so its calls wait for the client instead of piling up
            Map<String, Object> big = Map.of("limit", 500, "full", true, "max_bytes", 262_144);
            server.sendBytes(calls("u", 200, "list_jobs", big, ids).getBytes(StandardCharsets.UTF_8));
            long stalled = waitUntilIdle(server);
            long rssFirst = server.rssMiB();
            server.sendBytes(calls("v", 200, "list_jobs", big, ids).getBytes(StandardCharsets.UTF_8));
            stalled += waitUntilIdle(server);
            long rss = server.rssMiB();
            long peak = server.peakRssMiB();
            assertThat(server.alive()).isTrue();
            server.resumeReading();
            server.awaitAll(ids, WAIT);
            int results = 0;
            int busy = 0;
            long bytes = 0;
            for (String id : ids) {
                JsonNode a = server.answer(id);
                if (a.has("result")) {
                    assertThat(a.at("/result/isError").asBoolean()).as(a.toString()).isFalse();
                    results++;
                    bytes += server.answerBytes(id);
                } else {
                    assertThat(a.at("/error/code").asInt()).as(a.toString()).isEqualTo(-32000);
                    busy++;
                }
            }
            assertThat(server.call("after", "ping", null, WAIT).has("result")).isTrue();
            long exitMs = server.closeAndTimeExit(Duration.ofSeconds(15));
            System.out.printf("a client that stopped reading: 2 x 200 list_jobs calls (%d MiB of answers), the server "
                            + "idle after %d ms at %d then %d MiB resident (peak %d MiB, -Xmx256m); then read: %d results, "
                            + "%d busy, none lost; exit %d ms after stdin closed%n", bytes >> 20, stalled, rssFirst, rss,
                    peak, results, busy, exitMs);
            assertThat(results + busy).isEqualTo(400);
            assertThat(bytes).as("more answers than the server holds unread").isGreaterThan(16L << 20);
            assertThat(results).isGreaterThanOrEqualTo(256);
            assertThat(server.impureLines()).isEmpty();
            assertThat(exitMs).isBetween(0L, 15_000L);
        }
    }

    @Test
    void aClientThatClosesItsEndInTheMiddleOfItsAnswersEndsTheServer() throws Exception {
        try (RawMcpClient server = RawMcpClient.start("gone-home", false)) {
            // never read: the initialize answer and the first answers fill the pipe, the rest wait in the server
            com.fasterxml.jackson.databind.node.ObjectNode init = RawMcpClient.JSON.createObjectNode()
                    .put("protocolVersion", "2025-06-18");
            init.putObject("capabilities");
            init.putObject("clientInfo").put("name", "gone").put("version", "1");
            server.send(request("init", "initialize", init));
            List<String> ids = new ArrayList<>();
            server.sendBytes(calls("g", 50, "list_jobs", Map.of("limit", 500, "full", true, "max_bytes", 262_144), ids)
                    .getBytes(StandardCharsets.UTF_8));
            waitUntilIdle(server);
            assertThat(server.alive()).as("blocked on its answers, not gone").isTrue();
            server.closeStdout();
            // stdin stays open: only the closed stdout can tell the server that its client is gone
            Integer code = server.exitWithin(Duration.ofSeconds(60));
            assertThat(code).as("the server ended; stderr: " + server.stderr()).isNotNull();
            assertThat(server.stderr()).contains("stdout closed: the client is gone; stopping")
                    .doesNotContain("Exception", "\tat ");
        }
    }

    /** Waits until the server stops using CPU (its answers wait for the client): the milliseconds it took. */
    static long waitUntilIdle(RawMcpClient server) throws InterruptedException {
        long t0 = System.nanoTime();
        long last = server.cpuTicks();
        int quiet = 0;
        while (quiet < 3 && System.nanoTime() - t0 < 60_000_000_000L) {
            Thread.sleep(500);
            long now = server.cpuTicks();
            quiet = now - last <= 2 ? quiet + 1 : 0;
            last = now;
        }
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
