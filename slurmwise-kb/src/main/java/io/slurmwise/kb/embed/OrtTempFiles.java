package io.slurmwise.kb.embed;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Removes the folder ONNX Runtime's Java binding extracts its native libraries into, once they are loaded.
 *
 * <p>ONNX Runtime 1.20 creates {@code $TMPDIR/onnxruntime-java<random>} on every JVM start, extracts the
 * libraries there, loads them and asks for the files and the folder to be deleted at exit; the JVM deletes
 * in reverse order of the requests, so the folder goes first, fails (not empty yet), and stays behind,
 * empty. One per run: a login node where a cron job runs {@code slurmwise} every few minutes collects
 * thousands. A library already loaded needs no file on Linux and macOS, so the folder is removed right
 * after loading; on Windows, where a loaded library cannot be deleted, the attempt fails quietly and
 * ONNX Runtime's own clean-up stays as it was.
 */
final class OrtTempFiles {

    private OrtTempFiles() {
    }

    /** The folder ONNX Runtime extracted into in this JVM, if it made one (read from its class). */
    static Optional<Path> extractedDirectory() {
        try {
            Class<?> ort = Class.forName("ai.onnxruntime.OnnxRuntime", false, OrtTempFiles.class.getClassLoader());
            Field f = ort.getDeclaredField("tempDirectory");
            f.setAccessible(true);
            return Optional.ofNullable((Path) f.get(null));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Optional.empty();   // another ONNX Runtime version: leave its files to it
        }
    }

    /** Deletes the extracted libraries and their folder; nothing happens when they cannot be deleted. */
    static void removeExtracted() {
        extractedDirectory().filter(Files::isDirectory).ifPresent(dir -> {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.deleteIfExists(p);
                }
                Files.deleteIfExists(dir);
            } catch (IOException | RuntimeException e) {
                // a loaded library that the platform keeps open (Windows): ONNX Runtime's exit hook remains
            }
        });
    }
}
