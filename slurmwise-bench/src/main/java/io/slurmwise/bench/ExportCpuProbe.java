package io.slurmwise.bench;

import io.slurmwise.backend.JobQuery;
import io.slurmwise.classify.Classifier;
import io.slurmwise.job.SacctReader;
import io.slurmwise.stats.FleetScan;
import io.slurmwise.stats.FleetStats;
import io.slurmwise.taxonomy.Taxonomy;

import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * What {@code stats --input} costs per row in CPU time and allocation, measured on the thread's own clock
 * ({@code ThreadMXBean}), so the figure holds on a machine shared with other work, where JMH's wall-clock
 * throughput only shows this process's share of the cores. Same input as {@link ExportStatsBenchmark}: the mock
 * cluster's rows repeated 1,000 times with new ids (193,000 rows). Prints the median of 15 rounds after 10 of
 * warm-up for: parsing only, parsing plus the aggregate (kinds known), and parsing plus what {@code stats --input}
 * does (failed jobs classified from their record).
 *
 * <pre>java -Xmx1g -cp slurmwise-bench/target/benchmarks.jar io.slurmwise.bench.ExportCpuProbe</pre>
 */
public final class ExportCpuProbe {

    private ExportCpuProbe() {
    }

    public static void main(String[] args) {
        byte[] export = MockExport.bytes(ExportStatsBenchmark.COPIES);
        int rows = ExportStatsBenchmark.ROWS;
        FleetScan scan = FleetScan.forRecords(new Classifier(Taxonomy.load(null))).build();
        JobQuery all = new JobQuery(null, null, null, null, true, null);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        String[] modes = {"parse", "parse + aggregate (kinds known)", "parse + aggregate + classify (stats --input)"};
        double[][] rate = new double[modes.length][15];
        double[][] bytes = new double[modes.length][15];
        for (int round = 0; round < 25; round++) {
            for (int m = 0; m < modes.length; m++) {
                long c0 = mx.getCurrentThreadCpuTime();
                long a0 = mx.getThreadAllocatedBytes(tid);
                FleetStats stats = scan.newStats();
                long n = 0;
                try (SacctReader r = SacctReader.open(new ByteArrayInputStream(export))) {
                    while (r.hasNext()) {
                        var j = r.next();
                        if (m == 0) {
                            n += j.cpus();
                        } else if (all.covers(j)) {
                            if (m == 1) {
                                stats.add(j, "oom");
                            } else {
                                scan.add(stats, j);
                            }
                        }
                    }
                }
                long c1 = mx.getCurrentThreadCpuTime();
                long a1 = mx.getThreadAllocatedBytes(tid);
                if (round >= 10) {
                    rate[m][round - 10] = rows / ((c1 - c0) / 1e9);
                    bytes[m][round - 10] = (a1 - a0) / (double) rows;
                }
                if (n < 0 || stats.records() < 0) {
                    throw new IllegalStateException();
                }
            }
        }
        System.out.printf("%-46s %16s %10s%n", "rows of the mock export x " + ExportStatsBenchmark.COPIES, "rows/CPU-second",
                "B/row");
        for (int m = 0; m < modes.length; m++) {
            System.out.printf("%-46s %16.0f %10.0f%n", modes[m], median(rate[m]), median(bytes[m]));
        }
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return (s[s.length / 2] + s[(s.length - 1) / 2]) / 2;
    }
}
