package io.slurmwise.mcp;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.job.Partition;
import io.slurmwise.stats.EnergyModel;
import io.slurmwise.stats.FleetReport;
import io.slurmwise.stats.FleetScan;
import io.slurmwise.view.StatsContext;
import io.slurmwise.view.StatsViews;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The cluster tools: partition_limits (sinfo, and sacctmgr's QOS MaxWall) and fleet_stats (what failures cost). */
final class ClusterTools {

    private final Slurmwise sw;
    private final String backendReason;

    ClusterTools(Slurmwise sw, String backendReason) {
        this.sw = sw;
        this.backendReason = backendReason;
    }

    ToolAnswer partitionLimits(Map<String, Object> args) {
        String only = new Args(args).optional("partition");
        List<Partition> parts = sw.backend().partitions();
        if (only != null) {
            parts = parts.stream().filter(p -> p.name().equals(only)).toList();
            if (parts.isEmpty()) {
                throw new IllegalArgumentException("no partition '" + only + "'; the partitions are: " + String.join(", ",
                        sw.backend().partitions().stream().map(Partition::name).toList()));
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema", "slurmwise.partitions/v1");
        m.put("backend", backendReason);
        List<Map<String, Object>> rows = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (Partition p : parts) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("name", p.name());
            r.put("default", p.isDefault());
            r.put("state", p.up() ? "up" : "down");
            r.put("max_time", p.maxTime().toString());
            r.put("max_time_seconds", p.maxTime().limit().map(d -> d.toSeconds()).orElse(null));
            r.put("nodes", p.nodes());
            r.put("cpus_per_node", p.cpusPerNode() == 0 ? null : p.cpusPerNode());
            r.put("memory_per_node_gb", p.memoryPerNode() == null ? null
                    : Math.round(p.memoryPerNode().gibibytes() * 10) / 10.0);
            r.put("gres", p.gres().isEmpty() ? null : p.gres());
            // its own QOS, whose limits come before the job's QOS on it (null: none, or not known)
            r.put("qos", p.qos().isEmpty() ? null : p.qos());
            // the job QOSes it admits (AllowQos/DenyQos) and a job's time without --time (null: not known)
            r.put("qos_access", p.qosAccess().known() ? p.qosAccess().describe() : null);
            r.put("default_time", p.defaultTime().limit().isPresent() ? p.defaultTime().human() : null);
            rows.add(r);
            text.append(p.name()).append(p.isDefault() ? "*" : "").append(": ").append(p.up() ? "up" : "DOWN")
                    .append(", MaxTime ").append(p.maxTime()).append(", ").append(p.nodes()).append(" nodes")
                    .append(p.cpusPerNode() > 0 ? " x " + p.cpusPerNode() + " CPUs" : "")
                    .append(p.memoryPerNode() == null ? "" : ", " + r.get("memory_per_node_gb") + " GB/node")
                    .append(p.gres().isEmpty() ? "" : ", " + p.gres())
                    .append(p.qos().isEmpty() ? "" : ", own QOS " + p.qos())
                    .append(p.defaultTime().limit().isPresent() ? ", DefaultTime " + p.defaultTime().human() : "")
                    .append(p.qosAccess().known() ? ", " + p.qosAccess().describe() : "").append('\n');
        }
        m.put("count", rows.size());
        m.put("partitions", rows);
        // a job's QOS MaxWall caps its time on every partition: the limits a request must fit are both
        List<Map<String, Object>> qosRows = new ArrayList<>();
        try {
            List<io.slurmwise.job.Qos> table = sw.backend().qos(); // one sacctmgr call on a real cluster
            for (io.slurmwise.job.Qos q : table) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("name", q.name());
                r.put("max_wall", q.maxWallLimit().isEmpty() ? null : q.maxWall().toString());
                r.put("max_wall_seconds", q.maxWallLimit().map(d -> d.toSeconds()).orElse(null));
                r.put("preempts", q.preempts().stream().sorted().toList());
                qosRows.add(r);
            }
            m.put("qos", qosRows);
            if (!qosRows.isEmpty()) {
                text.append("QOS MaxWall (a job's QOS caps --time on every partition whose own QOS sets none): ")
                        .append(String.join(", ", table.stream().map(io.slurmwise.job.Qos::describe).toList()))
                        .append('\n');
            }
        } catch (io.slurmwise.backend.BackendException e) {
            m.put("qos", qosRows);
            m.put("qos_problem", e.getMessage());
        }
        Bounded.fit(m, "partitions", Bounded.jsonBytes(Bounded.DEFAULT_BYTES));
        return new ToolAnswer(m, rows.isEmpty() ? "the cluster lists no partitions" : text.toString().strip());
    }

    /** The report of {@code slurmwise stats --json}, from accounting records only (no logs are read), cut to size. */
    @SuppressWarnings("unchecked")
    ToolAnswer fleetStats(Map<String, Object> args) {
        Args a = new Args(args);
        JobQuery q = JobTools.query(a, List.of());
        boolean compact = a.bool("compact", true);
        int top = a.integer("top", compact ? 5 : 50, 1, 1000);
        int maxBytes = a.integer("max_bytes", Bounded.DEFAULT_BYTES, 1024, Bounded.MAX_BYTES);
        // a partition or user the cluster does not know is an error naming those it has, as `slurmwise stats` says it
        io.slurmwise.backend.JobListing.checkPartition(sw.backend(), q.partition());
        FleetReport report = sw.fleetScan().readLogs(false).energy(EnergyModel.defaults()).build().run(q).report();
        if (report.total().jobs() == 0) {
            io.slurmwise.backend.JobListing.checkUser(sw.backend(), q);
        }
        Map<String, Object> m = StatsViews.json(new StatsContext(report, q, FleetScan.DEFAULT_SLICE,
                FleetScan.slices(q.since(), q.until(), FleetScan.DEFAULT_SLICE).size(), false, backendReason,
                sw.taxonomy()));
        boolean cut = false;
        if (compact) {
            m.remove("by_day");
            m.remove("energy_model");
        }
        for (String key : List.of("by_kind", "by_partition", "by_user", "top_jobs", "by_day")) {
            if (m.get(key) instanceof List<?> l && l.size() > top) {
                m.put(key, new ArrayList<>(l.subList(0, top)));
                cut = true;
            }
        }
        m.put("compact", compact);
        m.put("truncated", cut);
        for (String key : List.of("by_day", "top_jobs", "by_user", "by_partition", "by_kind")) {
            if (Bounded.size(m) > Bounded.jsonBytes(maxBytes) && m.containsKey(key)) {
                Bounded.fit(m, key, Bounded.jsonBytes(maxBytes));
            }
        }
        Map<String, Object> total = (Map<String, Object>) m.get("total");
        String text = "window " + q.since().toLocalDate() + " .. " + q.until().toLocalDate() + ": " + total.get("jobs")
                + " jobs, " + total.get("failed") + " failed, " + hours(total.get("wasted_gpu_hours")) + " GPU-hours and "
                + hours(total.get("wasted_cpu_hours")) + " CPU-hours wasted by failures; top kinds: " + String.join(", ",
                ((List<Map<String, Object>>) m.get("by_kind")).stream().limit(3)
                        .map(k -> k.get("key") + " (" + k.get("failed") + ")").toList())
                + (report.implausibleNote() == null ? "" : "; " + report.implausibleNote());
        return new ToolAnswer(m, text, maxBytes);
    }

    /** An hour figure for the text form, to a tenth as the CLI prints it (the JSON keeps it whole). */
    private static String hours(Object v) {
        return v instanceof Number n ? String.format(java.util.Locale.ROOT, "%.1f", n.doubleValue()) : String.valueOf(v);
    }
}
