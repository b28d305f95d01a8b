package io.slurmwise.backend.real;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Memory stays flat however much sacct prints: 5,000,000 rows (2.5M jobs with their .batch steps, ~930 MB of
 * text) of one 7-day slice from a fake sacct go through the real backend into the fleet aggregate in a JVM
 * capped at a 256 MB heap. Before streaming, 1M rows held ~650 MB and were then refused at 256 MiB.
 * {@code -Dslurmwise.stream.rows=N} changes the row count.
 */
class StreamMemoryTest {

    @Test
    void fiveMillionSacctRowsOfOneSliceAggregateUnderA256MbHeap() throws Exception {
        long rows = Long.getLong("slurmwise.stream.rows", 5_000_000L);
        Path fake = Path.of("../scripts/bench/fake-slurm").toAbsolutePath().normalize();
        assertThat(fake.resolve("sacct")).isExecutable();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = Files.createTempFile("stream-memory", ".log");
        Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                StreamMemoryMain.class.getName(), fake.toString(), Long.toString(rows))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended = p.waitFor(15, TimeUnit.MINUTES);
        if (!ended) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        assertThat(ended).as("finished within 15 minutes").isTrue();
        String out = Files.readString(log, StandardCharsets.UTF_8);
        Files.delete(log);
        assertThat(p.exitValue()).as(out).isZero();
        Matcher m = Pattern.compile("jobs=(\\d+) failed=(\\d+) peakHeapMB=(\\d+)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        assertThat(Long.parseLong(m.group(1))).isEqualTo(rows / 2);
        assertThat(Long.parseLong(m.group(2))).as("1 in 10 FAILED, 1 in 50 OUT_OF_MEMORY")
                .isEqualTo(rows / 2 / 10 + rows / 2 / 50);
        assertThat(Long.parseLong(m.group(3))).isLessThanOrEqualTo(256);
        System.out.println("StreamMemoryTest: " + rows + " rows, -Xmx256m: " + out.strip());
    }

}
