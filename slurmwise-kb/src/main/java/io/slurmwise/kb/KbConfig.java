package io.slurmwise.kb;

import io.slurmwise.config.Settings;
import io.slurmwise.kb.embed.Embedders;
import io.slurmwise.kb.spi.ChromaAuth;
import io.slurmwise.kb.spi.StoreConfig;
import io.slurmwise.kb.store.ChromaStore;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How the knowledge base is set up, from the environment or by hand.
 *
 * <pre>{@code
 * KbConfig c = KbConfig.from(Settings.fromEnvironment());          // SLURMWISE_EMBEDDINGS, SLURMWISE_CHROMA_URL
 * KbConfig chroma = c.withChroma("http://127.0.0.1:8000", true);    // fail instead of falling back
 * }</pre>
 *
 * @param indexDir       where the embedded index lives ({@code SLURMWISE_HOME/kb})
 * @param embeddings     the embedding model (SLURMWISE_EMBEDDINGS)
 * @param chromaUrl      a Chroma server (SLURMWISE_CHROMA_URL), or null for the embedded store
 * @param chromaAuth     the token a secured Chroma wants (SLURMWISE_CHROMA_TOKEN, SLURMWISE_CHROMA_TOKEN_HEADER), or
 *                       null
 * @param chromaRequired true to fail when Chroma does not answer; false to fall back to the embedded store
 * @param kindBoost      added to the similarity of chunks whose note is the finding's kind
 */
public record KbConfig(Path indexDir, Embedders.Choice embeddings, String chromaUrl, String chromaTenant,
                       String chromaDatabase, ChromaAuth chromaAuth, boolean chromaRequired, Duration chromaTimeout,
                       double kindBoost) {

    /**
     * The default kind boost. A passage's similarity to a query lies between about 0 and 0.8; adding 0.5 to the
     * sections of the finding's own note lets the rules decide which note comes first, even when most evidence
     * lines are the consequences of the cause (NCCL timeouts after a CUDA OOM), while the similarity still orders
     * the sections of that note.
     */
    public static final double DEFAULT_KIND_BOOST = 0.5;

    public KbConfig {
        Objects.requireNonNull(indexDir, "indexDir");
        Objects.requireNonNull(embeddings, "embeddings");
        chromaUrl = chromaUrl == null || chromaUrl.isBlank() ? null : chromaUrl.strip();
        chromaTenant = chromaTenant == null || chromaTenant.isBlank() ? ChromaStore.DEFAULT_TENANT : chromaTenant.strip();
        chromaDatabase = chromaDatabase == null || chromaDatabase.isBlank() ? ChromaStore.DEFAULT_DATABASE
                : chromaDatabase.strip();
        chromaTimeout = chromaTimeout == null ? Duration.ofSeconds(5) : chromaTimeout;
    }

    /**
     * From SLURMWISE_HOME, SLURMWISE_EMBEDDINGS, SLURMWISE_CHROMA_URL, SLURMWISE_CHROMA_TENANT,
     * SLURMWISE_CHROMA_DATABASE, SLURMWISE_CHROMA_TOKEN and SLURMWISE_CHROMA_TOKEN_HEADER.
     *
     * @throws KbException for an unknown SLURMWISE_EMBEDDINGS value or token header
     */
    public static KbConfig from(Settings s) {
        return new KbConfig(s.home().resolve("kb"), Embedders.choose(s.get("SLURMWISE_EMBEDDINGS").orElse(null)),
                s.get("SLURMWISE_CHROMA_URL").orElse(null), s.get("SLURMWISE_CHROMA_TENANT").orElse(null),
                s.get("SLURMWISE_CHROMA_DATABASE").orElse(null),
                ChromaAuth.of(s.get("SLURMWISE_CHROMA_TOKEN").orElse(null), s.get("SLURMWISE_CHROMA_TOKEN_HEADER").orElse(null)),
                false, null, DEFAULT_KIND_BOOST);
    }

    /** Where the index may live, for the store providers. */
    public StoreConfig storeConfig() {
        return new StoreConfig(indexDir, chromaUrl, chromaTenant, chromaDatabase, chromaAuth, chromaTimeout, chromaRequired);
    }

    public KbConfig withChroma(String url, boolean required) {
        return new KbConfig(indexDir, embeddings, url, chromaTenant, chromaDatabase, chromaAuth, required, chromaTimeout,
                kindBoost);
    }

    public KbConfig withChromaAuth(ChromaAuth a) {
        return new KbConfig(indexDir, embeddings, chromaUrl, chromaTenant, chromaDatabase, a, chromaRequired,
                chromaTimeout, kindBoost);
    }

    public KbConfig withEmbeddings(Embedders.Choice e) {
        return new KbConfig(indexDir, e, chromaUrl, chromaTenant, chromaDatabase, chromaAuth, chromaRequired, chromaTimeout,
                kindBoost);
    }

    public KbConfig withKindBoost(double b) {
        return new KbConfig(indexDir, embeddings, chromaUrl, chromaTenant, chromaDatabase, chromaAuth, chromaRequired,
                chromaTimeout, b);
    }
}
