package io.slurmwise.bench;

import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.classify.Classifier;
import io.slurmwise.stats.FleetScan;
import io.slurmwise.stats.FleetStats;
import io.slurmwise.taxonomy.Taxonomy;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;

/**
 * Shows that the aggregate's memory does not grow with the window: aggregates 100k, 1M and 10M synthetic jobs
 * (3, 30 and 300 days at 33,000 jobs a day, generated on the fly, never held) and prints the heap the finished
 * {@link FleetStats} retains (heap in use after a full GC with the aggregate, minus the same without it) and the time taken.
 * Run: {@code java -XX:+UseSerialGC -cp slurmwise-bench/target/benchmarks.jar io.slurmwise.bench.StatsMemoryProbe}.
 */
public final class StatsMemoryProbe {

    private StatsMemoryProbe() {
    }

    public static void main(String[] args) {
        FleetScan scan = FleetScan.builder(MockBackend.bundled(), new Classifier(Taxonomy.load(null))).build();
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        long[] sizes = args.length > 0 ? java.util.Arrays.stream(args).mapToLong(Long::parseLong).toArray()
                : new long[] {100_000, 1_000_000, 10_000_000};
        warmUp(scan);
        System.out.println("records      days  retained-by-aggregate  seconds  records/s");
        for (long n : sizes) {
            long t0 = System.nanoTime();
            FleetStats stats = scan.newStats();
            for (long i = 0; i < n; i++) {
                scan.add(stats, SyntheticJobs.job(i));
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            String shape = stats.report().byDay().size() + " days, " + stats.report().byUser().size() + " users, "
                    + "arrays truncated: " + stats.report().arraysTruncated();
            if (stats.records() != n) {
                throw new IllegalStateException("aggregated " + stats.records() + " of " + n);
            }
            long with = used(mem);
            java.lang.ref.Reference.reachabilityFence(stats); // live through the first measurement, dead after
            stats = null;
            long retained = with - used(mem);
            System.out.println(String.format(Locale.ROOT, "%,10d  %5d  %,18d B  %7.2f  %,9.0f", n,
                    n / SyntheticJobs.JOBS_PER_DAY + 1, retained, secs, n / secs) + "   (" + shape + ")");
        }
    }

    /** Loads and compiles everything before the baseline is taken; in its own frame so nothing of it stays live. */
    private static void warmUp(FleetScan scan) {
        FleetStats warm = scan.newStats();
        for (long i = 0; i < 200_000; i++) {
            scan.add(warm, SyntheticJobs.job(i));
        }
        warm.report();
    }

    private static long used(MemoryMXBean mem) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return mem.getHeapMemoryUsage().getUsed();
    }
}
