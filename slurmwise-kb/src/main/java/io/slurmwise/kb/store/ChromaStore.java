package io.slurmwise.kb.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.chroma.ChromaApiVersion;
import dev.langchain4j.store.embedding.chroma.ChromaEmbeddingStore;
import dev.langchain4j.store.embedding.filter.Filter;
import io.slurmwise.kb.Chunk;
import io.slurmwise.kb.KbException;
import io.slurmwise.kb.Passage;

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

import static dev.langchain4j.store.embedding.filter.MetadataFilterBuilder.metadataKey;

/**
 * The passages in a Chroma server (API v2), through langchain4j-chroma, in an explicit tenant and database. The
 * collection is named after the index key ({@code slurmwise-kb-<model>-<hash>}), so a change of notes or model
 * fills a new collection and older ones of the same model are deleted. Chroma ranks by cosine distance; scores are
 * converted back to cosine similarity so that they match the embedded store's.
 *
 * <pre>{@code
 * VectorStore s = ChromaStore.connect("http://127.0.0.1:8000", "slurmwise", "knowledge", Duration.ofSeconds(5));
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
    private final HttpClient http;
    private ChromaEmbeddingStore store;
    private String collection;

    private ChromaStore(String url, String tenant, String database, Duration timeout) {
        this.url = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        this.tenant = tenant;
        this.database = database;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1).build();
    }

    /**
     * Checks that a Chroma server answers at {@code url} ({@code /api/v2/heartbeat}) and returns a store on it.
     *
     * @throws KbException when the server does not answer; the message says how to start one or what to unset
     */
    public static ChromaStore connect(String url, String tenant, String database, Duration timeout) {
        URI uri;
        try {
            uri = URI.create(url);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException("no scheme or host");
            }
        } catch (IllegalArgumentException e) {
            throw new KbException("SLURMWISE_CHROMA_URL='" + url + "' is not a URL; use e.g. http://127.0.0.1:8000");
        }
        ChromaStore s = new ChromaStore(url, tenant, database, timeout);
        try {
            s.get("/api/v2/heartbeat");
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
            JsonNode c = getJson(collectionsPath() + "/" + enc(name));
            if (c == null || !c.hasNonNull("id")) {
                return false;
            }
            JsonNode stored = getJson(collectionsPath() + "/" + enc(c.get("id").asText()) + "/count");
            if (stored == null || stored.asInt(-1) != count) {
                return false;
            }
        } catch (IOException e) {
            throw unreachable(e);
        }
        open(name);
        return true;
    }

    @Override
    public void replace(IndexKey key, List<Passage> passages, List<float[]> vectors) {
        if (passages.size() != vectors.size() || passages.isEmpty()) {
            throw new IllegalArgumentException(passages.size() + " passages but " + vectors.size() + " vectors");
        }
        String name = collectionName(key);
        try {
            open(name);
            // an incomplete collection of this key (an interrupted build) is emptied, not appended to
            store.removeAll();
            for (int from = 0; from < passages.size(); from += BATCH) {
                int to = Math.min(passages.size(), from + BATCH);
                List<String> ids = new ArrayList<>();
                List<Embedding> embeddings = new ArrayList<>();
                List<TextSegment> segments = new ArrayList<>();
                for (int i = from; i < to; i++) {
                    Passage p = passages.get(i);
                    ids.add(p.id());
                    embeddings.add(Embedding.from(vectors.get(i)));
                    segments.add(TextSegment.from(p.text(), metadata(p.chunk())));
                }
                store.addAll(ids, embeddings, segments);
            }
            removeStale(key, name);
        } catch (RuntimeException e) {
            throw new KbException("cannot fill the Chroma collection " + name + " at " + url + ": " + e.getMessage(), e);
        }
    }

    @Override
    public List<Match> nearest(float[] query, int n, Set<String> kinds) {
        if (store == null) {
            throw new IllegalStateException("no Chroma collection is open; call holds() or replace() first");
        }
        Filter filter = kinds == null ? null
                : kinds.size() == 1 ? metadataKey("kind").isEqualTo(kinds.iterator().next())
                : metadataKey("kind").isIn(kinds);
        List<EmbeddingMatch<TextSegment>> matches;
        try {
            matches = store.search(EmbeddingSearchRequest.builder().queryEmbedding(Embedding.from(query))
                    .maxResults(n).filter(filter).build()).matches();
        } catch (RuntimeException e) {
            throw new KbException("the Chroma query at " + url + " failed: " + e.getMessage(), e);
        }
        List<Match> out = new ArrayList<>();
        for (EmbeddingMatch<TextSegment> m : matches) {
            // langchain4j reports 1 - distance/2 for Chroma's cosine distance; turn it back into the cosine
            out.add(new Match(m.embeddingId(), 2 * m.score() - 1));
        }
        out.sort(Comparator.comparingDouble(Match::similarity).reversed().thenComparing(Match::passageId));
        return out;
    }

    private void open(String name) {
        if (name.equals(collection) && store != null) {
            return;
        }
        try {
            store = ChromaEmbeddingStore.builder().apiVersion(ChromaApiVersion.V2).baseUrl(url)
                    .tenantName(tenant).databaseName(database).collectionName(name).timeout(timeout).build();
            collection = name;
        } catch (RuntimeException e) {
            throw new KbException("cannot open the Chroma collection " + name + " at " + url + " (tenant " + tenant
                    + ", database " + database + "): " + e.getMessage(), e);
        }
    }

    /** Collections of earlier notes for the same model: deleted once the new one is complete. */
    private void removeStale(IndexKey key, String keep) {
        String prefix = PREFIX + key.embedderName() + "-";
        try {
            JsonNode list = getJson(collectionsPath());
            if (list == null || !list.isArray()) {
                return;
            }
            for (JsonNode c : list) {
                String n = c.path("name").asText("");
                if (n.startsWith(prefix) && !n.equals(keep) && n.length() == keep.length()) {
                    send(HttpRequest.newBuilder(URI.create(url + collectionsPath() + "/" + enc(n))).DELETE());
                }
            }
        } catch (IOException e) {
            // best effort: a stale collection costs space, never a wrong answer
        }
    }

    private static Metadata metadata(Chunk c) {
        Metadata m = new Metadata();
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

    /** The JSON body, or null for a 4xx/5xx answer (Chroma answers a missing collection with an error status). */
    private JsonNode getJson(String path) throws IOException {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(url + path)).GET());
        if (r.statusCode() >= 400) {
            return null;
        }
        return JSON.readTree(r.body());
    }

    private void get(String path) throws IOException {
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(url + path)).GET());
        if (r.statusCode() >= 400) {
            throw new IOException("HTTP " + r.statusCode() + " from " + path);
        }
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
            String m = e.getMessage();
            throw new IOException(m == null || m.isBlank() ? e.getClass().getSimpleName() : m, e);
        }
    }
}
