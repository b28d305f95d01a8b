package io.slurmwise.kb.spi;


import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * What an index was built from: the embedding model (with its version) and a SHA-256 of every chunk's text and
 * place. A stored index whose key differs from the current one is stale and is rebuilt.
 *
 * <pre>{@code
 * IndexKey k = IndexKey.of("all-minilm-l6-v2-q@1.19.0-beta29", Chunker.VERSION, Chunker.chunks(taxonomy));
 * k.shortHash();   // "3f9a0c1d2e4b5a69"
 * }</pre>
 */
public record IndexKey(String embedderId, String notesHash) {

    /** @param chunkerVersion the version of the code that cut the notes into chunks: a new one rebuilds the index */
    public static IndexKey of(String embedderId, int chunkerVersion, List<Chunk> chunks) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            update(md, "chunker " + chunkerVersion);
            for (Chunk c : chunks) {
                update(md, c.id());
                update(md, c.kindId());
                update(md, c.noteTitle());
                update(md, c.section());
                update(md, c.source());
                update(md, c.text());
            }
            return new IndexKey(embedderId, HexFormat.of().formatHex(md.digest()));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static void update(MessageDigest md, String s) {
        byte[] b = (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
        md.update((byte) (b.length >>> 24));
        md.update((byte) (b.length >>> 16));
        md.update((byte) (b.length >>> 8));
        md.update((byte) b.length);
        md.update(b);
    }

    /** The first 16 hex digits of the notes hash, for file and collection names. */
    public String shortHash() {
        return notesHash.substring(0, 16);
    }

    /** The model name without its version, safe in file and collection names. */
    public String embedderName() {
        int at = embedderId.indexOf('@');
        String name = at < 0 ? embedderId : embedderId.substring(0, at);
        return name.replaceAll("[^A-Za-z0-9-]", "-");
    }

    /** A hash of the whole key (model and notes), for names that must change when either does. */
    public String fullHash() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            update(md, embedderId);
            update(md, notesHash);
            return HexFormat.of().formatHex(md.digest()).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
