package io.slurmwise.cli.stats;

import io.slurmwise.cli.render.TerminalText;
import io.slurmwise.view.StatsContext;
import io.slurmwise.cli.render.Style;
import io.slurmwise.cli.render.Table;
import io.slurmwise.stats.FleetReport;
import io.slurmwise.stats.FleetReport.Breakdown;
import io.slurmwise.stats.FleetStats;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.slurmwise.cli.stats.Fmt.count;
import static io.slurmwise.cli.stats.Fmt.one;
import static io.slurmwise.cli.stats.Fmt.pct;
import static io.slurmwise.cli.stats.Fmt.plural;

/** The terminal view of a fleet report: a boxed panel with the totals, the breakdowns and the top jobs. */
final class StatsPanel {

    private static final String SPARKS = "▁▂▃▄▅▆▇█";
    private static final int MAX_ROWS = 12;
    /** The order of every table of groups and of the top jobs (FleetStats ranks them by estimated energy). */
    static final String ORDER = "most kWh first";
    /** What a group table's columns are, and its order: the same words in the panel and the HTML page. */
    static final String GROUP_NOTE = "waste of failed jobs, " + ORDER + "; rate = failed/ended";
    /**
     * What a day of the by-day rows is, the same words in the panel and the HTML page: the header's window and the
     * rows name the same days (an outside audit: an export's header began with its earliest start, its rows with
     * its first end, and nothing said which day a row was).
     */
    static final String DAY_NOTE = "each job on the day it ended (running or pending: its start or submit day)";

    private final Style st;
    private final StatsContext ctx;
    private final FleetReport r;
    private final List<String> lines = new ArrayList<>();

    StatsPanel(Style style, StatsContext ctx) {
        this.st = style;
        this.ctx = ctx;
        this.r = ctx.report();
    }

    private static final java.time.format.DateTimeFormatter MINUTE =
            java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", java.util.Locale.ROOT);

    void print(PrintWriter out) {
        build();
        // to the minute: LocalDateTime's own text drops zero seconds, so cutting its last ":dd" cut the minutes
        String[] ends = ctx.windowEnds(MINUTE::format);
        String window = (ends[0] == null ? "" : ends[0] + " → ") + (ends[1] == null ? "" : ends[1]);
        for (String l : io.slurmwise.cli.render.Panel.fit("Fleet stats" + (window.isEmpty() ? "" : " " + window) + " · " + plural(r.total().jobs(), "job")
                + " · " + ctx.scope(), st.width() - 3)) {
            out.println(st.dim(l.startsWith("Fleet") ? "╭─ " : "   ") + st.bold(l));
        }
        for (String l : lines) {
            for (String part : io.slurmwise.cli.render.Panel.fit(l, st.width() - 2)) {
                out.println(st.dim("│ ") + part);
            }
        }
        List<String> foot = io.slurmwise.cli.render.Panel.fit("estimates: " + r.energy().describe()
                + (r.energy().source().equals("defaults") ? "" : " (" + r.energy().source() + ")") + " · kinds from "
                + ctx.kindsFrom() + " · " + ctx.origin(), st.width() - 3);
        for (int i = 0; i < foot.size(); i++) {
            out.println(st.dim((i == 0 ? "╰─ " : "   ") + foot.get(i)));
        }
        out.flush();
    }

    private void row(String label, String value) {
        lines.add(st.bold(String.format("%-12s", label)) + " " + value);
    }

    private void blank() {
        lines.add("");
    }

    /** The style a table inside the panel is laid out in: the panel's "│ " and the table's indent take 4 columns. */
    private io.slurmwise.cli.render.Style inner() {
        return new io.slurmwise.cli.render.Style(st.enabled(), Math.max(40, st.width() - 4));
    }

    private void table(Table t) {
        StringWriter sw = new StringWriter();
        t.print(new PrintWriter(sw));
        for (String l : sw.toString().split("\n")) {
            lines.add("  " + l);
        }
    }

    private void build() {
        Breakdown t = r.total();
        if (t.jobs() == 0) {
            String wider = ctx.query().user() != null || ctx.query().partition() != null ? "drop --user or --partition"
                    : ctx.query().allUsers() ? "" : "use --all-users";
            row("Jobs", "no jobs in this window (" + ctx.scope() + "); widen it with --since"
                    + (wider.isEmpty() ? "" : ", or " + wider));
            return;
        }
        row("Jobs", count(t.ended()) + " ended: " + count(t.completed()) + " completed, " + st.red(count(t.failed())
                + " failed") + ", " + count(t.cancelled()) + " cancelled, " + count(t.preempted()) + " preempted · "
                + count(t.pending()) + " pending, " + count(t.running()) + " running"
                + (t.unknown() > 0 ? ", " + count(t.unknown()) + " in other states" : ""));
        row("Failures", st.bold(pct(t.failureRate()) + " failure rate") + " (" + count(t.failed()) + " of "
                + count(t.ended()) + " ended jobs" + neverStarted(t) + "; cancelled and preempted are not failures)");
        // used = ended jobs' hours: a job still running has used hours that count when it ends (an outside audit)
        // the share of the resource the waste is in: CPU-hours when no GPU-hours were wasted
        // beside the figure it is a share of (it followed the CPU-hours while it spoke of GPU-hours; an outside audit)
        String gpuShare = t.usedGpuHours() > 0 && t.wastedGpuHours() > 0
                ? " (" + pct(t.wastedGpuHours() / t.usedGpuHours()) + " of ended jobs' GPU-hours)" : "";
        String cpuShare = gpuShare.isEmpty() && t.usedCpuHours() > 0
                ? " (" + pct(t.wastedCpuHours() / t.usedCpuHours()) + " of ended jobs' CPU-hours)" : "";
        row("Waste", st.bold(one(t.wastedGpuHours()) + " wasted GPU-hours") + gpuShare + " · " + one(t.wastedCpuHours())
                + " CPU-hours of failed jobs" + cpuShare);
        row("Energy", st.bold(one(t.wastedKwh()) + " kWh (~" + one(t.wastedCo2Kg()) + " kg CO2e)")
                + " wasted by failed jobs, estimated · " + measured(t.measuredWastedKwh(), t.measuredWastedJobs(), t.failed()));
        if (t.interrupted() > 0) {
            row("Interrupted", plural(t.cancelled(), "cancelled job") + " and " + count(t.preempted()) + " preempted held "
                    + one(t.interruptedGpuHours()) + " GPU-hours · " + one(t.interruptedCpuHours()) + " CPU-hours · "
                    + one(t.interruptedKwh()) + " kWh estimated, counted apart from failures");
        }
        byKind();
        if (r.severalClusters()) {
            byCluster();
        }
        byPartition();
        if (ctx.query().allUsers() || r.byUser().size() > 1) {
            byUser();
        }
        byDay();
        topJobs();
        efficiency();
        if (r.jobsWithoutCpus() > 0) {
            blank();
            lines.add(st.yellow(r.jobsWithoutCpus() + " job(s) ran but their records give no CPU count (no AllocCPUS,"
                    + " NCPUS or AllocTRES cpu=): their CPU-hours count as 0; export with"
                    + " --format=...,AllocCPUS,AllocTRES"));
        }
        if (r.arraysTruncated()) {
            blank();
            lines.add(st.yellow("more array jobs than slurmwise summarises one by one: the least wasteful arrays are "
                    + "missing from the top list (totals are exact)"));
        }
    }

    /**
     * How many of the ended jobs never started (a pending array cancelled, a job refused in the queue): they are in
     * the rate's denominator as the jobs they were, and the reader is told how many held nothing (an outside audit: a
     * 499-task array cancelled while pending weighed on the rate unsaid). Empty when none.
     */
    static String neverStarted(Breakdown t) {
        if (t.neverStarted() == 0) {
            return "";
        }
        return ", " + count(t.neverStarted()) + " never started" + (t.failedNeverStarted() == 0 ? ""
                : ", " + count(t.failedNeverStarted()) + " of those failed");
    }

    /**
     * The groups of a table whose ended jobs never started, in the table's order, worded as the Failures line: the
     * JSON and CSV give {@code never_started} and {@code failed_never_started} per group, and a text table too narrow
     * for two more columns says them under it (an outside audit: the by-kind table left them out). A failure kind's
     * jobs all failed, so its "of those failed" goes unsaid. Empty when no group has one.
     */
    static String neverStartedNote(List<Breakdown> rows, boolean kinds) {
        List<Breakdown> never = rows.stream().filter(b -> b.neverStarted() > 0).toList();
        if (never.isEmpty()) {
            return "";
        }
        String listed = never.stream().limit(MAX_ROWS).map(b -> TerminalText.line(b.key()) + " " + count(b.neverStarted())
                + (kinds || b.failedNeverStarted() == 0 ? "" : " (" + count(b.failedNeverStarted()) + " failed)"))
                .collect(Collectors.joining(", "));
        return "never started (" + (kinds ? "counted in FAILED" : "counted in JOBS and the rate") + ", no hours held): "
                + listed + (never.size() > MAX_ROWS ? ", and " + count(never.size() - MAX_ROWS) + " more" : "");
    }

    private void neverStartedLine(List<Breakdown> rows, boolean kinds) {
        String note = neverStartedNote(rows, kinds);
        if (!note.isEmpty()) {
            lines.add(st.dim("  " + note));
        }
    }

    private static String measured(Double kwh, long jobs, long of) {
        if (kwh == null) {
            return "SLURM measured no energy on these jobs";
        }
        return "measured by SLURM: " + one(kwh) + " kWh on " + count(jobs) + " of " + count(of)
                + " (ConsumedEnergy, not added)";
    }

    private void byKind() {
        if (r.byKind().isEmpty()) {
            return;
        }
        blank();
        lines.add(st.bold("By failure kind") + st.dim("  " + ORDER));
        Table tb = new Table(inner(), "KIND", "FAILED", "GPU-H", "CPU-H", "KWH (EST.)", "TITLE").flexible("TITLE");
        for (Breakdown b : limit(r.byKind())) {
            tb.row(TerminalText.line(b.key()), count(b.failed()), one(b.wastedGpuHours()), one(b.wastedCpuHours()),
                    one(b.wastedKwh()), ctx.kindTitle(b.key()));
        }
        table(tb);
        neverStartedLine(r.byKind(), true);
        more(r.byKind().size(), "kinds");
    }

    private void byPartition() {
        blank();
        lines.add(st.bold("By partition") + st.dim("  " + GROUP_NOTE));
        Table tb = new Table(inner(), "PARTITION FAILURE RATE", "GPU-H", "CPU-H", "KWH (EST.)", "JOBS");
        int w = keyWidth(limit(r.byPartition()));
        for (Breakdown b : limit(r.byPartition())) {
            tb.row(padKey(TerminalText.line(b.key()), w) + " " + rate(b),
                    one(b.wastedGpuHours()), one(b.wastedCpuHours()), one(b.wastedKwh()), count(b.jobs()));
        }
        table(tb);
        neverStartedLine(r.byPartition(), false);
        more(r.byPartition().size(), "partitions");
    }

    private void byCluster() {
        blank();
        lines.add(st.bold("By cluster") + st.dim("  " + GROUP_NOTE));
        Table tb = new Table(inner(), "CLUSTER FAILURE RATE", "GPU-H", "CPU-H", "KWH (EST.)", "JOBS");
        int w = keyWidth(limit(r.byCluster()));
        for (Breakdown b : limit(r.byCluster())) {
            tb.row(padKey(TerminalText.line(b.key()), w) + " " + rate(b),
                    one(b.wastedGpuHours()), one(b.wastedCpuHours()), one(b.wastedKwh()), count(b.jobs()));
        }
        table(tb);
        neverStartedLine(r.byCluster(), false);
        more(r.byCluster().size(), "clusters");
    }

    /** A group's failure rate and what it divides: {@code 22% (2/9)}. */
    static String rate(Breakdown b) {
        return pct(b.failureRate()) + " (" + count(b.failed()) + "/" + count(b.ended()) + ")";
    }

    /** Keys padded to one width, so "gpuA100x4 22% (2/9)" rows line up like a column. */
    private static int keyWidth(List<Breakdown> rows) {
        return rows.stream().mapToInt(b -> TerminalText.line(b.key()).length()).max().orElse(0);
    }

    private static String padKey(String key, int width) {
        return key + " ".repeat(Math.max(0, width - key.length()));
    }

    private void byUser() {
        blank();
        lines.add(st.bold("By user") + st.dim("  " + GROUP_NOTE));
        Table tb = new Table(inner(), "USER FAILURE RATE", "GPU-H", "CPU-H", "KWH (EST.)", "JOBS");
        int w = keyWidth(limit(r.byUser()));
        for (Breakdown b : limit(r.byUser())) {
            tb.row(padKey(TerminalText.line(b.key()), w) + " " + rate(b),
                    one(b.wastedGpuHours()), one(b.wastedCpuHours()), one(b.wastedKwh()), count(b.jobs()));
        }
        table(tb);
        neverStartedLine(r.byUser(), false);
        more(r.byUser().size(), "users");
    }

    private void byDay() {
        if (r.byDay().size() < 2) {
            return;
        }
        blank();
        List<Breakdown> days = r.byDay();
        lines.add(st.bold("By day") + st.dim("  " + days.get(0).key() + " .. " + days.get(days.size() - 1).key()
                + "; " + DAY_NOTE));
        lines.add("  failures    " + spark(days.stream().map(b -> (double) b.failed()).toList())
                + "  peak " + peak(days, true));
        lines.add("  kWh wasted  " + spark(days.stream().map(Breakdown::wastedKwh).toList())
                + "  peak " + peak(days, false));
    }

    private static String peak(List<Breakdown> days, boolean failures) {
        Breakdown best = days.get(0);
        for (Breakdown b : days) {
            if (failures ? b.failed() > best.failed() : b.wastedKwh() > best.wastedKwh()) {
                best = b;
            }
        }
        if (failures ? best.failed() == 0 : best.wastedKwh() <= 0) {
            return "none"; // no peak of zero on the first day
        }
        return failures ? count(best.failed()) + " on " + TerminalText.line(best.key())
                : one(best.wastedKwh()) + " kWh on " + TerminalText.line(best.key());
    }

    static String spark(List<Double> values) {
        double max = values.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        StringBuilder sb = new StringBuilder();
        for (double v : values) {
            sb.append(max <= 0 || v <= 0 ? '·' : SPARKS.charAt((int) Math.min(SPARKS.length() - 1,
                    Math.round(v / max * (SPARKS.length() - 1)))));
        }
        return sb.toString();
    }

    private void topJobs() {
        if (r.topJobs().isEmpty()) {
            if (r.failedWithoutHours() > 0) {
                blank();
                lines.add(st.bold("Most wasteful failed jobs"));
                lines.add(st.dim("  " + unranked(r.failedWithoutHours())));
            }
            return;
        }
        blank();
        lines.add(st.bold("Most wasteful failed jobs") + st.dim("  " + ORDER + "; an array job is one line"));
        Table tb = new Table(inner(), "JOB", "NAME", "USER", "PARTITION", "OUTCOME", "KIND", "ELAPSED", "GPU-H", "CPU-H", "KWH")
                .flexible("NAME", "PARTITION", "USER").flexible("KIND", 14);
        // too narrow for that without cutting a figure or an id: the job, its owner, why and what it cost, and no figure cut short
        int jobWidth = Math.min(24, r.topJobs().stream().mapToInt(e -> e.label().length()).max().orElse(3));
        // an array's outcome as failed/tasks, never cut: a busy centre's "115/500 failed" cut to "115/50…" read as
        // 115 failed of 50 tasks (an outside audit); the line under the table says what the fraction is
        int briefWidth = r.topJobs().stream().mapToInt(e -> brief(e).length()).max().orElse(7);
        Table narrow = new Table(inner(), "JOB", "USER", "OUTCOME", "KIND", "GPU-H", "CPU-H", "KWH")
                .flexible("USER", 6).flexible("KIND", 8).keep("JOB", jobWidth).keep("OUTCOME", briefWidth)
                .keep("GPU-H", 7).keep("CPU-H", 7).keep("KWH", 6);
        for (FleetReport.TopEntry e : r.topJobs()) {
            String outcome = e.array() ? e.taskCount() + " tasks: " + e.tasks().entrySet().stream()
                    .map(x -> x.getValue() + " " + x.getKey()).collect(Collectors.joining(", ")) : e.state();
            tb.row(TerminalText.line(e.label()), TerminalText.line(nz(e.name())), TerminalText.line(nz(e.user())), TerminalText.line(nz(e.partition())), outcome, kinds(e.kinds()),
                    Fmt.duration(e.elapsedSeconds()), one(e.wastedGpuHours()), one(e.wastedCpuHours()), one(e.wastedKwh()));
            // narrow: how many tasks failed is what the cut kept out ("27 tasks: 17 …"; an outside audit)
            narrow.row(TerminalText.line(e.label()), TerminalText.line(nz(e.user())), brief(e),
                    e.kinds().size() > 1 ? e.kinds().size() + " kinds" : kinds(e.kinds()),
                    one(e.wastedGpuHours()), one(e.wastedCpuHours()), one(e.wastedKwh()));
        }
        boolean wide = tb.fitsCuttingFreeTextOnly();
        table(wide ? tb : narrow);
        if (!wide && r.topJobs().stream().anyMatch(FleetReport.TopEntry::array)) {
            lines.add(st.dim("  an array's OUTCOME: failed tasks/tasks; --json has each kind's count"));
        }
        if (r.failedWithoutHours() > 0) {
            lines.add(st.dim("  " + unranked(r.failedWithoutHours())));
        }
    }

    /** A top job's outcome in the narrow table: its state, or an array's failed tasks/all tasks ({@code 115/500}). */
    private static String brief(FleetReport.TopEntry e) {
        return e.array() ? e.tasks().getOrDefault("failed", 0L) + "/" + e.taskCount() : e.state();
    }

    /**
     * The failed jobs the top list cannot rank, as they held nothing (an outside audit: left out unsaid); the panel
     * and the HTML page say it alike.
     */
    static String unranked(long n) {
        return "not ranked: " + plural(n, "failed job") + " that held no GPU or CPU time (never started, or no"
                + " elapsed time)";
    }

    /**
     * The KIND cell of a top job: its kind; an array's tasks by kind, the main kind first, then by name. An array whose
     * tasks failed in several kinds says how many first ({@code 3 kinds: oom×4,time_limit×2,segfault×1}): a cell cut
     * at the terminal's width kept only the main kind, which named the array by one kind (an outside audit, F15).
     * Each task counts under its own kind in the kind table, so these counts add up to the array's failed tasks.
     */
    static String kinds(Map<String, Long> kinds) {
        if (kinds.size() == 1 && kinds.values().iterator().next() == 1) {
            return kinds.keySet().iterator().next();
        }
        String each = kinds.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .map(e -> e.getKey() + "×" + e.getValue()).collect(Collectors.joining(","));
        return kinds.size() > 1 ? kinds.size() + " kinds: " + each : each;
    }

    private void efficiency() {
        FleetReport.Efficiency e = r.efficiency();
        if (e.completedJobs() == 0) {
            return;
        }
        blank();
        lines.add(st.bold("Efficiency of completed jobs") + st.dim("  (the waste that does not fail, by seff's formulas)"));
        if (e.cpuEfficiency() != null) {
            lines.add("  CPU     " + pct(e.cpuEfficiency()) + " of " + one(e.reservedCpuHours()) + " core-hours used "
                    + "(TotalCPU / Elapsed x CPUs over " + cpuJobs(e) + "): " + one(e.unusedCpuHours())
                    + " CPU-hours reserved but unused; " + count(e.lowCpuJobs()) + " jobs under "
                    + pct(FleetStats.LOW_EFFICIENCY));
        }
        if (e.memoryEfficiency() != null) {
            lines.add("  memory  " + pct(e.memoryEfficiency()) + " of the requested memory at peak (MaxRSS / ReqMem, weighted by requested memory x run time, over "
                    + memoryJobs(e) + "): " + one(e.unusedMemoryGbHours()) + " GB-hours reserved but unused; "
                    + count(e.lowMemoryJobs()) + " jobs under " + pct(FleetStats.LOW_EFFICIENCY));
            // sacct's MaxRSS is one task's peak; seff counts every task's (x ntasks, since 24.05.5 TRESUsageInTot)
            lines.add(st.dim("          MaxRSS is the largest task's peak, so jobs of many tasks per node read low"
                    + " (seff counts every task)"));
        }
        if (e.cpuEfficiency() == null && e.memoryEfficiency() == null) {
            lines.add("  " + plural(e.completedJobs(), "completed job") + ", without TotalCPU or MaxRSS in accounting");
        }
    }

    /**
     * The completed jobs a figure is over, and what it needs of them: a job without elapsed time (or the columns the
     * formula reads) is not in it, which is said, not left for the reader to find (an outside audit).
     */
    private static String over(long n, long completed, String with) {
        return "the " + plural(n, "completed job") + " with " + with
                + (n < completed ? ", not the " + count(completed - n) + " without" : "");
    }

    static String cpuJobs(FleetReport.Efficiency e) {
        return over(e.cpuJobs(), e.completedJobs(), "elapsed time, CPUs and TotalCPU");
    }

    static String memoryJobs(FleetReport.Efficiency e) {
        return over(e.memoryJobs(), e.completedJobs(), "elapsed time, MaxRSS and ReqMem");
    }

    private static <T> List<T> limit(List<T> l) {
        return l.size() <= MAX_ROWS ? l : l.subList(0, MAX_ROWS);
    }

    private void more(int size, String what) {
        if (size > MAX_ROWS) {
            lines.add(st.dim("  ... " + count(size - MAX_ROWS) + " more " + what + " (--json or --csv has them all)"));
        }
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
