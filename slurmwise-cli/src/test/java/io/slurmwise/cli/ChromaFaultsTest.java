package io.slurmwise.cli;

import io.slurmwise.cli.CliTest.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chroma failing in the middle of a diagnosis, against a real Chroma server this test starts (scripts/chroma) and
 * a TCP proxy in front of it that, at the first similarity query, either stops the server and drops the
 * connection (Chroma down) or stops forwarding (Chroma hung). Either way the rules' diagnosis is shown with its
 * fixes from the embedded index, and one line on stderr says what happened. Tag chroma: runs in -Pintegration.
 */
@Tag("chroma")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ChromaFaultsTest {

    static Path data;
    static Path home;
    static String chroma;
    static final Path SCRIPTS = Path.of("").toAbsolutePath().getParent().resolve("scripts/chroma");

    @BeforeAll
    static void startChromaAndBuildBothIndexes() throws Exception {
        data = Files.createTempDirectory("slurmwise-chroma-faults");
        home = data.resolve("home");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Process start = new ProcessBuilder(SCRIPTS.resolve("start.sh").toString(), data.resolve("chroma").toString(),
                String.valueOf(port)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        chroma = new String(start.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(start.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(start.exitValue()).as("scripts/chroma/start.sh").isZero();
        // the embedded index (the fallback) and the Chroma one, so a diagnosis only queries
        Result embedded = CliTest.run(Map.of("SLURMWISE_HOME", home.toString()), false, "kb", "build");
        assertThat(embedded.code()).as(embedded.err()).isZero();
        Result built = CliTest.run(Map.of("SLURMWISE_HOME", home.toString()), false, "kb", "build", "--chroma-url", chroma);
        assertThat(built.code()).as(built.err()).isZero();
    }

    @AfterAll
    static void stopChroma() throws Exception {
        stop();
    }

    private static void stop() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(SCRIPTS.resolve("stop.sh").toString(), data.resolve("chroma").toString())
                .inheritIO().start();
        p.waitFor(30, TimeUnit.SECONDS);
    }

    @Test
    @Order(1)
    void chromaHungMidQueryEndsInTheEmbeddedIndexWithOneLine() throws Exception {
        try (Proxy proxy = new Proxy(chroma, false)) {
            Result r = CliTest.run(Map.of("SLURMWISE_HOME", home.toString(), "SLURMWISE_CHROMA_URL", proxy.url()), false,
                    "diagnose", "1001", "--full", "--no-llm");
            assertThat(proxy.sawQuery).as("the proxy saw the similarity query").isNotEmpty();
            assertDiagnosedWithOneLine(r, "no answer within");
        }
    }

    @Test
    @Order(2) // stops the server
    void chromaDownMidQueryEndsInTheEmbeddedIndexWithOneLine() throws Exception {
        try (Proxy proxy = new Proxy(chroma, true)) {
            Result r = CliTest.run(Map.of("SLURMWISE_HOME", home.toString(), "SLURMWISE_CHROMA_URL", proxy.url()), false,
                    "diagnose", "1001", "--full", "--no-llm");
            assertThat(proxy.sawQuery).isNotEmpty();
            assertDiagnosedWithOneLine(r, "the Chroma query at " + proxy.url() + " failed: the connection closed before"
                    + " an answer");
            // the server is gone now: the next run says so in one line too, and still answers
            Result after = CliTest.run(Map.of("SLURMWISE_HOME", home.toString(), "SLURMWISE_CHROMA_URL", chroma), false,
                    "kb", "search", "CUDA out of memory");
            assertThat(after.code()).as(after.err()).isZero();
            assertThat(after.out()).contains("cuda_oom");
            assertThat(StderrText.messages(after.err())).hasSize(1).allSatisfy(l -> assertThat(l).contains(chroma)
                    .contains("answering from the embedded index"));
        }
    }

    private static void assertDiagnosedWithOneLine(Result r, String what) {
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("job 1001 train_llama_sft [OUT_OF_MEMORY]").contains("(oom)").contains("oom › Fixes");
        List<String> err = StderrText.messages(r.err());
        assertThat(err).as(r.err()).hasSize(1);
        assertThat(err.get(0)).startsWith("slurmwise: ").contains(what).contains("answering from the embedded index")
                .contains("SLURMWISE_CHROMA_URL");
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    /**
     * Forwards TCP to Chroma; at the first request that is a similarity query it stops the server and drops the
     * connection ({@code down}), or stops forwarding and holds the connection open (hung).
     */
    static final class Proxy implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0);
        private final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
        private final List<Socket> open = new CopyOnWriteArrayList<>();
        final List<String> sawQuery = new CopyOnWriteArrayList<>();
        private final String target;
        private final boolean down;

        Proxy(String target, boolean down) throws IOException {
            this.target = target;
            this.down = down;
            Thread accept = new Thread(this::accept, "chroma-proxy");
            accept.setDaemon(true);
            accept.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getLocalPort();
        }

        private void accept() {
            java.net.URI u = java.net.URI.create(target);
            while (!server.isClosed()) {
                try {
                    Socket client = server.accept();
                    Socket upstream = new Socket(u.getHost(), u.getPort());
                    open.add(client);
                    open.add(upstream);
                    pump(client, upstream, true);
                    pump(upstream, client, false);
                } catch (IOException e) {
                    return;
                }
            }
        }

        private void pump(Socket from, Socket to, boolean request) {
            Thread t = new Thread(() -> {
                byte[] buf = new byte[1 << 16];
                try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                    for (int n; (n = in.read(buf)) >= 0; ) {
                        if (request && new String(buf, 0, n, StandardCharsets.ISO_8859_1).contains("/query HTTP/1.1")) {
                            sawQuery.add("query");
                            if (down) {
                                stop();
                                from.close();
                                to.close();
                                return;
                            }
                            closed.await(); // hung: nothing more goes through, the connection stays open
                            return;
                        }
                        out.write(buf, 0, n);
                        out.flush();
                    }
                } catch (IOException | InterruptedException e) {
                    // a side closed: the pump ends
                }
            });
            t.setDaemon(true);
            t.start();
        }

        @Override
        public void close() throws IOException {
            closed.countDown();
            server.close();
            for (Socket s : open) {
                s.close();
            }
        }
    }
}
