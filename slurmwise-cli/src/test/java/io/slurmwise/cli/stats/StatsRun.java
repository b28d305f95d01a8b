package io.slurmwise.cli.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slurmwise.cli.Main;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Runs the CLI in-process against the mock backend, and unpacks the bundled seed window to a folder. */
final class StatsRun {

    record Result(int code, String out, String err) {
        JsonNode json() {
            try {
                return new ObjectMapper().readTree(out);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    static final List<String> SEED_FILES = List.of("sacct.psv", "cluster.properties", "partitions.psv", "README.md",
            "logs/3101.out", "logs/3101.err", "logs/3102.out", "logs/3102.err");

    private StatsRun() {
    }

    static Result run(Map<String, String> extraEnv, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Map<String, String> env = new HashMap<>(Map.of("SLURMWISE_BACKEND", "mock", "COLUMNS", "100"));
        env.putAll(extraEnv);
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err), env, false);
        return new Result(code, out.toString(), err.toString());
    }

    /** The seed-window dataset of slurmwise-backend-mock, copied out of the classpath (it may be inside a jar). */
    static Path seedWindow(Path dir) {
        try {
            for (String f : SEED_FILES) {
                try (InputStream in = StatsRun.class.getClassLoader()
                        .getResourceAsStream("io/slurmwise/mock/seed-window/" + f)) {
                    if (in == null) {
                        throw new IllegalStateException("seed-window/" + f + " is not on the classpath");
                    }
                    Path p = dir.resolve(f);
                    Files.createDirectories(p.getParent());
                    Files.copy(in, p, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
