package io.slurmwise.backend.mock;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Where the mock cluster's files come from: the bundled classpath folder or a user's folder. */
interface FixtureSource {

    Optional<byte[]> read(String relative);

    /** The file's bytes as a stream (read as they are needed, never whole); empty when it is not there. */
    Optional<InputStream> open(String relative);

    /** Shown to users ("bundled mock cluster", or the folder). */
    String describe();

    /** A path for a fixture file when it is on disk (log tails are then read from the end of the file). */
    Optional<Path> file(String relative);

    static FixtureSource classpath(String folder) {
        return new FixtureSource() {
            @Override
            public Optional<byte[]> read(String relative) {
                try (InputStream in = MockBackend.class.getClassLoader().getResourceAsStream(folder + "/" + relative)) {
                    return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public Optional<InputStream> open(String relative) {
                return Optional.ofNullable(MockBackend.class.getClassLoader().getResourceAsStream(folder + "/" + relative));
            }

            @Override
            public String describe() {
                return "the bundled mock cluster";
            }

            @Override
            public Optional<Path> file(String relative) {
                return Optional.empty();
            }
        };
    }

    static FixtureSource folder(Path dir) {
        return new FixtureSource() {
            @Override
            public Optional<byte[]> read(String relative) {
                Path p = dir.resolve(relative);
                try {
                    return Files.isRegularFile(p) ? Optional.of(Files.readAllBytes(p)) : Optional.empty();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read mock fixture " + p, e);
                }
            }

            @Override
            public Optional<InputStream> open(String relative) {
                Path p = dir.resolve(relative);
                try {
                    return Files.isRegularFile(p) ? Optional.of(Files.newInputStream(p)) : Optional.empty();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read mock fixture " + p, e);
                }
            }

            @Override
            public String describe() {
                return "mock fixtures in " + dir;
            }

            @Override
            public Optional<Path> file(String relative) {
                // the folder's own logs may be pipes (a test's slow log): the folder is the operator's, read as
                // `classify <(cmd)` reads one; a record's path outside it is read only as a regular file of the job's user
                Path p = dir.resolve(relative);
                return Files.exists(p) && !Files.isDirectory(p) ? Optional.of(p) : Optional.empty();
            }
        };
    }
}
