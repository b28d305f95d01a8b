package io.slurmwise.view;

import io.slurmwise.job.SlurmTime;
import io.slurmwise.stats.EnergyModel;
import io.slurmwise.stats.FleetReport;
import io.slurmwise.stats.FleetReport.Breakdown;
import io.slurmwise.stats.GpuPowerTable;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON shape of {@code slurmwise stats --json}, schema {@value #SCHEMA}. Documented in the README (Stats) and
 * in {@code stats-v1.schema.json} next to this class; keys are snake_case; unknown values are null, never zero.
 * A new field is added without changing the version; renaming or removing one makes {@code v2}.
 */
public final class StatsViews {

    public static final String SCHEMA = "slurmwise.stats/v1";

    /** Breakdown columns in order: the JSON keys and the CSV header share them. */
    public static final List<String> COLUMNS = List.of("key", "jobs", "ended", "completed", "failed", "cancelled", "preempted",
            "pending", "running", "other", "failure_rate", "wasted_gpu_hours", "wasted_cpu_hours",
            "wasted_energy_kwh_estimated", "wasted_co2e_kg_estimated", "wasted_energy_kwh_measured",
            "wasted_measured_jobs", "interrupted_gpu_hours", "interrupted_cpu_hours",
            "interrupted_energy_kwh_estimated", "used_gpu_hours", "used_cpu_hours", "used_energy_kwh_estimated",
            "used_energy_kwh_measured", "used_measured_jobs", "never_started", "failed_never_started");

    private StatsViews() {
    }

    public static Map<String, Object> json(StatsContext ctx) {
        FleetReport r = ctx.report();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", SCHEMA);
        Map<String, Object> window = new LinkedHashMap<>();
        window.put("since", SlurmTime.iso(r.since()));
        window.put("until", SlurmTime.iso(r.until()));
        window.put("slices", ctx.slices());
        window.put("slice_seconds", ctx.sliceLength().toSeconds());
        // the window the figures cover: since/until, or where the query left one open (an export read whole) the
        // earliest or latest moment of the jobs counted; what --prometheus gives as its window timestamps
        window.put("covered_from", SlurmTime.iso(r.coveredFrom()));
        window.put("covered_until", SlurmTime.iso(r.coveredUntil()));
        m.put("window", window);
        Map<String, Object> query = new LinkedHashMap<>();
        query.put("user", ctx.query().user());
        query.put("all_users", ctx.query().allUsers());
        query.put("partition", ctx.query().partition());
        m.put("query", query);
        m.put("backend", ctx.backend());
        m.put("records", r.records());
        m.put("kinds_from", ctx.logsRead() ? "records_and_logs" : "records");
        m.put("energy_model", energy(r.energy()));
        m.put("total", breakdown(r.total()));
        m.put("by_kind", r.byKind().stream().map(b -> {
            Map<String, Object> k = breakdown(b);
            k.put("title", ctx.kindTitle(b.key()));
            return k;
        }).toList());
        m.put("by_partition", r.byPartition().stream().map(StatsViews::breakdown).toList());
        m.put("by_user", r.byUser().stream().map(StatsViews::breakdown).toList());
        m.put("by_day", r.byDay().stream().map(StatsViews::breakdown).toList());
        m.put("by_cluster", r.byCluster().stream().map(StatsViews::breakdown).toList());
        m.put("top_jobs", r.topJobs().stream().map(StatsViews::top).toList());
        m.put("efficiency", efficiency(r.efficiency()));
        m.put("arrays_truncated", r.arraysTruncated());
        m.put("jobs_without_cpu_count", r.jobsWithoutCpus());
        m.put("failed_jobs_without_hours", r.failedWithoutHours());
        m.put("implausible_records", r.implausibleRecords());
        m.put("first_implausible_record", r.firstImplausible());
        return m;
    }

    public static Map<String, Object> breakdown(Breakdown b) {
        List<Object> v = values(b);
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < COLUMNS.size(); i++) {
            m.put(COLUMNS.get(i), v.get(i));
        }
        return m;
    }

    /** The breakdown's values in {@link #COLUMNS} order. */
    public static List<Object> values(Breakdown b) {
        return java.util.Arrays.asList(b.key(), b.jobs(), b.ended(), b.completed(), b.failed(), b.cancelled(),
                b.preempted(), b.pending(), b.running(), b.unknown(), b.failureRate(), b.wastedGpuHours(),
                b.wastedCpuHours(), b.wastedKwh(), b.wastedCo2Kg(), b.measuredWastedKwh(), b.measuredWastedJobs(),
                b.interruptedGpuHours(), b.interruptedCpuHours(), b.interruptedKwh(), b.usedGpuHours(),
                b.usedCpuHours(), b.usedKwh(), b.measuredUsedKwh(), b.measuredUsedJobs(), b.neverStarted(),
                b.failedNeverStarted());
    }

    public static Map<String, Object> top(FleetReport.TopEntry e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", e.id());
        m.put("cluster", e.cluster());
        m.put("array", e.array());
        m.put("name", e.name());
        m.put("user", e.user());
        m.put("partition", e.partition());
        m.put("state", e.state());
        m.put("kinds", e.kinds());
        m.put("tasks", e.array() ? e.tasks() : null);
        m.put("task_count", e.taskCount());
        m.put("elapsed_seconds", e.elapsedSeconds());
        m.put("gpus", e.gpus());
        m.put("cpus", e.cpus());
        m.put("wasted_gpu_hours", e.wastedGpuHours());
        m.put("wasted_cpu_hours", e.wastedCpuHours());
        m.put("wasted_energy_kwh_estimated", e.wastedKwh());
        m.put("wasted_co2e_kg_estimated", e.wastedCo2Kg());
        m.put("wasted_energy_kwh_measured", e.measuredKwh());
        m.put("end", SlurmTime.iso(e.end()));
        return m;
    }

    public static Map<String, Object> efficiency(FleetReport.Efficiency e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("completed_jobs", e.completedJobs());
        m.put("cpu_jobs", e.cpuJobs());
        m.put("cpu_efficiency", e.cpuEfficiency());
        m.put("reserved_cpu_hours", e.reservedCpuHours());
        m.put("unused_cpu_hours", e.unusedCpuHours());
        m.put("low_cpu_jobs", e.lowCpuJobs());
        m.put("memory_jobs", e.memoryJobs());
        m.put("memory_efficiency", e.memoryEfficiency());
        m.put("reserved_memory_gb_hours", e.reservedMemoryGbHours());
        m.put("unused_memory_gb_hours", e.unusedMemoryGbHours());
        m.put("low_memory_jobs", e.lowMemoryJobs());
        m.put("low_threshold", io.slurmwise.stats.FleetStats.LOW_EFFICIENCY);
        return m;
    }

    public static Map<String, Object> energy(EnergyModel e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("gpu_watts", e.fallbackGpuWatts());
        m.put("gpu_watts_uniform", e.uniformGpuWatts());
        Map<String, Object> models = new LinkedHashMap<>();
        if (!e.uniformGpuWatts()) {
            for (GpuPowerTable.Entry g : e.gpuModels().entries()) {
                models.put(g.key(), g.watts());
            }
        }
        m.put("gpu_model_watts", models);
        m.put("cpu_watts_per_core", e.fallbackCpuWattsPerCore());
        m.put("memory_watts_per_gb", e.memoryWattsPerGb());
        m.put("partition_gpu_watts", new TreeMap<>(e.partitionGpuWatts()));
        m.put("partition_cpu_watts_per_core", new TreeMap<>(e.partitionCpuWatts()));
        m.put("pue", e.pue());
        m.put("carbon_intensity_kg_per_kwh", e.carbonKgPerKwh());
        m.put("source", e.source());
        m.put("method", "estimated = PUE x (GPUs x W/GPU + cores x W/core + memory GB x W/GB) x elapsed; "
                + "CO2e = estimated kWh x carbon intensity; measured = SLURM ConsumedEnergy, never added");
        return m;
    }
}
