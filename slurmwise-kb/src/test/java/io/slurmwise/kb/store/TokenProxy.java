package io.slurmwise.kb.store;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What a site puts in front of Chroma 1.x, which has no auth of its own: a proxy that lets a request through only
 * with the right token in one header, and forwards it to the server. With no upstream it answers 200 {} to
 * every authorised request (enough for tests of the client's refusal messages).
 */
final class TokenProxy implements AutoCloseable {

    private final HttpServer server;
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<String> seen = new CopyOnWriteArrayList<>();

    /**
     * @param upstream the Chroma server to forward to, or null
     * @param header   the header that must hold {@code value} ({@code X-Chroma-Token}, or {@code Authorization}
     *                 with {@code Bearer <token>})
     */
    TokenProxy(String upstream, String header, String value) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            try (ex) {
                String got = ex.getRequestHeaders().getFirst(header);
                seen.add(ex.getRequestMethod() + " " + ex.getRequestURI() + " " + header + "=" + got);
                if (!value.equals(got)) {
                    reply(ex, 401, "{\"error\":\"Unauthorized\",\"message\":\"missing or wrong token\"}");
                    return;
                }
                if (upstream == null) {
                    reply(ex, 200, "{}");
                    return;
                }
                byte[] body = ex.getRequestBody().readAllBytes();
                HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(upstream + ex.getRequestURI()))
                        .method(ex.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(body));
                String type = ex.getRequestHeaders().getFirst("Content-Type");
                if (type != null) {
                    b.header("Content-Type", type);
                }
                HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
                reply(ex, r.statusCode(), r.body());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every request: method, path and what the auth header held. */
    List<String> seen() {
        return seen;
    }

    private static void reply(HttpExchange ex, int code, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(code, b.length == 0 ? -1 : b.length);
        if (b.length > 0) {
            try (OutputStream o = ex.getResponseBody()) {
                o.write(b);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
