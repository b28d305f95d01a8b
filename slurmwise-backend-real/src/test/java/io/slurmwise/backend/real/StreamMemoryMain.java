package io.slurmwise.backend.real;

import io.slurmwise.backend.JobQuery;
import io.slurmwise.classify.Classifier;
import io.slurmwise.stats.FleetReport;
import io.slurmwise.stats.FleetScan;
import io.slurmwise.taxonomy.Taxonomy;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Map;

/**
 * Aggregates one 7-day slice of the fake sacct (scripts/bench/fake-slurm) through the real backend and prints
 * {@code jobs=N failed=N peakHeapMB=N seconds=S}; run by StreamMemoryTest in a JVM with a small heap.
 * Arguments: the fake-slurm folder, the number of rows.
 */
public final class StreamMemoryMain {

    private StreamMemoryMain() {
    }

    public static void main(String[] args) {
        long t0 = System.nanoTime();
        RealBackendConfig config = new RealBackendConfig(Map.of("PATH", Path.of(args[0]).toAbsolutePath().toString(),
                "FAKE_SACCT_ROWS", args[1]), Duration.ofSeconds(300), Duration.ofSeconds(15),
                RealBackendConfig.DEFAULT_MAX_SACCT_BYTES, RealBackendConfig.DEFAULT_MAX_OTHER_BYTES);
        try (RealBackend backend = RealBackend.create(config, System.err::println)) {
            FleetReport.Breakdown t = FleetScan.builder(backend, new Classifier(Taxonomy.load(null))).build()
                    .run(JobQuery.window(LocalDateTime.of(2026, 11, 20, 0, 0), LocalDateTime.of(2026, 11, 27, 0, 0)))
                    .report().total();
            long peak = 0;
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) {
                    peak += p.getPeakUsage().getUsed();
                }
            }
            System.out.printf("jobs=%d failed=%d peakHeapMB=%d seconds=%.1f%n", t.jobs(), t.failed(), peak >> 20,
                    (System.nanoTime() - t0) / 1e9);
        }
    }
}
