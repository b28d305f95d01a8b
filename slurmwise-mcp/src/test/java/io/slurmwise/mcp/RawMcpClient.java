package io.slurmwise.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A JSON-RPC client that writes raw lines to the MCP server's stdin (any bytes at all) and checks that every line
 * it reads back is one JSON-RPC object: the server in a separate process, as a hostile or clumsy client sees it.
 */
final class RawMcpClient implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final OutputStream stdin;
    private final Map<String, JsonNode> answers = new ConcurrentHashMap<>();
    private final Map<String, Integer> answerBytes = new ConcurrentHashMap<>();
    private final Map<String, Integer> duplicates = new ConcurrentHashMap<>();
    private final List<JsonNode> nullIdAnswers = java.util.Collections.synchronizedList(new ArrayList<>());
    private final List<String> impure = java.util.Collections.synchronizedList(new ArrayList<>());
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final AtomicLong lines = new AtomicLong();
    private final Object signal = new Object();
    private Thread stdoutReader;
    private volatile boolean paused;

    private RawMcpClient(Process process) {
        this.process = process;
        this.stdin = process.getOutputStream();
        Thread err = new Thread(() -> copy(process.getErrorStream()), "server-stderr");
        err.setDaemon(true);
        err.start();
    }

    /** Starts {@link SlurmwiseMcpServer} on the mock cluster with a 256 MB heap; stdout is read at once or later. */
    static RawMcpClient start(String home, boolean readNow) throws IOException {
        return start(home, readNow, Map.of());
    }

    /** As {@link #start(String, boolean)}, with {@code env} added to the server's environment. */
    static RawMcpClient start(String home, boolean readNow, Map<String, String> env) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-XX:+UseSerialGC", "-cp",
                System.getProperty("java.class.path"), SlurmwiseMcpServer.class.getName());
        pb.environment().put("SLURMWISE_BACKEND", "mock");
        pb.environment().put("SLURMWISE_NO_LLM", "1");
        Path h = Path.of("target", home).toAbsolutePath();
        Files.createDirectories(h);
        pb.environment().put("SLURMWISE_HOME", h.toString());
        pb.environment().putAll(env);
        RawMcpClient c = new RawMcpClient(pb.start());
        if (readNow) {
            c.startReading();
        }
        return c;
    }

    synchronized void startReading() {
        if (stdoutReader == null) {
            stdoutReader = new Thread(this::readStdout, "server-stdout");
            stdoutReader.setDaemon(true);
            stdoutReader.start();
        }
    }

    /** Stops reading the server's stdout after the chunk being read (its pipe then fills). */
    void pauseReading() {
        paused = true;
    }

    void resumeReading() {
        paused = false;
        synchronized (signal) {
            signal.notifyAll();
        }
    }

    /** CPU time the server process has used, in clock ticks (Linux), or -1. */
    long cpuTicks() {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(process.pid()), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Initializes the session; without {@code notify}, the initialized notification is left out. */
    JsonNode initialize(boolean notify) throws Exception {
        ObjectNode params = JSON.createObjectNode().put("protocolVersion", "2025-06-18");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "raw").put("version", "1");
        JsonNode r = call("init", "initialize", params, Duration.ofSeconds(120));
        if (notify) {
            send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        }
        return r;
    }

    /** One request line, built as JSON. */
    static String request(String id, String method, JsonNode params) {
        ObjectNode n = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", id).put("method", method);
        if (params != null) {
            n.set("params", params);
        }
        return n.toString();
    }

    static String toolCall(String id, String tool, Map<String, Object> args) {
        ObjectNode p = JSON.createObjectNode().put("name", tool);
        p.set("arguments", JSON.valueToTree(args));
        return request(id, "tools/call", p);
    }

    JsonNode call(String id, String method, JsonNode params, Duration timeout) throws Exception {
        send(request(id, method, params));
        return await(id, timeout);
    }

    void send(String line) throws IOException {
        sendBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    synchronized void sendBytes(byte[] bytes) throws IOException {
        stdin.write(bytes);
        stdin.flush();
    }

    JsonNode await(String id, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        synchronized (signal) {
            while (!answers.containsKey(id)) {
                long left = end - System.nanoTime();
                if (left <= 0 || !process.isAlive() && !answers.containsKey(id)) {
                    throw new AssertionError("no answer to " + id + " within " + timeout + " (server "
                            + (process.isAlive() ? "alive" : "exited " + process.exitValue()) + "); stderr: " + stderr());
                }
                TimeUnit.NANOSECONDS.timedWait(signal, Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)));
            }
        }
        return answers.get(id);
    }

    void awaitAll(Collection<String> ids, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        for (String id : ids) {
            await(id, Duration.ofNanos(Math.max(1, end - System.nanoTime())));
        }
    }

    /** The answer to {@code id}, or null. */
    JsonNode answer(String id) {
        return answers.get(id);
    }

    int answerBytes(String id) {
        return answerBytes.getOrDefault(id, -1);
    }

    List<JsonNode> nullIdAnswers() {
        synchronized (nullIdAnswers) {
            return List.copyOf(nullIdAnswers);
        }
    }

    List<String> impureLines() {
        synchronized (impure) {
            return List.copyOf(impure);
        }
    }

    Map<String, Integer> duplicateAnswers() {
        return Map.copyOf(duplicates);
    }

    int answered() {
        return answers.size();
    }

    long lines() {
        return lines.get();
    }

    String stderr() {
        synchronized (stderr) {
            return stderr.toString(StandardCharsets.UTF_8);
        }
    }

    /** Closes stdin and waits for the process to end: the milliseconds it took, or -1 when it did not end in time. */
    long closeAndTimeExit(Duration timeout) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        stdin.close();
        boolean ended = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        if (stdoutReader != null) {
            stdoutReader.join(2000);
        }
        return ended ? ms : -1;
    }

    /** Peak resident memory of the server process in MiB (Linux), or -1. */
    long peakRssMiB() {
        return status("VmHWM:");
    }

    long rssMiB() {
        return status("VmRSS:");
    }

    private long status(String key) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
                if (l.startsWith(key)) {
                    return Long.parseLong(l.replaceAll("\\D", "")) / 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process is gone
        }
        return -1;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** Closes the client's end of the server's stdout: a client gone in the middle of its answers. */
    void closeStdout() throws IOException {
        process.getInputStream().close();
    }

    /** Waits up to {@code timeout} for the server to end: its exit code, or null while it still runs. */
    Integer exitWithin(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? process.exitValue() : null;
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    private void readStdout() {
        try (InputStream in = process.getInputStream()) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            byte[] buf = new byte[64 * 1024];
            int n;
            while ((n = in.read(buf)) > 0) {
                synchronized (signal) {
                    while (paused) {
                        signal.wait(200);
                    }
                }
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                        line.write(buf, start, i - start);
                        take(line.toByteArray());
                        line.reset();
                        start = i + 1;
                    }
                }
                line.write(buf, start, n - start);
            }
            if (line.size() > 0) {
                impure.add("an unterminated last line of " + line.size() + " bytes");
            }
        } catch (IOException e) {
            // the process ended
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void take(byte[] raw) {
        lines.incrementAndGet();
        JsonNode n;
        try {
            n = JSON.readTree(raw);
        } catch (IOException e) {
            n = null;
        }
        if (n == null || !n.isObject() || !"2.0".equals(n.path("jsonrpc").asText())
                || !(n.has("result") ^ n.has("error")) || !n.has("id")) {
            impure.add(new String(raw, 0, Math.min(raw.length, 300), StandardCharsets.UTF_8));
            return;
        }
        JsonNode id = n.get("id");
        if (id.isNull()) {
            nullIdAnswers.add(n);
        } else {
            String key = id.asText();
            if (answers.putIfAbsent(key, n) != null) {
                duplicates.merge(key, 1, Integer::sum);
            }
            answerBytes.put(key, raw.length);
        }
        synchronized (signal) {
            signal.notifyAll();
        }
    }

    private void copy(InputStream err) {
        byte[] buf = new byte[8192];
        try (err) {
            int n;
            while ((n = err.read(buf)) > 0) {
                synchronized (stderr) {
                    if (stderr.size() < (1 << 20)) {
                        stderr.write(buf, 0, n);
                    }
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }
}
