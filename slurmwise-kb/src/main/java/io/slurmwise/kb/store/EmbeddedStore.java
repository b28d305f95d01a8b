package io.slurmwise.kb.store;

import io.slurmwise.kb.Chunk;
import io.slurmwise.kb.Hit;
import io.slurmwise.kb.KbException;
import io.slurmwise.kb.embed.Embedder;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The default store: one file per model under {@code SLURMWISE_HOME/kb/}, named after the index key
 * ({@code index-<model>-<hash>.bin}), loaded whole and searched exactly (a dot product per chunk: the bundled notes
 * are ~130 chunks). Files are written to a temporary name and moved into place, so a reader never sees half an
 * index and two concurrent builds cannot corrupt each other.
 *
 * <pre>{@code
 * VectorStore s = new EmbeddedStore(Path.of(System.getProperty("user.home"), ".slurmwise", "kb"));
 * }</pre>
 */
public final class EmbeddedStore implements VectorStore {

    private static final int MAGIC = 0x53574b42; // "SWKB"
    private static final int FORMAT = 1;

    private final Path dir;
    private IndexKey loadedKey;
    private List<Chunk> chunks = List.of();
    private List<float[]> vectors = List.of();

    public EmbeddedStore(Path dir) {
        this.dir = dir;
    }

    /** The file that holds (or will hold) the index for {@code key}. */
    public Path file(IndexKey key) {
        return dir.resolve("index-" + key.embedderName() + "-" + key.fullHash() + ".bin");
    }

    @Override
    public String name() {
        return "embedded";
    }

    @Override
    public String location() {
        return loadedKey == null ? dir.toString() : file(loadedKey).toString();
    }

    @Override
    public boolean holds(IndexKey key, int chunkCount) {
        if (key.equals(loadedKey)) {
            return chunks.size() == chunkCount;
        }
        Path f = file(key);
        if (!Files.isRegularFile(f)) {
            return false;
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(f), 1 << 16))) {
            if (in.readInt() != MAGIC || in.readInt() != FORMAT) {
                return false;
            }
            IndexKey stored = new IndexKey(in.readUTF(), in.readUTF());
            if (!stored.equals(key)) {
                return false;
            }
            int dim = in.readInt();
            int count = in.readInt();
            if (count != chunkCount || dim <= 0) {
                return false;
            }
            List<Chunk> cs = new ArrayList<>(count);
            List<float[]> vs = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                cs.add(new Chunk(in.readUTF(), in.readUTF(), in.readUTF(), in.readUTF(), in.readInt(), readText(in),
                        in.readUTF()));
                float[] v = new float[dim];
                for (int j = 0; j < dim; j++) {
                    v[j] = in.readFloat();
                }
                vs.add(v);
            }
            this.chunks = cs;
            this.vectors = vs;
            this.loadedKey = key;
            return true;
        } catch (IOException | RuntimeException e) {
            // unreadable or truncated (an old format, a disk error): the caller rebuilds it
            return false;
        }
    }

    @Override
    public void replace(IndexKey key, List<Chunk> newChunks, List<float[]> newVectors) {
        if (newChunks.size() != newVectors.size() || newChunks.isEmpty()) {
            throw new IllegalArgumentException(newChunks.size() + " chunks but " + newVectors.size() + " vectors");
        }
        Path target = file(key);
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = Files.createTempFile(dir, ".index-", ".tmp");
            try (OutputStream os = Files.newOutputStream(tmp);
                 DataOutputStream out = new DataOutputStream(new BufferedOutputStream(os, 1 << 16))) {
                out.writeInt(MAGIC);
                out.writeInt(FORMAT);
                out.writeUTF(key.embedderId());
                out.writeUTF(key.notesHash());
                out.writeInt(newVectors.get(0).length);
                out.writeInt(newChunks.size());
                for (int i = 0; i < newChunks.size(); i++) {
                    Chunk c = newChunks.get(i);
                    out.writeUTF(c.id());
                    out.writeUTF(c.kindId());
                    out.writeUTF(c.noteTitle());
                    out.writeUTF(c.section());
                    out.writeInt(c.position());
                    writeText(out, c.text());
                    out.writeUTF(c.source());
                    for (float x : newVectors.get(i)) {
                        out.writeFloat(x);
                    }
                }
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
            removeStale(key, target);
        } catch (IOException e) {
            throw new KbException("cannot write the knowledge index to " + target + ": " + e.getMessage()
                    + "; check that SLURMWISE_HOME (" + dir.getParent() + ") is writable or point it elsewhere", e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort: a leftover .tmp file is harmless
                }
            }
        }
        this.chunks = List.copyOf(newChunks);
        this.vectors = List.copyOf(newVectors);
        this.loadedKey = key;
    }

    /** Older indexes of the same model (other notes) are useless once the new one is in place. */
    private void removeStale(IndexKey key, Path keep) throws IOException {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "index-" + key.embedderName() + "-*.bin")) {
            for (Path p : ds) {
                if (!p.equals(keep)) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    @Override
    public List<Hit> nearest(float[] query, int n, Set<String> kinds) {
        if (loadedKey == null) {
            throw new IllegalStateException("the embedded index is not loaded; call holds() or replace() first");
        }
        List<Hit> hits = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            Chunk c = chunks.get(i);
            if (kinds == null || kinds.contains(c.kindId())) {
                double sim = Embedder.dot(query, vectors.get(i));
                hits.add(new Hit(c, sim, sim));
            }
        }
        hits.sort(BY_SCORE);
        return hits.size() > n ? List.copyOf(hits.subList(0, n)) : hits;
    }

    /** Best first; equal scores by chunk id, so every store ranks ties the same way. */
    public static final Comparator<Hit> BY_SCORE = Comparator.comparingDouble(Hit::score).reversed()
            .thenComparing(h -> h.chunk().id());

    private static void writeText(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readText(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > (64 << 20)) {
            throw new IOException("bad text length " + n);
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
