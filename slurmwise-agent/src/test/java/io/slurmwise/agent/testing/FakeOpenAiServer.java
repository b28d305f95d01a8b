package io.slurmwise.agent.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A local OpenAI-compatible chat completions server for tests (JDK HttpServer): it parses each request as JSON,
 * records it, and answers with the text the test's function returns.
 */
public final class FakeOpenAiServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpServer server;
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();

    /**
     * What the fake model answers: text, or a call of one tool with JSON arguments; {@code finishReason} is the
     * choice's {@code finish_reason} ({@code stop} or {@code tool_calls} when null).
     */
    public record Reply(String text, String tool, String arguments, String finishReason) {
        public Reply(String text, String tool, String arguments) {
            this(text, tool, arguments, null);
        }

        public static Reply text(String t) {
            return new Reply(t, null, null);
        }

        /** Text the server stopped at its length limit ({@code finish_reason: "length"}), as a model cut short. */
        public static Reply cut(String t) {
            return new Reply(t, null, null, "length");
        }

        public static Reply toolCall(String tool, String argumentsJson) {
            return new Reply(null, tool, argumentsJson);
        }
    }

    /** A model that always answers with the text {@code answer} gives. */
    public static FakeOpenAiServer answering(Function<JsonNode, String> answer) throws IOException {
        return new FakeOpenAiServer(req -> Reply.text(answer.apply(req)));
    }

    /** A scripted model: each request (parsed) decides the reply, text or a tool call. */
    public interface Script {
        Reply reply(JsonNode request);
    }

    /** How a broken endpoint answers a chat completion. */
    public enum Fault {
        /** Answers well, but only after {@link #SLOW_MS}: longer than a test's client timeout. */
        SLOW,
        /** HTTP 200 with a body that is not JSON (a proxy's HTML page, with escape sequences in it). */
        GARBAGE,
        /** HTTP 200 with a JSON answer cut off halfway. */
        TRUNCATED,
        /** HTTP 500 with an error body, as a crashed model server sends. */
        ERROR_500,
        /** HTTP 200 with valid JSON that is no chat completion ({@code {"choices": []}}). */
        NO_CHOICES
    }

    /** How long {@link Fault#SLOW} waits before answering (it stops waiting when the server closes). */
    public static final long SLOW_MS = 20_000;
    private final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
    private volatile Fault fault;

    /** A model endpoint that answers every chat completion with {@code fault} (the models list stays right). */
    public static FakeOpenAiServer faulty(Fault fault) throws IOException {
        FakeOpenAiServer s = new FakeOpenAiServer(req -> Reply.text("The job ran out of memory."));
        s.fault = fault;
        return s;
    }

    private boolean answeredWithFault(com.sun.net.httpserver.HttpExchange ex) throws IOException {
        Fault f = fault;
        if (f == null) {
            return false;
        }
        byte[] body;
        int status = 200;
        switch (f) {
            case SLOW -> {
                try {
                    closed.await(SLOW_MS, java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return false;
            }
            case GARBAGE -> body = ("<html><body>502 Bad Gateway\u001b]0;owned\u0007</body></html>\n\u0000\u00ff")
                    .getBytes(StandardCharsets.ISO_8859_1);
            case TRUNCATED -> body = "{\"id\":\"chatcmpl-test\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"mess"
                    .getBytes(StandardCharsets.UTF_8);
            case ERROR_500 -> {
                status = 500;
                body = "{\"error\":{\"message\":\"model runner crashed: CUDA error: out of memory\",\"type\":\"server_error\"}}"
                        .getBytes(StandardCharsets.UTF_8);
            }
            case NO_CHOICES -> body = "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[]}".getBytes(StandardCharsets.UTF_8);
            default -> throw new IllegalStateException(f.toString());
        }
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
        return true;
    }

    public FakeOpenAiServer(Script script) throws IOException {
        Function<JsonNode, Reply> reply = script::reply;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        // a slow answer must not hold up the next request or the models list
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fake-openai");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/v1/chat/completions", ex -> {
            JsonNode req = JSON.readTree(ex.getRequestBody().readAllBytes());
            requests.add(req);
            if (answeredWithFault(ex)) {
                return;
            }
            ObjectNode res = JSON.createObjectNode();
            res.put("id", "chatcmpl-test").put("object", "chat.completion").put("created", 1)
                    .put("model", req.path("model").asText("fake"));
            ObjectNode choice = res.putArray("choices").addObject();
            Reply r = reply.apply(req);
            ObjectNode message = choice.put("index", 0).putObject("message").put("role", "assistant");
            if (r.tool() == null) {
                choice.put("finish_reason", r.finishReason() == null ? "stop" : r.finishReason());
                message.put("content", r.text());
            } else {
                choice.put("finish_reason", "tool_calls");
                message.putNull("content");
                ObjectNode call = message.putArray("tool_calls").addObject();
                call.put("id", "call_" + requests.size()).put("type", "function");
                call.putObject("function").put("name", r.tool()).put("arguments", r.arguments());
            }
            res.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 10).put("total_tokens", 20);
            byte[] body = JSON.writeValueAsBytes(res);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        // the models it serves, as OpenAI's GET /v1/models lists them (what LlmProbe reads)
        server.createContext("/v1/models", ex -> {
            ObjectNode res = JSON.createObjectNode().put("object", "list");
            for (String id : MODELS) {
                res.withArray("data").addObject().put("id", id).put("object", "model").put("owned_by", "fake");
            }
            byte[] body = JSON.writeValueAsBytes(res);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    /** What GET /v1/models lists: the default model name and the one the tests use. */
    public static final List<String> MODELS = List.of("qwen2.5:7b", "fake-model");

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    public List<JsonNode> requests() {
        return requests;
    }

    /** All message contents of a request, joined. */
    public static String text(JsonNode request) {
        StringBuilder sb = new StringBuilder();
        request.path("messages").forEach(m -> sb.append(m.path("content").asText()).append('\n'));
        return new String(sb.toString().getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
    }
}
