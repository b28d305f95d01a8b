package io.slurmwise.cli.stats;

import io.slurmwise.view.StatsViews;
import io.slurmwise.view.StatsContext;
import io.slurmwise.stats.FleetReport;
import io.slurmwise.stats.FleetReport.Breakdown;

import java.io.PrintWriter;
import java.util.List;

/**
 * {@code --csv}: one table (RFC 4180), a row per group. Column {@code dimension} is total, kind, partition, user, day or
 * cluster (with several clusters), or
 * day; the other columns are those of the JSON breakdowns ({@link StatsViews#COLUMNS}); unknown is an empty cell.
 */
final class StatsCsv {

    private StatsCsv() {
    }

    static void write(PrintWriter out, StatsContext ctx) {
        FleetReport r = ctx.report();
        out.print("dimension," + String.join(",", StatsViews.COLUMNS) + "\r\n");
        rows(out, "total", List.of(r.total()));
        rows(out, "kind", r.byKind());
        rows(out, "partition", r.byPartition());
        rows(out, "user", r.byUser());
        rows(out, "day", r.byDay());
        if (r.severalClusters()) {
            rows(out, "cluster", r.byCluster());
        }
        out.flush();
    }

    private static void rows(PrintWriter out, String dimension, List<Breakdown> rows) {
        for (Breakdown b : rows) {
            StringBuilder sb = new StringBuilder(dimension);
            for (Object v : StatsViews.values(b)) {
                sb.append(',').append(cell(v));
            }
            out.print(sb.append("\r\n"));
        }
    }

    static String cell(Object v) {
        if (v == null) {
            return "";
        }
        String s = v instanceof Double d ? number(d) : v.toString();
        if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
            return '"' + s.replace("\"", "\"\"") + '"';
        }
        return s;
    }

    /** Six decimals at most, no exponent: spreadsheets read it as a number. */
    static String number(double d) {
        return java.math.BigDecimal.valueOf(d).setScale(6, java.math.RoundingMode.HALF_UP).stripTrailingZeros()
                .toPlainString();
    }
}
