package io.slurmwise.bench;

import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.classify.Classifier;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.SacctReader;
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

import java.util.concurrent.TimeUnit;

/**
 * Fleet statistics at scale. One invocation aggregates one million records, so the score in ops/s is records per
 * second and {@code -prof gc}'s {@code gc.alloc.rate.norm} is bytes allocated per record.
 * <ul>
 *   <li>{@code aggregate}: 1M job records (a pool of 65,536 distinct synthetic jobs, cycled) into a
 *       {@link FleetStats}, failed jobs classified from their record (what {@code slurmwise stats} does without logs);</li>
 *   <li>{@code aggregateKnownKinds}: the same without the classifier, the cost of the aggregate alone;</li>
 *   <li>{@code parse}: 1M rows of {@code sacct -P} text (the mock cluster's export repeated, steps included) into
 *       records, streamed through {@link SacctReader};</li>
 *   <li>{@code parseAndAggregate}: both, what one sacct slice costs end to end (per row).</li>
 * </ul>
 * Run: {@code java -jar slurmwise-bench/target/benchmarks.jar FleetStatsBenchmark -prof gc}. Memory against the
 * window length: {@link StatsMemoryProbe}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
public class FleetStatsBenchmark {

    static final int RECORDS = 1_000_000;
    private static final int POOL = 1 << 16;

    private JobRecord[] pool;
    private String[] kinds;
    private FleetScan scan;

    @Setup(Level.Trial)
    public void setUp() {
        pool = new JobRecord[POOL];
        kinds = new String[POOL];
        scan = FleetScan.builder(MockBackend.bundled(), new Classifier(Taxonomy.load(null))).build();
        for (int i = 0; i < POOL; i++) {
            pool[i] = SyntheticJobs.job(i);
            kinds[i] = scan.failureKind(pool[i]);
        }
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public FleetStats aggregate() {
        FleetStats stats = scan.newStats();
        for (int i = 0; i < RECORDS; i++) {
            scan.add(stats, pool[i & (POOL - 1)]);
        }
        return stats;
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public FleetStats aggregateKnownKinds() {
        FleetStats stats = scan.newStats();
        for (int i = 0; i < RECORDS; i++) {
            stats.add(pool[i & (POOL - 1)], kinds[i & (POOL - 1)]);
        }
        return stats;
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public long parse() {
        long n = 0;
        try (SacctReader r = SacctReader.open(SyntheticJobs.sacctStream(RECORDS))) {
            while (r.hasNext()) {
                n += r.next().cpus();
            }
        }
        return n;
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public FleetStats parseAndAggregate() {
        FleetStats stats = scan.newStats();
        try (SacctReader r = SacctReader.open(SyntheticJobs.sacctStream(RECORDS))) {
            while (r.hasNext()) {
                scan.add(stats, r.next());
            }
        }
        return stats;
    }
}
