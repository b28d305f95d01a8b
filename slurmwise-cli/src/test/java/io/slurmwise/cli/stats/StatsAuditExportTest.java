package io.slurmwise.cli.stats;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an outside audit of a busy centre's {@code sacct -P} export found, on a small export with its shapes: a pending
 * array of 499 tasks cancelled before any started, a job past its deadline in the queue, a job that failed in no
 * time, a completed job of no elapsed time, a seven-digit CPU-hour figure. Every format says the same figures.
 */
class StatsAuditExportTest {

    static final String EXPORT = String.join("\n",
            "JobID|JobName|User|Account|Partition|State|ExitCode|Submit|Start|End|Elapsed|Timelimit|ReqMem|MaxRSS|AllocCPUS|AllocTRES|ReqTRES|NodeList|TotalCPU|ConsumedEnergyRaw|Reason|Cluster",
            "700_[1-499]|sweep|ann|lab|cpu|CANCELLED by 1000|0:0|2026-03-01T08:00:00|None|2026-03-02T09:00:00|00:00:00|1-00:00:00|4G||0||billing=1,cpu=1,mem=4G,node=1|None assigned|00:00:00||None|alpha",
            "801|huge|bob|lab|cpu|TIMEOUT|0:0|2026-02-20T00:00:00|2026-02-20T01:00:00|2026-03-03T01:00:00|11-00:00:00|11-00:00:00|100000G||10000|billing=10000,cpu=10000,mem=100000G,node=100|cpu=10000,mem=100000G,node=100|c[001-100]|1-00:00:00||None|alpha",
            "802|ok|bob|lab|cpu|COMPLETED|0:0|2026-03-01T00:00:00|2026-03-01T01:00:00|2026-03-01T03:00:00|02:00:00|1-00:00:00|8G|2G|4|billing=4,cpu=4,mem=8G,node=1|cpu=4,mem=8G,node=1|c001|04:00:00||None|alpha",
            "802.batch|batch||lab||COMPLETED|0:0|2026-03-01T01:00:00|2026-03-01T01:00:00|2026-03-01T03:00:00|02:00:00||||4|cpu=4,mem=8G,node=1||c001|04:00:00|||alpha",
            "803|instant|bob|lab|cpu|COMPLETED|0:0|2026-03-01T00:00:00|2026-03-01T02:00:00|2026-03-01T02:00:00|00:00:00|1-00:00:00|8G||4|billing=4,cpu=4,mem=8G,node=1|cpu=4,mem=8G,node=1|c001|00:00:00||None|alpha",
            "804|badpath|ann|lab|cpu|FAILED|2:0|2026-03-01T00:00:00|2026-03-01T02:00:00|2026-03-01T02:00:00|00:00:00|1-00:00:00|8G||4|billing=4,cpu=4,mem=8G,node=1|cpu=4,mem=8G,node=1|c002|00:00:00||None|alpha",
            "805|late|ann|lab|cpu|DEADLINE|0:0|2026-03-01T00:00:00|None|2026-03-02T00:00:00|00:00:00|1-00:00:00|8G||0||cpu=4,mem=8G,node=1|None assigned|00:00:00||DeadLine|alpha",
            "806|nf|ann|lab|gpu|NODE_FAIL|0:0|2026-03-01T00:00:00|2026-03-01T00:10:00|2026-03-01T05:10:00|05:00:00|1-00:00:00|8G||8|billing=8,cpu=8,mem=8G,node=1,gres/gpu=2|cpu=8,mem=8G,node=1,gres/gpu=2|g001|00:10:00||None|alpha",
            "");

    @TempDir
    Path tmp;
    Path export;

    @BeforeEach
    void write() throws IOException {
        export = Files.writeString(tmp.resolve("centre.psv"), EXPORT);
    }

    private StatsRun.Result run(int columns, String... more) {
        String[] args = new String[3 + more.length];
        args[0] = "stats";
        args[1] = "--input";
        args[2] = export.toString();
        System.arraycopy(more, 0, args, 3, more.length);
        StatsRun.Result r = StatsRun.run(Map.of("COLUMNS", String.valueOf(columns)), args);
        assertThat(r.code()).as(r.err()).isZero();
        return r;
    }

    private String text() {
        return run(200).out();
    }

    private String html() throws IOException {
        Path page = tmp.resolve("report.html");
        run(200, "--html", page.toString());
        return Files.readString(page);
    }

    private static String csvTotal(String csv, String column) {
        List<String> header = List.of(csv.lines().findFirst().orElseThrow().split(","));
        String total = csv.lines().filter(l -> l.startsWith("total,")).findFirst().orElseThrow();
        return total.split(",", -1)[header.indexOf(column)];
    }

    /**
     * The 499 tasks cancelled while pending stay ended jobs in the rate's denominator (as sacct and XDMoD count them),
     * and every format says how many ended jobs never started, and how many of those failed.
     */
    @Test
    void everyFormatSaysHowManyEndedJobsNeverStarted() throws IOException {
        assertThat(text()).contains("1% failure rate (4 of 505 ended jobs, 500 never started, 1 of those failed;"
                + " cancelled and preempted are not failures)");
        JsonNode j = run(200, "--json").json();
        assertThat(j.at("/total/ended").asLong()).isEqualTo(505);
        assertThat(j.at("/total/never_started").asLong()).isEqualTo(500);
        assertThat(j.at("/total/failed_never_started").asLong()).isEqualTo(1);
        assertThat(j.at("/by_partition/0/key").asText()).isEqualTo("cpu");
        assertThat(j.at("/by_partition/0/never_started").asLong()).isEqualTo(500);
        assertThat(SchemaCheck.load("io/slurmwise/view/stats-v1.schema.json").errors(j)).isEmpty();
        String csv = run(200, "--csv").out();
        assertThat(csvTotal(csv, "never_started")).isEqualTo("500");
        assertThat(csvTotal(csv, "failed_never_started")).isEqualTo("1");
        assertThat(run(200, "--prometheus").out())
                .contains("slurmwise_never_started_jobs{partition=\"cpu\",outcome=\"failed\"} 1\n")
                .contains("slurmwise_never_started_jobs{partition=\"cpu\",outcome=\"other\"} 499\n")
                .doesNotContain("slurmwise_never_started_jobs{partition=\"gpu\"");
        assertThat(html()).contains("failure rate (4 of 505 ended jobs, 500 never started, 1 of those failed)");
    }

    /**
     * Each table of groups says which of its groups' jobs never started, as the JSON's and CSV's never_started and
     * failed_never_started do per group (an outside audit: the by-kind table had no word of them): 805, past its
     * deadline in the queue, is a deadline failure (the time limit's refinement) that never started; cpu's 500 are 805
     * and 700's 499 tasks.
     */
    @Test
    void everyTableOfGroupsSaysWhichOfItsJobsNeverStarted() throws IOException {
        String text = text();
        assertThat(text).contains("│   never started (counted in FAILED, no hours held): deadline 1\n")
                .contains("│   never started (counted in JOBS and the rate, no hours held): cpu 500 (1 failed)\n")
                .contains("│   never started (counted in JOBS and the rate, no hours held): ann 500 (1 failed)\n");
        // under its own table: the kinds' note before the partitions' heading, the partitions' before the users'
        assertThat(text.indexOf("held): deadline 1")).isGreaterThan(text.indexOf("│   unknown "))
                .isLessThan(text.indexOf("By partition"));
        assertThat(text.indexOf("held): cpu 500")).isLessThan(text.indexOf("By user"));
        JsonNode j = run(200, "--json").json();
        JsonNode deadline = null;
        for (JsonNode k : j.path("by_kind")) {
            deadline = "deadline".equals(k.path("key").asText()) ? k : deadline;
        }
        assertThat(deadline).isNotNull();
        assertThat(deadline.path("never_started").asLong()).isEqualTo(1);
        assertThat(deadline.path("failed_never_started").asLong()).isEqualTo(1);
        String html = html();
        assertThat(html).contains("<p class=\"note\">never started (counted in FAILED, no hours held): deadline 1</p>")
                .contains("<th class=\"num\">never started</th>")
                .contains("<td class=\"num\">500 (1 failed)</td>");
        // at 80 columns the note wraps under the table, nothing cut
        assertThat(run(80).out()).contains("│   never started (counted in JOBS and the rate, no hours held): cpu 500 (1\n"
                + "│   failed)\n");
    }

    /**
     * Prometheus says never-started jobs by the breakdowns --json has them where a label stays small: by partition
     * and, with several clusters, by cluster (failed, other: only groups that have any), and by failure kind (every
     * kind, 0 included, beside slurmwise_failed_jobs_by_kind); not by user, a series per user.
     */
    @Test
    void prometheusSaysNeverStartedJobsByKindAndClusterAsTheJsonDoes() throws IOException {
        String prom = run(200, "--prometheus").out();
        assertThat(prom).contains("# TYPE slurmwise_never_started_jobs_by_kind gauge\n")
                .contains("\nslurmwise_never_started_jobs_by_kind{kind=\"deadline\"} 1\n")
                .contains("\nslurmwise_never_started_jobs_by_kind{kind=\"time_limit\"} 0\n")
                .contains("\nslurmwise_never_started_jobs_by_kind{kind=\"node_fail\"} 0\n")
                .contains("\nslurmwise_never_started_jobs_by_kind{kind=\"unknown\"} 0\n")
                .doesNotContain("slurmwise_never_started_jobs_by_user")
                .doesNotContain("slurmwise_cluster_never_started_jobs"); // one cluster: no cluster breakdown
        JsonNode j = run(200, "--json").json();
        j.get("by_kind").forEach(k -> assertThat(prom).contains("\nslurmwise_never_started_jobs_by_kind{kind=\""
                + k.get("key").asText() + "\"} " + k.get("failed_never_started").asLong() + "\n"));
        // a second cluster, whose one job was cancelled in the queue
        Files.writeString(export, EXPORT + "900|q|cy|lab|cpu|CANCELLED by 1|0:0|2026-03-01T00:00:00|None|"
                + "2026-03-01T04:00:00|00:00:00|1-00:00:00|4G||0||cpu=1,mem=4G,node=1|None assigned|00:00:00||None|beta\n");
        String two = run(200, "--prometheus").out();
        assertThat(two).contains("\nslurmwise_cluster_never_started_jobs{cluster=\"alpha\",outcome=\"failed\"} 1\n")
                .contains("\nslurmwise_cluster_never_started_jobs{cluster=\"alpha\",outcome=\"other\"} 499\n")
                .contains("\nslurmwise_cluster_never_started_jobs{cluster=\"beta\",outcome=\"failed\"} 0\n")
                .contains("\nslurmwise_cluster_never_started_jobs{cluster=\"beta\",outcome=\"other\"} 1\n");
        JsonNode byCluster = run(200, "--json").json().get("by_cluster");
        assertThat(byCluster).anySatisfy(c -> {
            assertThat(c.get("key").asText()).isEqualTo("beta");
            assertThat(c.get("never_started").asLong()).isEqualTo(1);
        });
    }

    /**
     * "... N more partitions" groups its figure by thousands like every other figure of the panel (the one helper,
     * {@link Fmt#count}), and so does the list of names a --partition the exports lack is answered with.
     */
    @Test
    void theMoreLinesGroupTheirFiguresByThousands() throws IOException {
        StringBuilder big = new StringBuilder(EXPORT.lines().findFirst().orElseThrow()).append('\n');
        for (int i = 0; i < 1_013; i++) {
            big.append(9000 + i).append("|j|ann|lab|p").append(i).append("|FAILED|1:0|2026-03-01T00:00:00|"
                    + "2026-03-01T01:00:00|2026-03-01T02:00:00|01:00:00|1-00:00:00|8G||4|billing=4,cpu=4,mem=8G,node=1|"
                    + "cpu=4,mem=8G,node=1|c001|00:10:00||None|alpha\n");
        }
        Path many = Files.writeString(tmp.resolve("many.psv"), big);
        StatsRun.Result r = StatsRun.run(Map.of("COLUMNS", "80"), "stats", "--input", many.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("│   ... 1,001 more partitions (--json or --csv has them all)");
        StatsRun.Result absent = StatsRun.run(Map.of(), "stats", "--input", many.toString(), "--partition", "nope");
        assertThat(absent.code()).isEqualTo(2);
        assertThat(absent.err()).contains(" and 993 more.");
        StringBuilder more = new StringBuilder(big);
        for (int i = 1_013; i < 1_100; i++) {
            more.append(9000 + i).append("|j|ann|lab|p").append(i).append("|COMPLETED|0:0|2026-03-01T00:00:00|"
                    + "2026-03-01T01:00:00|2026-03-01T02:00:00|01:00:00|1-00:00:00|8G||4|billing=4,cpu=4,mem=8G,node=1|"
                    + "cpu=4,mem=8G,node=1|c001|00:10:00||None|alpha\n");
        }
        Path most = Files.writeString(tmp.resolve("most.psv"), more);
        StatsRun.Result m = StatsRun.run(Map.of(), "stats", "--input", most.toString(), "--partition", "nope");
        assertThat(m.err()).contains(" and 1,080 more.");
    }

    /** A seven-digit figure is grouped where people read it, and a plain number where machines do. */
    @Test
    void largeFiguresAreGroupedInTextAndHtmlAndPlainInMachineFormats() throws IOException {
        // 801: 10,000 CPUs for 264 hours; 806: 8 CPUs for 5 hours
        assertThat(text()).contains("2,640,040.0 CPU-hours of failed jobs")
                .contains("39,604.6 kWh (~14,653.7 kg CO2e)");
        assertThat(html()).contains("<td class=\"num\">2,640,000.0</td>");
        assertThat(run(200, "--json").json().at("/total/wasted_cpu_hours").asDouble()).isEqualTo(2_640_040.0);
        assertThat(csvTotal(run(200, "--csv").out(), "wasted_cpu_hours")).isEqualTo("2640040");
        assertThat(run(200, "--prometheus").out())
                .contains("slurmwise_wasted_cpu_seconds_by_partition{partition=\"cpu\"} 9504000000\n");
    }

    /** The tables are ranked by estimated kWh, which their headings say (the JOBS column would suggest otherwise). */
    @Test
    void theTablesSayTheyAreRankedByKwh() throws IOException {
        String text = text();
        assertThat(text).contains("By failure kind  most kWh first")
                .contains("By partition  waste of failed jobs, most kWh first; rate = failed/ended")
                .contains("By user  waste of failed jobs, most kWh first; rate = failed/ended")
                .contains("Most wasteful failed jobs  most kWh first; an array job is one line");
        // and they are: cpu (39,600 kWh, 504 jobs) before gpu (4.6 kWh)
        assertThat(text.indexOf("│   cpu 1% (3/504)")).isPositive().isLessThan(text.indexOf("│   gpu 100% (1/1)"));
        assertThat(html()).contains("<table id=\"partitions\"><caption>waste of failed jobs, most kWh first; rate ="
                + " failed/ended</caption>").contains("<caption>most kWh first; an array job is one row</caption>");
    }

    /** The efficiency's job counts say which completed jobs they are over: 803 ran no time and is not in them. */
    @Test
    void efficiencySaysWhichCompletedJobsItIsOver() throws IOException {
        assertThat(text()).contains("(TotalCPU / Elapsed x CPUs over the 1 completed job with elapsed time, CPUs and"
                + " TotalCPU, not the 1 without)").contains("over the 1 completed job with elapsed time, MaxRSS and"
                + " ReqMem, not the 1 without)");
        assertThat(html()).contains("2 completed jobs. CPU efficiency 50% (TotalCPU / elapsed x CPUs, over the 1"
                + " completed job with elapsed time, CPUs and TotalCPU, not the 1 without)");
        JsonNode e = run(200, "--json").json().get("efficiency");
        assertThat(e.get("completed_jobs").asLong()).isEqualTo(2);
        assertThat(e.get("cpu_jobs").asLong()).isEqualTo(1);
    }

    /**
     * An export read whole: the window is its jobs' span, the same in the header, JSON and Prometheus, and its days are
     * those of the day rows, each job on the day it ended, which the panel and the page say (an outside audit: the
     * header began with 801's start, February 20th, the rows with the first day a job ended, March 1st). 801 ran from
     * February 20th and counts, with all its hours, on the day it ended, as it would in a window of that day.
     */
    @Test
    void anExportReadWholeGivesTheWindowItsJobsCover() throws IOException {
        String text = text();
        assertThat(text).startsWith("╭─ Fleet stats 2026-03-01 → 2026-03-03 · 505 jobs")
                .contains("│ By day  2026-03-01 .. 2026-03-03; each job on the day it ended (running or pending: its"
                        + " start or submit day)\n");
        JsonNode j = run(200, "--json").json();
        JsonNode w = j.get("window");
        assertThat(w.get("since").isNull()).isTrue();
        assertThat(w.get("covered_from").asText()).isEqualTo("2026-03-01T02:00:00"); // 803's and 804's end
        assertThat(w.get("covered_until").asText()).isEqualTo("2026-03-03T01:00:00"); // 801's end
        JsonNode days = j.get("by_day");
        assertThat(days.get(0).get("key").asText()).isEqualTo(w.get("covered_from").asText().substring(0, 10));
        assertThat(days.get(days.size() - 1).get("key").asText()).isEqualTo(w.get("covered_until").asText().substring(0, 10));
        assertThat(html()).contains("<p class=\"note\">2026-03-01 to 2026-03-03, each job on the day it ended")
                .contains("<title>slurmwise fleet report, 2026-03-01 to 2026-03-03</title>");
        long from = LocalDateTime.of(2026, 3, 1, 2, 0).atZone(ZoneId.systemDefault()).toEpochSecond();
        long until = LocalDateTime.of(2026, 3, 3, 1, 0).atZone(ZoneId.systemDefault()).toEpochSecond();
        assertThat(run(200, "--prometheus").out()).contains("\nslurmwise_window_start_timestamp_seconds " + from + "\n")
                .contains("\nslurmwise_window_end_timestamp_seconds " + until + "\n");
        // the window given back as --since/--until counts the same jobs and hours
        JsonNode again = run(200, "--json", "--since", "2026-03-01T02:00:00", "--until", "2026-03-03T01:00:00").json();
        assertThat(again.get("total")).isEqualTo(j.get("total"));
        // with --since, the query's start wins, as on a cluster
        long since = LocalDateTime.of(2026, 2, 25, 0, 0).atZone(ZoneId.systemDefault()).toEpochSecond();
        assertThat(run(200, "--prometheus", "--since", "2026-02-25").out())
                .contains("\nslurmwise_window_start_timestamp_seconds " + since + "\n")
                .contains("\nslurmwise_window_end_timestamp_seconds " + until + "\n");
    }

    /** 804 (failed in no time) and 805 (never started) cannot rank among the top jobs; the list says so. */
    @Test
    void theTopJobsSayHowManyFailedJobsTheyCannotRank() throws IOException {
        assertThat(text()).contains("not ranked: 2 failed jobs that held no GPU or CPU time (never started, or no"
                + " elapsed time)");
        JsonNode j = run(200, "--json").json();
        assertThat(j.get("failed_jobs_without_hours").asLong()).isEqualTo(2);
        assertThat(j.get("top_jobs")).extracting(t -> t.get("id").asText()).containsExactly("801", "806");
        assertThat(run(200, "--prometheus").out()).contains("\nslurmwise_failed_jobs_without_hours 2\n");
        assertThat(html()).contains("<p class=\"note\">not ranked: 2 failed jobs that held no GPU or CPU time");
    }

    /** At 80 columns and wider every line fits, and the answer (the failure rate) comes first. */
    @Test
    void everyLineFitsAt80ColumnsAndWider() {
        for (int columns : new int[] {80, 120}) {
            List<String> lines = run(columns).out().lines().toList();
            for (String l : lines) {
                assertThat(l.length()).as(columns + " columns: " + l).isLessThanOrEqualTo(columns);
            }
            // the header, the Jobs row (two lines at 80 columns), then the rate
            assertThat(lines.subList(0, 4)).anyMatch(l -> l.startsWith("│ Failures     1% failure rate"));
        }
    }
}
