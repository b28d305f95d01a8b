package io.slurmwise.bench;

import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.classify.Classifier;
import io.slurmwise.stats.ExportStats;
import io.slurmwise.stats.FleetScan;
import io.slurmwise.taxonomy.Taxonomy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The analytics' hot path on a busy centre's history: {@code scripts/history/sacct-history.py}'s export (steps,
 * arrays, requeued runs, het jobs; 220,000 jobs, ~900,000 rows, 163 MB by default) read from the file and aggregated
 * through {@link ExportStats}, failed jobs classified from their record, as {@code stats --input} does without the
 * JVM start and the output. One operation is the whole history ({@code -prof gc}'s {@code gc.alloc.rate.norm} is
 * bytes per history); {@code threads} 1 is the per-core cost, 2 what this project's 2-core machine gives.
 * Generate the history first ({@code scripts/history/run.sh}, or the generator alone), then:
 * {@code java -jar slurmwise-bench/target/benchmarks.jar HistoryStatsBenchmark -prof gc
 * -p history=/tmp/slurmwise-history/history-220000-39-Europe_Berlin.psv}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class HistoryStatsBenchmark {

    @Param("/tmp/slurmwise-history/history-220000-39-Europe_Berlin.psv")
    public String history;

    @Param({"1", "2"})
    public int threads;

    private Path file;
    private FleetScan scan;
    private final JobQuery all = new JobQuery(null, null, null, null, true, null);

    @Setup
    public void setUp() {
        file = Path.of(history);
        if (!Files.isReadable(file)) {
            throw new IllegalStateException(history + " is missing: generate it with scripts/history/run.sh");
        }
        scan = FleetScan.builder(MockBackend.bundled(), new Classifier(Taxonomy.load(null))).build();
    }

    @Benchmark
    public ExportStats.Result aggregateHistory() {
        return ExportStats.builder(scan::newStats, scan::add).threads(threads).build()
                .run(List.of(ExportStats.Source.of(file.toString(), () -> Files.newInputStream(file))), all);
    }
}
