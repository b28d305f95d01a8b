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

    public FakeOpenAiServer(Function<JsonNode, String> answer) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/chat/completions", ex -> {
            JsonNode req = JSON.readTree(ex.getRequestBody().readAllBytes());
            requests.add(req);
            ObjectNode res = JSON.createObjectNode();
            res.put("id", "chatcmpl-test").put("object", "chat.completion").put("created", 1)
                    .put("model", req.path("model").asText("fake"));
            ObjectNode choice = res.putArray("choices").addObject();
            choice.put("index", 0).put("finish_reason", "stop");
            choice.putObject("message").put("role", "assistant").put("content", answer.apply(req));
            res.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 10).put("total_tokens", 20);
            byte[] body = JSON.writeValueAsBytes(res);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

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
        server.stop(0);
    }
}
