package io.slurmwise.kb.embed;

import io.slurmwise.kb.spi.KbException;

import java.util.Locale;

/**
 * Picks the embedding model that {@code SLURMWISE_EMBEDDINGS} names: unset or {@code minilm} for the shipped
 * all-MiniLM-L6-v2 (quantized), {@code all-minilm-l6-v2-q} or {@code all-minilm-l6-v2} for one variant by name
 * (its artifact must be on the classpath), {@code hash} for the dependency-free fallback.
 *
 * <pre>{@code
 * Embedders.Choice c = Embedders.choose(System.getenv("SLURMWISE_EMBEDDINGS"));
 * String id = c.id();              // cheap: no model is loaded
 * Embedder e = c.load();           // loads the model
 * }</pre>
 */
public final class Embedders {

    /** The variant slurmwise ships and uses by default. */
    public static final MiniLmEmbedder.Variant DEFAULT_VARIANT = MiniLmEmbedder.Variant.QUANTIZED;

    private Embedders() {
    }

    /** A chosen model, not loaded yet. */
    public sealed interface Choice permits MiniLm, Hash {
        /** The model id with its version, without loading it. */
        String id();

        String name();

        Embedder load();
    }

    public record MiniLm(MiniLmEmbedder.Variant variant) implements Choice {
        @Override
        public String id() {
            return variant.modelName() + "@" + MiniLmEmbedder.version(variant);
        }

        @Override
        public String name() {
            return variant.modelName();
        }

        @Override
        public Embedder load() {
            return MiniLmEmbedder.load(variant);
        }
    }

    public record Hash() implements Choice {
        @Override
        public String id() {
            return HashEmbedder.ID;
        }

        @Override
        public String name() {
            return "hash";
        }

        @Override
        public Embedder load() {
            return new HashEmbedder();
        }
    }

    /** @throws KbException for a name that is not a known model */
    public static Choice choose(String setting) {
        String s = setting == null ? "" : setting.strip().toLowerCase(Locale.ROOT);
        return switch (s) {
            case "", "minilm", "default" -> new MiniLm(DEFAULT_VARIANT);
            case "all-minilm-l6-v2-q", "minilm-q", "quantized" -> new MiniLm(MiniLmEmbedder.Variant.QUANTIZED);
            case "all-minilm-l6-v2", "minilm-full", "full" -> new MiniLm(MiniLmEmbedder.Variant.FULL);
            case "hash" -> new Hash();
            default -> throw new KbException("SLURMWISE_EMBEDDINGS='" + setting + "' is not a known embedding model;"
                    + " use minilm (default, all-minilm-l6-v2-q), all-minilm-l6-v2 or hash");
        };
    }
}
