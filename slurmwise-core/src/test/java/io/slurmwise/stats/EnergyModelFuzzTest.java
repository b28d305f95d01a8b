package io.slurmwise.stats;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import io.slurmwise.testing.Fuzz;
import io.slurmwise.testing.Hostile;
import io.slurmwise.testing.Lines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the energy site file reader (SLURMWISE_ENERGY_FILE / --energy-file, a centre's properties file): a file
 * is applied or rejected with an EnergyModelException naming the file and key, nothing else.
 */
@Tag("fuzz")
class EnergyModelFuzzTest {

    private static final Path FILE = file();
    private static final List<String> SITES = List.of("""
            # a site
            gpu.watts = 300
            gpu.model.a100 = 400
            cpu.watts-per-core = 12.5
            memory.watts-per-gb = 0.4
            pue = 1.3
            carbon-intensity = 0.2
            partition.gpu.gpu.watts = 350
            partition.cpu.cpu.watts-per-core = 10
            """, "pue: 1.2\n! comment\nkey\\\n  = 1\n", "");

    private static Path file() {
        try {
            // a million small writes: to memory (/dev/shm) where there is one
            Path shm = Path.of("/dev/shm");
            Path dir = Files.isWritable(shm) ? Files.createTempDirectory(shm, "slurmwise-fuzz-energy")
                    : Files.createDirectories(Path.of("target", "fuzz-energy"));
            dir.toFile().deleteOnExit();
            Path f = dir.resolve("energy.properties");
            f.toFile().deleteOnExit();
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void record() {
        Fuzz.record();
    }

    private static final String[] KEYS = {"gpu.watts", "gpu.model.", "gpu.model.a100", "cpu.watts-per-core",
            "memory.watts-per-gb", "pue", "carbon-intensity", "partition..gpu.watts", "partition.gpu.gpu.watts",
            "partition.x.cpu.watts-per-core", "partition.", "unknown", ""};
    private static final java.util.function.Function<java.util.Random, String> VALUE = Hostile.pick("300", "1.3",
            "0.37", "1e308", "-0", "0x10", "1_000", "\\u0031", "\\uZZZZ", "1\\\n2");

    /** A key=value line of a known or unknown key and a hostile value, or a hostile line. */
    private static String line(java.util.Random r) {
        if (r.nextInt(4) == 0) {
            return Hostile.pick().apply(r);
        }
        return KEYS[r.nextInt(KEYS.length)] + new String[] {"=", ":", " ", " = "}[r.nextInt(4)] + VALUE.apply(r);
    }

    static Function<Random, byte[]> siteFilesGen() {
        return (Fuzz.oneOf(
                r -> Lines.damaged(SITES, EnergyModelFuzzTest::line, "\n").apply(r).getBytes(StandardCharsets.UTF_8),
                r -> {
                    StringBuilder sb = new StringBuilder();
                    for (int i = r.nextInt(7); i > 0; i--) {
                        sb.append(line(r)).append('\n');
                    }
                    return sb.toString().getBytes(StandardCharsets.UTF_8);
                },
                r -> { // bytes that are not UTF-8 text
                    byte[] b = new byte[r.nextInt(64)];
                    r.nextBytes(b);
                    return b;
                }));
    }

    @Test
    void siteFiles() throws IOException {
        for (byte[] bytes : Fuzz.inputs(siteFilesGen())) {
            Files.write(FILE, bytes);
            Fuzz.rejectsOnlyWith("EnergyModel (site files)", EnergyModelException.class,
                    new String(bytes, StandardCharsets.UTF_8),
                    () -> EnergyModel.defaults().toBuilder().siteFile(FILE).build());
        }
    }
}
