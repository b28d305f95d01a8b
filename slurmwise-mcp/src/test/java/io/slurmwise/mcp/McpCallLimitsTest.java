package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.slurmwise.mcp.RawMcpClient.JSON;
import static io.slurmwise.mcp.RawMcpClient.request;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The MCP server (a separate process, mock cluster) with calls that hang: {@code read_job_log} on jobs whose log is
 * a FIFO the test keeps trickling into, so the call runs until the test lets it end (the log read is given up only
 * after 10 s without data, and the test writes every 200 ms). A call past {@code SLURMWISE_MCP_CALL_TIMEOUT} is
 * answered with an error and its worker freed; a cancelled call, waiting or running, gets no answer; every other call
 * gets exactly one.
 */
class McpCallLimitsTest {

    static final Duration WAIT = Duration.ofSeconds(120);
    static final int SLOW = 4;

    /** A mock export of {@link #SLOW} failed jobs 7101.. whose stdout logs are FIFOs, and one ordinary job 7200. */
    static Path cluster(Path dir) throws Exception {
        String me = System.getProperty("user.name");
        Files.createDirectories(dir.resolve("logs"));
        StringBuilder psv = new StringBuilder(MockCluster.SACCT_HEADER).append('\n');
        for (int i = 0; i <= SLOW; i++) {
            String id = i == SLOW ? "7200" : String.valueOf(7101 + i);
            Path out = dir.resolve("logs").resolve(id + ".out");
            if (i < SLOW) {
                Process p = new ProcessBuilder("mkfifo", out.toString()).inheritIO().start();
                assertThat(p.waitFor()).as("mkfifo").isZero();
            } else {
                Files.writeString(out, "Traceback (most recent call last):\nMemoryError\n");
            }
            psv.append(id).append("|job").append(i).append('|').append(me).append("|lab|cpu|normal|FAILED|1:0|0:0|")
                    .append("2026-11-20T10:00:00|2026-11-20T10:00:05|2026-11-20T10:01:00|00:00:55|01:00:00|4G||4|")
                    .append("billing=4,cpu=4,mem=4G,node=1|n01|00:00:10||/tmp|").append(out).append('|')
                    .append(out).append("|None\n");
        }
        Files.writeString(dir.resolve("sacct.psv"), psv);
        Files.writeString(dir.resolve("partitions.psv"), MockCluster.PARTITIONS);
        return dir;
    }

    static RawMcpClient server(String home, Path mock, String callTimeout) throws Exception {
        RawMcpClient s = RawMcpClient.start(home, true, Map.of("SLURMWISE_MOCK_DIR", mock.toString(),
                "SLURMWISE_MCP_CALL_TIMEOUT", callTimeout));
        s.initialize(true);
        // warm: the first call loads the mock export and the tools' classes
        assertThat(s.call("warm", "tools/call", readLog("7200"), WAIT).has("result")).isTrue();
        return s;
    }

    /** The params of a {@code read_job_log} call on the stdout log of {@code job}. */
    static ObjectNode readLog(String job) {
        ObjectNode p = JSON.createObjectNode().put("name", "read_job_log");
        p.putObject("arguments").put("job_id", job).put("stream", "stdout");
        return p;
    }

    /** Sends one slow call per worker (ids from {@code id}) and waits until every one is reading its log. */
    static void occupyWorkers(RawMcpClient s, List<Trickle> logs, java.util.function.IntFunction<Object> id)
            throws Exception {
        for (int i = 0; i < SLOW; i++) {
            s.send(slowCall(id.apply(i), i));
        }
        for (Trickle t : logs) {
            assertThat(t.opened.await(60, TimeUnit.SECONDS)).as("the slow calls run").isTrue();
        }
    }

    /** A call that reads the FIFO log of slow job {@code job}, with a string or a number as its id. */
    static String slowCall(Object id, int job) {
        ObjectNode n = JSON.createObjectNode().put("jsonrpc", "2.0").put("method", "tools/call");
        n.set("id", JSON.valueToTree(id));
        n.set("params", readLog(String.valueOf(7101 + job)));
        return n.toString();
    }

    static String cancel(String requestIdJson) {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":" + requestIdJson
                + ",\"reason\":\"the user pressed stop\"}}";
    }

    /** Every answer on its own JSON-RPC line, none twice, none with a null id, nothing else on stdout. */
    static void assertPure(RawMcpClient s) {
        assertThat(s.impureLines()).as("only JSON-RPC on stdout").isEmpty();
        assertThat(s.duplicateAnswers()).as("one answer per call").isEmpty();
        assertThat(s.nullIdAnswers()).as("notifications are not answered").isEmpty();
        assertThat(s.lines()).as("stdout lines = answers").isEqualTo(s.answered());
    }

    @Test
    void aCallPastTheTimeLimitIsAnsweredWithAnErrorItsWorkerIsFreedAndItsLateAnswerDropped(@TempDir Path dir)
            throws Exception {
        Path mock = cluster(dir);
        List<Trickle> logs = Trickle.each(mock);
        try (RawMcpClient s = server("timeout-home", mock, "1")) {
            long t0 = System.nanoTime();
            for (int i = 0; i < SLOW; i++) {
                s.send(slowCall("t" + i, i));
            }
            long slowest = 0;
            for (int i = 0; i < SLOW; i++) {
                JsonNode a = s.await("t" + i, WAIT);
                slowest = Math.max(slowest, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                assertThat(a.at("/error/code").asInt()).as(a.toString()).isEqualTo(-32001);
                assertThat(a.at("/error/message").asText()).contains("longer than 1 s")
                        .contains("SLURMWISE_MCP_CALL_TIMEOUT");
            }
            // every worker was held by a read that never ends by itself: the interrupt freed them (the reads broke)
            for (Trickle t : logs) {
                assertThat(t.broken.await(60, TimeUnit.SECONDS)).as("the log read of a timed-out call stopped").isTrue();
            }
            long t1 = System.nanoTime();
            JsonNode after = s.call("after", "tools/call", readLog("7200"), WAIT);
            long afterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1);
            assertThat(after.has("result")).as(after + "; stderr: " + s.stderr()).isTrue();
            Thread.sleep(2000);  // room for a late answer to show up, if one were sent
            System.out.printf("call timeout 1 s: %d hung calls answered -32001 within %d ms of being sent; "
                    + "the next call answered in %d ms; %d lines for %d answers%n", SLOW, slowest, afterMs,
                    s.lines(), s.answered());
            assertPure(s);
            assertThat(s.closeAndTimeExit(Duration.ofSeconds(15))).isBetween(0L, 15_000L);
        } finally {
            Trickle.stopAll(logs);
        }
    }

    @Test
    void aCancelledWaitingCallIsNeverRunNorAnsweredAndUnknownIdsAreIgnored(@TempDir Path dir) throws Exception {
        Path mock = cluster(dir);
        List<Trickle> logs = Trickle.each(mock);
        try (RawMcpClient s = server("cancel-queued-home", mock, "120")) {
            // the 4 workers run calls with the numbers 1..4 as ids; q5 and q6 wait behind them
            occupyWorkers(s, logs, i -> i + 1);
            s.send(request("q5", "tools/call", readLog("7200")));
            s.send(request("q6", "tools/call", readLog("7200")));
            s.send(cancel("\"q5\""));
            // none of these names a call in progress: the string "1" is not the number 1, 6 is not "q6"
            s.send(cancel("\"1\""));
            s.send(cancel("6"));
            s.send(cancel("\"nope\""));
            s.send(cancel("99999999999"));
            s.send(cancel("1.5"));
            s.send(cancel("{\"id\":1}"));
            s.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\"}");
            s.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{}}");
            assertThat(s.call("p", "ping", null, WAIT).has("result")).isTrue();
            Trickle.stopAll(logs);  // the slow calls end now
            List<String> ids = List.of("1", "2", "3", "4", "q6");
            s.awaitAll(ids, WAIT);
            for (String id : ids) {
                JsonNode a = s.answer(id);
                assertThat(a.has("result")).as(a.toString()).isTrue();
                assertThat(a.at("/result/isError").asBoolean()).as(a.toString()).isFalse();
            }
            // the queue is served in order: once a call sent after q5 is answered, q5 was taken and skipped
            JsonNode after = s.call("after", "tools/call", readLog("7200"), WAIT);
            assertThat(after.has("result")).isTrue();
            Thread.sleep(1000);
            assertThat(s.answer("q5")).as("a cancelled call is not answered").isNull();
            System.out.printf("cancel a waiting call: 4 running + 2 waiting, q5 cancelled: %d answers (q5 none), "
                    + "8 cancellations of no call in progress ignored%n", s.answered());
            assertPure(s);
        } finally {
            Trickle.stopAll(logs);
        }
    }

    @Test
    void aCancelledRunningCallIsStoppedUnansweredAndItsWorkerFreed(@TempDir Path dir) throws Exception {
        Path mock = cluster(dir);
        List<Trickle> logs = Trickle.each(mock);
        try (RawMcpClient s = server("cancel-running-home", mock, "120")) {
            occupyWorkers(s, logs, i -> "r" + i);
            long t0 = System.nanoTime();
            for (int i = 0; i < SLOW; i++) {
                s.send(cancel("\"r" + i + "\""));
            }
            for (Trickle t : logs) {
                assertThat(t.broken.await(60, TimeUnit.SECONDS)).as("the log read of a cancelled call stopped").isTrue();
            }
            // all 4 workers were held by reads that would run for minutes: this answer needs a freed one
            JsonNode after = s.call("after", "tools/call", readLog("7200"), WAIT);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertThat(after.has("result")).as(after.toString()).isTrue();
            Thread.sleep(2000);
            for (int i = 0; i < SLOW; i++) {
                assertThat(s.answer("r" + i)).as("a cancelled running call is not answered").isNull();
            }
            System.out.printf("cancel 4 running calls: the next call answered %d ms after the cancellations; "
                    + "no answer for the cancelled ones%n", ms);
            assertPure(s);
        } finally {
            Trickle.stopAll(logs);
        }
    }

    /** Writes a byte every 200 ms into one FIFO once its reader opened it, until stopped or the reader goes away. */
    static final class Trickle extends Thread {
        final Path fifo;
        final CountDownLatch opened = new CountDownLatch(1);
        final CountDownLatch broken = new CountDownLatch(1);
        volatile boolean stop;

        Trickle(Path fifo) {
            super("trickle-" + fifo.getFileName());
            this.fifo = fifo;
            setDaemon(true);
        }

        static List<Trickle> each(Path mock) {
            List<Trickle> all = new ArrayList<>();
            for (int i = 0; i < SLOW; i++) {
                Trickle t = new Trickle(mock.resolve("logs").resolve((7101 + i) + ".out"));
                t.start();
                all.add(t);
            }
            return all;
        }

        static void stopAll(List<Trickle> all) throws InterruptedException {
            for (Trickle t : all) {
                t.stop = true;
                if (t.opened.getCount() > 0) {
                    // nobody opened it: open the reading end so the writer's open returns
                    try (FileInputStream ignored = new FileInputStream(t.fifo.toFile())) {
                        t.join(5000);
                    } catch (IOException e) {
                        // gone already
                    }
                }
                t.join(5000);
            }
        }

        @Override
        public void run() {
            try (OutputStream out = new FileOutputStream(fifo.toFile())) {
                opened.countDown();
                while (!stop) {
                    out.write("log line\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    Thread.sleep(200);
                }
            } catch (IOException e) {
                broken.countDown();  // the reader closed its end: the call reading it stopped
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
