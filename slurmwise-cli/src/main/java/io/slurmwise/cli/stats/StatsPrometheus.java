package io.slurmwise.cli.stats;

import io.slurmwise.view.StatsContext;
import io.slurmwise.stats.FleetReport;
import io.slurmwise.stats.FleetReport.Breakdown;
import io.slurmwise.job.Outcome;

import java.io.PrintWriter;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * {@code --prometheus}: the Prometheus text format that node_exporter's textfile collector reads
 * ({@code slurmwise stats --all-users --prometheus > /var/lib/node_exporter/slurmwise.prom.$$ && mv ...}).
 * Every metric is a gauge over the report's window, in base units (seconds, joules, grams), with HELP and TYPE
 * lines and no timestamps. A ratio with nothing to divide by (no job ended, none completed) has no sample, never NaN:
 * a NaN sample makes every average and sum over it NaN in PromQL. The names are stable: they are listed in the README and only ever added to.
 */
final class StatsPrometheus {

    private final PrintWriter out;

    private StatsPrometheus(PrintWriter out) {
        this.out = out;
    }

    static void write(PrintWriter out, StatsContext ctx) {
        new StatsPrometheus(out).all(ctx);
        out.flush();
    }

    private record Sample(Map<String, String> labels, double value) {
    }

    private void metric(String name, String help, List<Sample> samples) {
        out.print("# HELP " + name + " " + help + "\n");
        out.print("# TYPE " + name + " gauge\n");
        for (Sample s : samples) {
            if (Double.isNaN(s.value())) {
                continue; // a ratio of nothing (no job ended, none completed) has no sample: NaN would poison averages
            }
            StringBuilder sb = new StringBuilder(name);
            if (!s.labels().isEmpty()) {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<String, String> l : s.labels().entrySet()) {
                    sb.append(first ? "" : ",").append(l.getKey()).append("=\"").append(escape(l.getValue())).append('"');
                    first = false;
                }
                sb.append('}');
            }
            out.print(sb.append(' ').append(value(s.value())).append('\n'));
        }
    }

    private void single(String name, String help, double v) {
        metric(name, help, List.of(new Sample(Map.of(), v)));
    }

    private static List<Sample> per(String label, List<Breakdown> rows, ToDoubleFunction<Breakdown> f) {
        List<Sample> out = new ArrayList<>();
        for (Breakdown b : rows) {
            out.add(new Sample(Map.of(label, b.key()), f.applyAsDouble(b)));
        }
        return out;
    }

    private void all(StatsContext ctx) {
        FleetReport r = ctx.report();
        Breakdown t = r.total();
        // the window the figures cover: --since/--until, or an export's own span where they were not given (an
        // outside audit: --input alone published no window), as --json's covered_from/covered_until
        if (r.coveredFrom() != null) {
            single("slurmwise_window_start_timestamp_seconds", "Start of the reporting window (Unix time; sacct's "
                    + "local times read in this host's zone; an export read whole: its jobs' earliest end, as the by-day rows date them).",
                    r.coveredFrom().atZone(ZoneId.systemDefault()).toEpochSecond());
        }
        if (r.coveredUntil() != null) {
            single("slurmwise_window_end_timestamp_seconds", "End of the reporting window (Unix time; an export read "
                    + "whole: its jobs' latest end).", r.coveredUntil().atZone(ZoneId.systemDefault()).toEpochSecond());
        }
        List<Sample> jobs = new ArrayList<>();
        for (Breakdown b : r.byPartition()) {
            for (Outcome o : Outcome.values()) {
                long n = count(b, o);
                if (n > 0 || o == Outcome.FAILED || o == Outcome.COMPLETED) {
                    jobs.add(new Sample(labels("partition", b.key(), "outcome", o.id()), n));
                }
            }
        }
        metric("slurmwise_jobs", "Jobs in the window by partition and outcome (completed, failed, cancelled, "
                + "preempted, pending, running, unknown).", jobs);
        single("slurmwise_failure_ratio", "Failed jobs / ended jobs; cancelled and preempted jobs are ended but "
                + "not failed.", t.failureRate() == null ? Double.NaN : t.failureRate());
        metric("slurmwise_never_started_jobs", "Ended jobs whose record says they never ran (cancelled or refused "
                + "while queued), by partition and outcome (failed, other); counted in slurmwise_jobs and in the "
                + "failure ratio's denominator.", neverStarted("partition", r.byPartition()));
        // by kind too, as --json's by_kind has it (an outside audit: only the partitions said it): kinds are the
        // taxonomy's few, so every kind of failed_jobs_by_kind has its sample, 0 included, and a ratio of the two
        // has both sides; not by user (as many series as users, for a figure --json and --csv give per user)
        metric("slurmwise_never_started_jobs_by_kind", "Failed jobs of each failure kind that never ran (a DEADLINE "
                + "or a refusal reached in the queue), within slurmwise_failed_jobs_by_kind.",
                per("kind", r.byKind(), Breakdown::failedNeverStarted));
        metric("slurmwise_partition_failure_ratio", "Failed / ended jobs of each partition.",
                per("partition", r.byPartition(), b -> b.failureRate() == null ? Double.NaN : b.failureRate()));
        if (r.severalClusters()) {
            List<Sample> byCluster = new ArrayList<>();
            for (Breakdown b : r.byCluster()) {
                for (Outcome o : Outcome.values()) {
                    long n = count(b, o);
                    if (n > 0 || o == Outcome.FAILED || o == Outcome.COMPLETED) {
                        byCluster.add(new Sample(labels("cluster", b.key(), "outcome", o.id()), n));
                    }
                }
            }
            metric("slurmwise_cluster_jobs", "Jobs in the window by cluster (sacct's Cluster) and outcome.", byCluster);
            metric("slurmwise_cluster_never_started_jobs", "Ended jobs that never ran, by cluster and outcome "
                    + "(failed, other), within slurmwise_cluster_jobs.", neverStarted("cluster", r.byCluster()));
            metric("slurmwise_cluster_failure_ratio", "Failed / ended jobs of each cluster.",
                    per("cluster", r.byCluster(), b -> b.failureRate() == null ? Double.NaN : b.failureRate()));
            metric("slurmwise_wasted_gpu_seconds_by_cluster", "GPU-seconds allocated to failed jobs, by cluster.",
                    per("cluster", r.byCluster(), b -> b.wastedGpuHours() * 3600));
            metric("slurmwise_wasted_cpu_seconds_by_cluster", "CPU core-seconds allocated to failed jobs, by cluster.",
                    per("cluster", r.byCluster(), b -> b.wastedCpuHours() * 3600));
            metric("slurmwise_wasted_energy_estimated_joules_by_cluster", "Estimated facility energy of failed jobs, "
                    + "by cluster.", per("cluster", r.byCluster(), b -> b.wastedKwh() * 3.6e6));
        }
        metric("slurmwise_failed_jobs_by_kind", "Failed jobs by failure kind (the classifier's verdict).",
                per("kind", r.byKind(), Breakdown::failed));
        metric("slurmwise_wasted_gpu_seconds_by_kind", "GPU-seconds allocated to failed jobs (elapsed x GPUs), by "
                + "failure kind.", per("kind", r.byKind(), b -> b.wastedGpuHours() * 3600));
        metric("slurmwise_wasted_cpu_seconds_by_kind", "CPU core-seconds allocated to failed jobs, by failure kind.",
                per("kind", r.byKind(), b -> b.wastedCpuHours() * 3600));
        metric("slurmwise_wasted_energy_estimated_joules_by_kind", "Estimated facility energy of failed jobs "
                + "(power x time x PUE), by failure kind.", per("kind", r.byKind(), b -> b.wastedKwh() * 3.6e6));
        metric("slurmwise_wasted_gpu_seconds_by_partition", "GPU-seconds allocated to failed jobs, by partition.",
                per("partition", r.byPartition(), b -> b.wastedGpuHours() * 3600));
        metric("slurmwise_wasted_cpu_seconds_by_partition", "CPU core-seconds allocated to failed jobs, by partition.",
                per("partition", r.byPartition(), b -> b.wastedCpuHours() * 3600));
        metric("slurmwise_wasted_energy_estimated_joules_by_partition", "Estimated facility energy of failed jobs, "
                + "by partition.", per("partition", r.byPartition(), b -> b.wastedKwh() * 3.6e6));
        metric("slurmwise_wasted_gpu_seconds_by_user", "GPU-seconds allocated to failed jobs, by user.",
                per("user", r.byUser(), b -> b.wastedGpuHours() * 3600));
        metric("slurmwise_failed_jobs_by_user", "Failed jobs by user.", per("user", r.byUser(), Breakdown::failed));
        single("slurmwise_failed_jobs_without_hours", "Failed jobs that held no GPU or CPU time (never started, or "
                + "no elapsed time): failures that waste nothing.", r.failedWithoutHours());
        single("slurmwise_wasted_co2e_estimated_grams", "Estimated CO2e of the failed jobs' energy (grams).",
                t.wastedCo2Kg() * 1000);
        single("slurmwise_wasted_energy_measured_joules", "Energy SLURM measured (ConsumedEnergy) on the failed jobs "
                + "that have a measurement; never added to the estimates.",
                t.measuredWastedKwh() == null ? 0 : t.measuredWastedKwh() * 3.6e6);
        single("slurmwise_wasted_energy_measured_jobs", "Failed jobs with a SLURM energy measurement.",
                t.measuredWastedJobs());
        metric("slurmwise_interrupted_gpu_seconds_by_partition", "GPU-seconds of cancelled and preempted jobs (apart "
                + "from failures), by partition.", per("partition", r.byPartition(), b -> b.interruptedGpuHours() * 3600));
        single("slurmwise_interrupted_energy_estimated_joules", "Estimated facility energy of cancelled and "
                + "preempted jobs.", t.interruptedKwh() * 3.6e6);
        single("slurmwise_used_gpu_seconds", "GPU-seconds of every ended job.", t.usedGpuHours() * 3600);
        single("slurmwise_used_energy_estimated_joules", "Estimated facility energy of every ended job.",
                t.usedKwh() * 3.6e6);
        FleetReport.Efficiency e = r.efficiency();
        single("slurmwise_completed_cpu_efficiency_ratio", "TotalCPU / (elapsed x CPUs) over completed jobs.",
                e.cpuEfficiency() == null ? Double.NaN : e.cpuEfficiency());
        single("slurmwise_completed_memory_efficiency_ratio", "MaxRSS / requested memory over completed jobs, weighted by run time.",
                e.memoryEfficiency() == null ? Double.NaN : e.memoryEfficiency());
        single("slurmwise_completed_unused_cpu_seconds", "CPU core-seconds reserved but unused by completed jobs.",
                e.unusedCpuHours() * 3600);
        single("slurmwise_completed_unused_memory_byte_seconds", "Memory reserved but unused by completed jobs, "
                + "byte-seconds.", e.unusedMemoryGbHours() * 3600 * 1024 * 1024 * 1024);
        Map<String, String> model = new LinkedHashMap<>();
        model.put("gpu_watts", StatsCsv.number(r.energy().fallbackGpuWatts()));
        model.put("gpu_watts_uniform", String.valueOf(r.energy().uniformGpuWatts()));
        model.put("cpu_watts_per_core", StatsCsv.number(r.energy().fallbackCpuWattsPerCore()));
        model.put("memory_watts_per_gb", StatsCsv.number(r.energy().memoryWattsPerGb()));
        model.put("pue", StatsCsv.number(r.energy().pue()));
        model.put("carbon_intensity_kg_per_kwh", StatsCsv.number(r.energy().carbonKgPerKwh()));
        metric("slurmwise_energy_model_info", "The energy model behind the estimates (always 1).",
                List.of(new Sample(model, 1)));
        single("slurmwise_stats_records", "Accounting records aggregated.", r.records());
        single("slurmwise_stats_implausible_records", "Records left out because their times cannot be (an End before "
                + "its Start, a Start before 2000, an Elapsed longer than End - Start).", r.implausibleRecords());
    }

    /**
     * The ended jobs of each group that never started, split into the failed ones and the others (cancelled while
     * queued): only the groups that have any, so a site's hundred partitions do not make two hundred zero series.
     */
    private static List<Sample> neverStarted(String label, List<Breakdown> rows) {
        List<Sample> out = new ArrayList<>();
        for (Breakdown b : rows) {
            if (b.neverStarted() > 0) {
                out.add(new Sample(labels(label, b.key(), "outcome", "failed"), b.failedNeverStarted()));
                out.add(new Sample(labels(label, b.key(), "outcome", "other"), b.neverStarted() - b.failedNeverStarted()));
            }
        }
        return out;
    }

    private static long count(Breakdown b, Outcome o) {
        return switch (o) {
            case COMPLETED -> b.completed();
            case FAILED -> b.failed();
            case CANCELLED -> b.cancelled();
            case PREEMPTED -> b.preempted();
            case PENDING -> b.pending();
            case RUNNING -> b.running();
            case UNKNOWN -> b.unknown();
        };
    }

    private static Map<String, String> labels(String k1, String v1, String k2, String v2) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(k1, v1);
        m.put(k2, v2);
        return m;
    }

    static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    static String value(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.valueOf((long) v);
        }
        return Double.toString(v); // Go's ParseFloat (Prometheus) reads 1.5E10 too
    }
}
