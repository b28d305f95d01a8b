package io.slurmwise.kb.embed;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Dependency-free embeddings: words and word pairs hashed into a fixed-size vector (the "hashing trick"), with
 * sub-linear term frequency. It knows no synonyms, so it matches the words of a query, not its meaning; its
 * retrieval quality is measured next to the neural model's in README.md. Selected by
 * {@code SLURMWISE_EMBEDDINGS=hash}.
 *
 * <pre>{@code
 * float[] v = new HashEmbedder().embed("ModuleNotFoundError: No module named 'torch'");
 * }</pre>
 */
public final class HashEmbedder implements Embedder {

    /** Bumped whenever tokenisation or hashing changes (it is part of the index key). */
    public static final String ID = "hash-v1";
    private static final int DIM = 4096;
    private static final double PAIR_WEIGHT = 0.5;
    private static final Set<String> STOP = Set.of("a", "an", "and", "are", "as", "at", "be", "by", "for", "from",
            "has", "have", "if", "in", "into", "is", "it", "its", "of", "on", "or", "so", "that", "the", "then",
            "this", "to", "was", "were", "when", "with", "you", "your", "can", "not", "no", "do", "does", "use");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String name() {
        return "hash";
    }

    @Override
    public int dimension() {
        return DIM;
    }

    @Override
    public float[] embed(String text) {
        List<String> words = words(text);
        Map<String, Double> tf = new HashMap<>();
        for (int i = 0; i < words.size(); i++) {
            tf.merge(words.get(i), 1.0, Double::sum);
            if (i + 1 < words.size()) {
                tf.merge(words.get(i) + " " + words.get(i + 1), PAIR_WEIGHT, Double::sum);
            }
        }
        float[] v = new float[DIM];
        for (Map.Entry<String, Double> e : tf.entrySet()) {
            int h = fnv1a(e.getKey());
            double w = 1 + Math.log(e.getValue());
            if (e.getKey().indexOf(' ') >= 0) {
                w *= PAIR_WEIGHT;
            }
            v[Math.floorMod(h, DIM)] += (h >>> 31) == 0 ? w : -w;
        }
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        if (norm > 0) {
            float inv = (float) (1 / Math.sqrt(norm));
            for (int i = 0; i < DIM; i++) {
                v[i] *= inv;
            }
        }
        return v;
    }

    /** Lower-case words, camelCase split ({@code ModuleNotFoundError} -> module, found, error), stop words out. */
    static List<String> words(String text) {
        String split = text.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
        List<String> out = new ArrayList<>();
        for (String w : split.split("[^a-z0-9]+")) {
            if (w.length() < 2 || STOP.contains(w)) {
                continue;
            }
            out.add(stem(w));
        }
        return out;
    }

    /** A light plural stemmer: {@code errors} -> {@code error}, {@code libraries} -> {@code library}. */
    static String stem(String w) {
        if (w.length() > 4 && w.endsWith("ies")) {
            return w.substring(0, w.length() - 3) + "y";
        }
        if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) {
            return w.substring(0, w.length() - 1);
        }
        return w;
    }

    private static int fnv1a(String s) {
        int h = 0x811c9dc5;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x01000193;
        }
        return h;
    }
}
