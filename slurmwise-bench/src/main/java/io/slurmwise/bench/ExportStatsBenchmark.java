package io.slurmwise.bench;

import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.classify.Classifier;
import io.slurmwise.job.SacctReader;
import io.slurmwise.stats.ExportStats;
import io.slurmwise.stats.FleetScan;
import io.slurmwise.stats.FleetStats;
import io.slurmwise.taxonomy.Taxonomy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code stats --input} on one core: an in-memory export of the mock cluster's rows repeated with new job ids
 * (1,000 copies: 193,000 rows, 67,000 jobs, steps included) parsed from bytes and aggregated, failed jobs
 * classified from their record. One operation is one row, so ops/s is rows/s and {@code -prof gc}'s
 * {@code gc.alloc.rate.norm} is bytes allocated per row.
 * <ul>
 *   <li>{@code parseAndAggregate}: the reader and the aggregate on the benchmark thread (per core);</li>
 *   <li>{@code exportStatsOneWorker}: the same through {@link ExportStats} with one worker (adds the block cutting).</li>
 * </ul>
 * Run: {@code java -jar slurmwise-bench/target/benchmarks.jar ExportStatsBenchmark -prof gc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class ExportStatsBenchmark {

    static final int COPIES = 1000;
    static final int ROWS = 193_000;

    private byte[] export;
    private FleetScan scan;
    private final JobQuery all = new JobQuery(null, null, null, null, true, null);

    @Setup(Level.Trial)
    public void setUp() {
        export = MockExport.bytes(COPIES);
        if (MockExport.rowsPerCopy() * COPIES != ROWS) {
            throw new IllegalStateException("the mock cluster has " + MockExport.rowsPerCopy() + " rows now; fix ROWS");
        }
        scan = FleetScan.builder(MockBackend.bundled(), new Classifier(Taxonomy.load(null))).build();
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public FleetStats parseAndAggregate() {
        FleetStats stats = scan.newStats();
        try (SacctReader r = SacctReader.open(new ByteArrayInputStream(export))) {
            while (r.hasNext()) {
                var j = r.next();
                if (all.covers(j)) {
                    scan.add(stats, j);
                }
            }
        }
        return stats;
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public ExportStats.Result exportStatsOneWorker() {
        return ExportStats.builder(scan::newStats, scan::add).threads(1).build()
                .run(List.of(ExportStats.Source.of("export", () -> new ByteArrayInputStream(export))), all);
    }
}
