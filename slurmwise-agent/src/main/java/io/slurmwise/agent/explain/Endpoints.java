package io.slurmwise.agent.explain;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;

/** A cheap reachability check of a model endpoint, before any HTTP client is built. */
public final class Endpoints {

    static final int CONNECT_TIMEOUT_MS = 1500;

    private Endpoints() {
    }

    /** @throws UncheckedIOException when nothing accepts a TCP connection at the URL's host and port */
    public static void requireListening(String baseUrl) {
        URI uri = URI.create(baseUrl);
        int port = uri.getPort() > 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(uri.getHost(), port), CONNECT_TIMEOUT_MS);
        } catch (IOException e) {
            throw new UncheckedIOException("nothing listens at " + uri.getHost() + ":" + port, e);
        }
    }
}
