package io.slurmwise.kb.store;

import io.slurmwise.kb.spi.ChromaAuth;
import io.slurmwise.kb.spi.IndexKey;
import io.slurmwise.kb.spi.VectorStore;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.slurmwise.kb.spi.Chunk;
import io.slurmwise.kb.spi.KbException;
import io.slurmwise.kb.spi.Passage;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The passages in a Chroma server, through its HTTP API v2, in an explicit tenant and database (both created when
 * missing). The collection is named after the index key ({@code slurmwise-kb-<model>-<hash>}) and uses cosine
 * distance, so a change of notes or model fills a new collection and older ones of the same model are deleted;
 * distances are turned back into cosine similarity so that scores match the embedded store's. A secured server
 * (Chroma's token auth, or the proxy a site puts in front of it) gets the token of {@link ChromaAuth} on every
 * request; a refusal (HTTP 401/403) says which setting to fix.
 *
 * <pre>{@code
 * VectorStore s = ChromaStore.connect("http://127.0.0.1:8000", "slurmwise", "knowledge", Duration.ofSeconds(5), null);
 * }</pre>
 */
public final class ChromaStore implements VectorStore {

    public static final String DEFAULT_TENANT = "slurmwise";
    public static final String DEFAULT_DATABASE = "knowledge";
    private static final String PREFIX = "slurmwise-kb-";
    private static final int BATCH = 100;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String url;
    private final String tenant;
    private final String database;
    private final Duration timeout;
    private final ChromaAuth auth;
    private final HttpClient http;
    private String collection;
    private String collectionId;

    private ChromaStore(String url, String tenant, String database, Duration timeout, ChromaAuth auth) {
        this.url = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        this.tenant = tenant;
        this.database = database;
        this.timeout = timeout;
        this.auth = auth;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1).build();
    }

    /** {@link #connect(String, String, String, Duration, ChromaAuth)} without a token. */
    public static ChromaStore connect(String url, String tenant, String database, Duration timeout) {
        return connect(url, tenant, database, timeout, null);
    }

    /**
     * Checks that a Chroma server answers at {@code url} ({@code /api/v2/heartbeat}) and accepts this client
     * (the tenant, read with the token), and returns a store on it.
     *
     * @param auth the token to send, or null for an open server
     * @throws KbException when the server does not answer or refuses the token; the message says what to do
     */
    public static ChromaStore connect(String url, String tenant, String database, Duration timeout, ChromaAuth auth) {
        URI uri;
        try {
            uri = URI.create(url);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException("no scheme or host");
            }
        } catch (IllegalArgumentException e) {
            throw new KbException("SLURMWISE_CHROMA_URL='" + url + "' is not a URL; use e.g. http://127.0.0.1:8000");
        }
        ChromaStore s = new ChromaStore(url, tenant, database, timeout, auth);
        try {
            s.call("GET", "/api/v2/heartbeat", null);
            s.call("GET", "/api/v2/tenants/" + enc(tenant), null); // protected: a wrong token shows here
        } catch (IOException e) {
            throw new KbException("Chroma at " + url + " did not answer (" + e.getMessage() + "); start it (see"
                    + " scripts/chroma/) or unset SLURMWISE_CHROMA_URL to use the embedded index", e);
        }
        return s;
    }

    public static String collectionName(IndexKey key) {
        return PREFIX + key.embedderName() + "-" + key.fullHash();
    }

    @Override
    public String name() {
        return "chroma";
    }

    @Override
    public String location() {
        return url + " tenant " + tenant + ", database " + database
                + (collection == null ? "" : ", collection " + collection);
    }

    @Override
    public boolean holds(IndexKey key, int count) {
        String name = collectionName(key);
        try {
            JsonNode c = call("GET", collectionsPath() + "/" + enc(name), null);
            if (c == null || !c.hasNonNull("id")) {
                return false;
            }
            JsonNode stored = call("GET", collectionsPath() + "/" + enc(c.get("id").asText()) + "/count", null);
            if (stored == null || stored.asInt(-1) != count) {
                return false;
            }
            collection = name;
            collectionId = c.get("id").asText();
        } catch (IOException e) {
            throw unreachable(e);
        }
        return true;
    }

    @Override
    public void replace(IndexKey key, List<Passage> passages, List<float[]> vectors) {
        if (passages.size() != vectors.size() || passages.isEmpty()) {
            throw new IllegalArgumentException(passages.size() + " passages but " + vectors.size() + " vectors");
        }
        String name = collectionName(key);
        try {
            ensureTenantAndDatabase();
            // an incomplete collection of this key (an interrupted build) is dropped, not appended to
            call("DELETE", collectionsPath() + "/" + enc(name), null);
            ObjectNode create = JSON.createObjectNode().put("name", name).put("get_or_create", true);
            create.putObject("metadata").put("hnsw:space", "cosine");
            JsonNode c = call("POST", collectionsPath(), create);
            if (c == null || !c.hasNonNull("id")) {
                throw new IOException("Chroma did not create the collection " + name);
            }
            String id = c.get("id").asText();
            for (int from = 0; from < passages.size(); from += BATCH) {
                int to = Math.min(passages.size(), from + BATCH);
                ObjectNode add = JSON.createObjectNode();
                ArrayNode ids = add.putArray("ids");
                ArrayNode embeddings = add.putArray("embeddings");
                ArrayNode documents = add.putArray("documents");
                ArrayNode metadatas = add.putArray("metadatas");
                for (int i = from; i < to; i++) {
                    Passage p = passages.get(i);
                    ids.add(p.id());
                    ArrayNode v = embeddings.addArray();
                    for (float x : vectors.get(i)) {
                        v.add(x);
                    }
                    documents.add(p.text());
                    metadatas.add(metadata(p.chunk()));
                }
                requireAnswer(call("POST", collectionsPath() + "/" + enc(id) + "/add", add), "add to " + name);
            }
            collection = name;
            collectionId = id;
            removeStale(key, name);
        } catch (IOException e) {
            throw new KbException("cannot fill the Chroma collection " + name + " at " + url + ": " + e.getMessage(), e);
        }
    }

    @Override
    public List<Match> nearest(float[] query, int n, Set<String> kinds) {
        if (collectionId == null) {
            throw new IllegalStateException("no Chroma collection is open; call holds() or replace() first");
        }
        if (kinds != null && kinds.isEmpty()) {
            return List.of();
        }
        ObjectNode q = JSON.createObjectNode();
        ArrayNode v = q.putArray("query_embeddings").addArray();
        for (float x : query) {
            v.add(x);
        }
        q.put("n_results", n);
        if (kinds != null) {
            ArrayNode in = q.putObject("where").putObject("kind").putArray("$in");
            kinds.stream().sorted().forEach(in::add);
        }
        q.putArray("include").add("distances");
        JsonNode r;
        try {
            r = requireAnswer(call("POST", collectionsPath() + "/" + enc(collectionId) + "/query", q), "query");
        } catch (IOException e) {
            throw new KbException("the Chroma query at " + url + " failed: " + e.getMessage(), e);
        }
        JsonNode ids = r.path("ids").path(0);
        JsonNode distances = r.path("distances").path(0);
        List<Match> out = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            // cosine distance is 1 - cosine similarity
            out.add(new Match(ids.get(i).asText(), 1.0 - distances.path(i).asDouble(1.0)));
        }
        out.sort(Comparator.comparingDouble(Match::similarity).reversed().thenComparing(Match::passageId));
        return out;
    }

    private void ensureTenantAndDatabase() throws IOException {
        if (call("GET", "/api/v2/tenants/" + enc(tenant), null) == null) {
            requireAnswer(call("POST", "/api/v2/tenants", JSON.createObjectNode().put("name", tenant)), "create tenant");
        }
        String databases = "/api/v2/tenants/" + enc(tenant) + "/databases";
        if (call("GET", databases + "/" + enc(database), null) == null) {
            requireAnswer(call("POST", databases, JSON.createObjectNode().put("name", database)), "create database");
        }
    }

    /** Collections of earlier notes for the same model: deleted once the new one is complete. */
    private void removeStale(IndexKey key, String keep) {
        String prefix = PREFIX + key.embedderName() + "-";
        try {
            JsonNode list = call("GET", collectionsPath(), null);
            if (list == null || !list.isArray()) {
                return;
            }
            for (JsonNode c : list) {
                String n = c.path("name").asText("");
                if (n.startsWith(prefix) && !n.equals(keep) && n.length() == keep.length()) {
                    call("DELETE", collectionsPath() + "/" + enc(n), null);
                }
            }
        } catch (IOException e) {
            // best effort: a stale collection costs space, never a wrong answer
        }
    }

    private static ObjectNode metadata(Chunk c) {
        ObjectNode m = JSON.createObjectNode();
        m.put("kind", c.kindId());
        m.put("chunk", c.id());
        m.put("note_title", c.noteTitle());
        m.put("section", c.section());
        m.put("position", c.position());
        m.put("source", c.source());
        return m;
    }

    private String collectionsPath() {
        return "/api/v2/tenants/" + enc(tenant) + "/databases/" + enc(database) + "/collections";
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private KbException unreachable(IOException e) {
        return new KbException("Chroma at " + url + " stopped answering: " + e.getMessage(), e);
    }

    /**
     * One request with the token; the JSON answer, or null for "not found" (Chroma answers a missing tenant,
     * database or collection with an error status).
     *
     * @throws KbException when the server refuses the token (HTTP 401 or 403)
     * @throws IOException for other error statuses and transport failures
     */
    private JsonNode call(String method, String path, JsonNode body) throws IOException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + path)).header("Accept", "application/json");
        if (auth != null) {
            b.header(auth.header(), auth.value());
        }
        if (body != null) {
            b.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> r = send(b);
        int code = r.statusCode();
        if (code == 401 || code == 403) {
            throw new KbException("Chroma at " + url + " refused " + method + " " + path + " (HTTP " + code + ") "
                    + (auth == null ? "without a token: set SLURMWISE_CHROMA_TOKEN to the site's token"
                    : "with the token in " + auth.header() + ": check SLURMWISE_CHROMA_TOKEN, or set"
                    + " SLURMWISE_CHROMA_TOKEN_HEADER=" + (auth.header().equals(ChromaAuth.AUTHORIZATION)
                    ? ChromaAuth.X_CHROMA_TOKEN : ChromaAuth.AUTHORIZATION) + " if the server reads it there"));
        }
        if (code == 404 || (code >= 400 && r.body().contains("NotFoundError"))) {
            return null;
        }
        if (code >= 400) {
            String message = r.body();
            try {
                message = JSON.readTree(r.body()).path("message").asText(r.body());
            } catch (IOException ignored) {
                // not JSON: keep the body
            }
            throw new IOException("HTTP " + code + " from " + method + " " + path + ": "
                    + (message.length() > 300 ? message.substring(0, 300) + "..." : message));
        }
        String text = r.body();
        return text == null || text.isBlank() ? JSON.createObjectNode() : JSON.readTree(text);
    }

    private static JsonNode requireAnswer(JsonNode n, String what) throws IOException {
        if (n == null) {
            throw new IOException(what + ": not found");
        }
        return n;
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws IOException {
        try {
            return http.send(b.timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (java.net.ConnectException e) {
            throw new IOException("connection refused", e);
        } catch (java.net.http.HttpTimeoutException e) {
            throw new IOException("no answer within " + timeout.toSeconds() + " s", e);
        } catch (IOException e) {
            // the server went away mid-request (stopped, crashed, a proxy cut it): the client's words for it vary
            String m = e.getMessage();
            boolean cut = e instanceof java.io.EOFException || m != null && (m.contains("received no bytes")
                    || m.contains("Connection reset") || m.contains("closed") || m.contains("EOF"));
            throw new IOException(cut ? "the connection closed before an answer (did the server stop?)"
                    : m == null || m.isBlank() ? e.getClass().getSimpleName() : m.lines().findFirst().orElse(m), e);
        }
    }
}
