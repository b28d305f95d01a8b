package io.slurmwise.config;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes a state file (watch state, knowledge index) so that a kill at any moment leaves either the old file or the
 * new one, never a mix, and never an ever-growing pile of half-written copies: the bytes go to a temporary file
 * beside the target, named after the writing host and process ({@code .state.json.node12.4711.k3x9.tmp}), which is
 * renamed over the target once complete. A temporary file left by a writer of this host that no longer runs (a
 * SIGKILL, a power cut) is deleted by the next write; one of another host (a home directory on NFS) is left alone.
 *
 * <pre>{@code
 * AtomicFile.write(home.resolve("watch-state.json"), out -> out.write(json));
 * }</pre>
 */
public final class AtomicFile {

    /** Writes the target's new content to the stream it is given. */
    @FunctionalInterface
    public interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    private static final Pattern LEFTOVER = Pattern.compile("\\.(.+)\\.([^.]+)\\.(\\d+)\\.[0-9a-z]+\\.tmp");

    private AtomicFile() {
    }

    /** Replaces {@code target} with what {@code body} writes; on failure the old target is untouched. */
    public static void write(Path target, Body body) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        removeLeftovers(dir, target.getFileName().toString());
        // unique per write: two threads of one process (an MCP server's workers) may write the same target
        String unique = Long.toString(java.util.concurrent.ThreadLocalRandom.current().nextLong() >>> 1, 36);
        Path tmp = dir.resolve("." + target.getFileName() + "." + host() + "." + ProcessHandle.current().pid() + "."
                + unique + ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                body.writeTo(out);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Deletes the temporary files of {@code target} that writers of this host left when they died (what every
     * {@link #write} does first; for a reader that may not write, e.g. an index found current).
     */
    public static void removeLeftovers(Path target) {
        Path dir = target.toAbsolutePath().getParent();
        if (dir != null && Files.isDirectory(dir)) {
            removeLeftovers(dir, target.getFileName().toString());
        }
    }

    private static void removeLeftovers(Path dir, String name) {
        String host = host();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "." + globSafe(name) + ".*.tmp")) {
            for (Path p : ds) {
                Matcher m = LEFTOVER.matcher(p.getFileName().toString());
                if (!m.matches() || !m.group(1).equals(name) || !m.group(2).equals(host)) {
                    continue;
                }
                long pid = Long.parseLong(m.group(3));
                boolean alive = pid == ProcessHandle.current().pid()
                        || ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
                if (!alive) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException | RuntimeException e) {
            // best effort: a leftover costs disk space, never correctness
        }
    }

    private static String globSafe(String name) {
        return name.replaceAll("[\\\\*?\\[\\]{}]", "?");
    }

    private static String host() {
        // the kernel's name, not a DNS lookup (which can hang for seconds on a node with a broken resolver)
        String h;
        try {
            h = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException | RuntimeException e) {
            h = System.getenv().getOrDefault("HOSTNAME", "localhost").strip();
        }
        return h.isEmpty() ? "localhost" : h.replaceAll("[^A-Za-z0-9-]", "_");
    }
}
