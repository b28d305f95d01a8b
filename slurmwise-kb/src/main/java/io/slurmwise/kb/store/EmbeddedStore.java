package io.slurmwise.kb.store;

import io.slurmwise.config.AtomicFile;

import io.slurmwise.kb.spi.IndexKey;
import io.slurmwise.kb.spi.VectorStore;
import io.slurmwise.kb.spi.KbException;
import io.slurmwise.kb.spi.Passage;
import io.slurmwise.kb.embed.Embedder;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * The default store: one file per model under {@code SLURMWISE_HOME/kb/}, named after the index key
 * ({@code index-<model>-<hash>.bin}), loaded whole and searched exactly (a dot product per passage: the bundled
 * notes make ~355 passages of 384 floats, about 0.5 MB). Files are written to a temporary name and moved into
 * place, so a reader never sees half an index and two concurrent builds cannot corrupt each other.
 *
 * <pre>{@code
 * VectorStore s = new EmbeddedStore(Path.of(System.getProperty("user.home"), ".slurmwise", "kb"));
 * }</pre>
 */
public final class EmbeddedStore implements VectorStore {

    private static final int MAGIC = 0x53574b42; // "SWKB"
    /** 3: a CRC-32 of everything before it ends the file, so a damaged index is told from a current one. */
    private static final int FORMAT = 3;

    private final Path dir;
    private IndexKey loadedKey;
    private List<String> ids = List.of();
    private List<String> kinds = List.of();
    private List<float[]> vectors = List.of();
    private String damage;

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
    public java.util.Optional<String> damage() {
        return java.util.Optional.ofNullable(damage);
    }

    @Override
    public boolean holds(IndexKey key, int count) {
        damage = null;
        if (key.equals(loadedKey)) {
            return ids.size() == count;
        }
        Path f = file(key);
        AtomicFile.removeLeftovers(f); // half-written copies of killed builds, whether or not this one is rebuilt
        if (!Files.isRegularFile(f)) {
            return false;
        }
        CRC32 crc = new CRC32();
        try (CheckedInputStream checked = new CheckedInputStream(
                new BufferedInputStream(Files.newInputStream(f), 1 << 16), crc);
             DataInputStream in = new DataInputStream(checked)) {
            if (in.readInt() != MAGIC || in.readInt() != FORMAT) {
                return false; // another format: rebuilt without a word
            }
            IndexKey stored = new IndexKey(in.readUTF(), in.readUTF());
            if (!stored.equals(key)) {
                return false;
            }
            int dim = in.readInt();
            int n = in.readInt();
            if (n != count || dim <= 0) {
                return false;
            }
            List<String> is = new ArrayList<>(n);
            List<String> ks = new ArrayList<>(n);
            List<float[]> vs = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                is.add(in.readUTF());
                ks.add(in.readUTF());
                float[] v = new float[dim];
                for (int j = 0; j < dim; j++) {
                    v[j] = in.readFloat();
                }
                vs.add(v);
            }
            long sum = crc.getValue();
            if (in.readInt() != (int) sum || in.read() != -1) {
                throw new IOException("checksum mismatch");
            }
            this.ids = is;
            this.kinds = ks;
            this.vectors = vs;
            this.loadedKey = key;
            return true;
        } catch (IOException | RuntimeException e) {
            // cut short (a build killed mid-write on a file system without atomic rename), damaged or unreadable:
            // the caller says so and rebuilds it
            damage = "the knowledge index " + f + " could not be read (" + (e instanceof java.io.EOFException
                    ? "cut short" : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()) + ")";
            return false;
        }
    }

    @Override
    public void replace(IndexKey key, List<Passage> passages, List<float[]> newVectors) {
        if (passages.size() != newVectors.size() || passages.isEmpty()) {
            throw new IllegalArgumentException(passages.size() + " passages but " + newVectors.size() + " vectors");
        }
        Path target = file(key);
        try {
            AtomicFile.write(target, os -> {
                CRC32 crc = new CRC32();
                CheckedOutputStream checked = new CheckedOutputStream(new BufferedOutputStream(os, 1 << 16), crc);
                DataOutputStream out = new DataOutputStream(checked);
                out.writeInt(MAGIC);
                out.writeInt(FORMAT);
                out.writeUTF(key.embedderId());
                out.writeUTF(key.notesHash());
                out.writeInt(newVectors.get(0).length);
                out.writeInt(passages.size());
                for (int i = 0; i < passages.size(); i++) {
                    out.writeUTF(passages.get(i).id());
                    out.writeUTF(passages.get(i).chunk().kindId());
                    for (float x : newVectors.get(i)) {
                        out.writeFloat(x);
                    }
                }
                out.flush();
                out.writeInt((int) crc.getValue());
                out.flush();
            });
            removeStale(key, target);
        } catch (IOException e) {
            throw new KbException("cannot write the knowledge index to " + target + ": " + e.getMessage()
                    + "; check that SLURMWISE_HOME (" + dir.getParent() + ") is writable or point it elsewhere", e);
        }
        this.ids = passages.stream().map(Passage::id).toList();
        this.kinds = passages.stream().map(p -> p.chunk().kindId()).toList();
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
    public List<Match> nearest(float[] query, int n, Set<String> only) {
        if (loadedKey == null) {
            throw new IllegalStateException("the embedded index is not loaded; call holds() or replace() first");
        }
        List<Match> out = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            if (only == null || only.contains(kinds.get(i))) {
                out.add(new Match(ids.get(i), Embedder.dot(query, vectors.get(i))));
            }
        }
        out.sort(Comparator.comparingDouble(Match::similarity).reversed().thenComparing(Match::passageId));
        return out.size() > n ? List.copyOf(out.subList(0, n)) : out;
    }
}
