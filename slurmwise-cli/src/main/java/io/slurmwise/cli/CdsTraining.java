package io.slurmwise.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The training run of the start-up archive (AppCDS, made by the launchers with {@code -XX:ArchiveClassesAtExit}):
 * the commands people run most, in one JVM on the bundled mock cluster, output discarded, so that the archive holds
 * the classes of each of them and not of {@code diagnose} alone ({@code stats --input} loaded 456 classes from the
 * jars when only a diagnosis trained it). Not a user command; exits 0 when every run finished, whatever it printed.
 */
public final class CdsTraining {

    private CdsTraining() {
    }

    public static void main(String[] args) throws IOException {
        train(System.getenv());
    }

    /** The command lines of the training, given the mock cluster's export and a log copied to files. */
    static List<String[]> runs(String export, String log) {
        return List.of(
                new String[] {"--backend", "mock", "diagnose", "1001", "--no-llm"},
                new String[] {"--backend", "mock", "diagnose", "1001", "--rules-only", "--json"},
                new String[] {"--backend", "mock", "stats"},
                new String[] {"--backend", "mock", "stats", "--input", export, "--json"},
                new String[] {"--backend", "mock", "jobs"},
                new String[] {"--backend", "mock", "classify", log});
    }

    /** Runs the training with this environment (no model, a scratch home unless one is set); the exit codes. */
    static List<Integer> train(Map<String, String> environment) {
        Path work;
        try {
            work = Files.createTempDirectory("slurmwise-cds-training");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            Path export = copy("/io/slurmwise/mock/cluster/sacct.psv", work.resolve("sacct.psv"));
            Path log = copy("/io/slurmwise/mock/cluster/logs/1001.err", work.resolve("1001.err"));
            Map<String, String> env = new HashMap<>(environment);
            env.put("SLURMWISE_NO_LLM", "1");
            env.putIfAbsent("SLURMWISE_HOME", work.resolve("home").toString());
            List<Integer> codes = new ArrayList<>();
            for (String[] run : runs(export.toString(), log.toString())) {
                StringWriter sink = new StringWriter();
                codes.add(Main.run(run, new PrintWriter(sink), new PrintWriter(sink), env, false));
            }
            return codes;
        } finally {
            try (var paths = Files.walk(work)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a scratch folder left in the temporary directory is harmless
            }
        }
    }

    private static Path copy(String resource, Path to) {
        try (InputStream in = CdsTraining.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the mock cluster's " + resource + " is not on the classpath");
            }
            Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
