package io.slurmwise.kb.embed;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Turns text into a unit-length vector; similar texts get a high dot product.
 *
 * <pre>{@code
 * Embedder e = Embedders.select("hash");
 * float[] v = e.embed("CUDA out of memory. Tried to allocate 2.00 GiB");
 * }</pre>
 */
public interface Embedder {

    /** Identifies the model and its version; part of the index key, so a new model rebuilds the index. */
    String id();

    /** Short name for people: {@code all-minilm-l6-v2-q}, {@code hash}. */
    String name();

    int dimension();

    /** A unit vector (L2 norm 1), so cosine similarity is the dot product. */
    float[] embed(String text);

    /** Embeds many texts, calling {@code progress} with the number done so far. */
    default List<float[]> embedAll(List<String> texts, IntConsumer progress) {
        List<float[]> out = new ArrayList<>(texts.size());
        for (String t : texts) {
            out.add(embed(t));
            progress.accept(out.size());
        }
        return out;
    }

    static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
