package io.slurmwise.cli.stats;

import io.slurmwise.view.StatsViews;
import com.fasterxml.jackson.databind.JsonNode;
import io.slurmwise.cli.context.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class StatsCommandTest {

    @TempDir
    Path tmp;

    Map<String, String> seed() {
        return Map.of("SLURMWISE_MOCK_DIR", StatsRun.seedWindow(tmp.resolve("seed")).toString());
    }

    @Test
    void theSeedWindowPrintsThePublishedFiguresExactly() {
        StatsRun.Result r = StatsRun.run(seed(), "stats");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("17% failure rate")
                .contains("24.0 wasted GPU-hours")
                .contains("384.0 CPU-hours")
                .contains("15.4 kWh (~5.7 kg CO2")
                .contains("gpuA100x4 22% (2/9)")
                .contains("6 cancelled jobs and 4 preempted")
                .contains("time_limit")
                .contains("estimated")
                .contains("400 W/GPU")
                .doesNotContain("\u001b[");
    }

    @Test
    void theHeaderShowsTheWindowToTheMinute() {
        // LocalDateTime prints 10:30 without seconds; the header cut its last ":dd" and showed "10"
        StatsRun.Result r = StatsRun.run(seed(), "stats", "--since", "2026-10-01T10:30", "--until", "2026-11-30T23:05");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("2026-10-01 10:30 → 2026-11-30 23:05");
    }

    @Test
    void energyFlagsAndTheSiteFileChangeTheEstimateButNotTheCounts() throws IOException {
        // 2 jobs x 12 h x (1 GPU x 300 W + 16 cores x 10 W) x PUE 1.5 = 16.6 kWh; x 0.2 kg = 3.3 kg
        StatsRun.Result flags = StatsRun.run(seed(), "stats", "--gpu-watts", "300", "--cpu-watts", "10", "--pue", "1.5",
                "--carbon-intensity", "0.2");
        assertThat(flags.code()).as(flags.err()).isZero();
        assertThat(flags.out()).contains("16.6 kWh (~3.3 kg CO2").contains("17% failure rate").contains("24.0 wasted GPU-hours");
        Path site = tmp.resolve("energy.properties");
        Files.writeString(site, "gpu.model.a100=250\npue=1.2\n");
        // (250 + 240) W x 24.0 h x 1.2 = 14.1 kWh
        StatsRun.Result file = StatsRun.run(Map.of("SLURMWISE_MOCK_DIR", StatsRun.seedWindow(tmp.resolve("s2")).toString(),
                "SLURMWISE_ENERGY_FILE", site.toString()), "stats");
        assertThat(file.out()).contains("14.1 kWh").contains("PUE 1.2").contains("site file");
        StatsRun.Result override = StatsRun.run(Map.of("SLURMWISE_MOCK_DIR", tmp.resolve("s2").toString(),
                "SLURMWISE_ENERGY_FILE", site.toString()), "stats", "--pue", "1.0");
        assertThat(override.out()).as("a flag beats the site file").contains("11.8 kWh");
    }

    @Test
    void jsonFollowsTheDocumentedSchema() throws IOException {
        SchemaCheck schema = SchemaCheck.load("io/slurmwise/view/stats-v1.schema.json");
        for (Map<String, String> env : List.of(seed(), Map.<String, String>of())) {
            StatsRun.Result r = StatsRun.run(env, "stats", "--json");
            assertThat(r.code()).as(r.err()).isZero();
            JsonNode j = r.json();
            assertThat(schema.errors(j)).isEmpty();
            assertThat(j.get("schema").asText()).isEqualTo("slurmwise.stats/v1");
        }
        JsonNode j = StatsRun.run(seed(), "stats", "--json").json();
        assertThat(j.at("/total/failed").asLong()).isEqualTo(2);
        assertThat(j.at("/total/failure_rate").asDouble()).isEqualTo(2 / 12.0);
        assertThat(j.at("/total/wasted_energy_kwh_measured").isNull()).as("unknown, never zero").isTrue();
        assertThat(j.at("/by_partition/0/key").asText()).isEqualTo("gpuA100x4");
        assertThat(j.at("/by_kind/0/title").asText()).isNotBlank();
        assertThat(j.at("/top_jobs/0/id").asText()).isEqualTo("3101");
        assertThat(j.at("/window/slices").asInt()).isEqualTo(5);
    }

    @Test
    void theDefaultClusterShowsMeasuredEnergyApartAndArraysAsOneLine() {
        JsonNode j = StatsRun.run(Map.of(), "stats", "--json", "--top", "1000").json();
        assertThat(j.at("/total/jobs").asInt()).isEqualTo(68);
        // 1062 COMPLETED 0:0 with its srun step OUT_OF_MEMORY: a failure of kind oom, as diagnose says, and among
        // the wasteful jobs with the step's state, not "COMPLETED"
        JsonNode stepOom = null;
        for (JsonNode t : j.get("top_jobs")) {
            if (t.get("id").asText().equals("1062")) {
                stepOom = t;
            }
        }
        assertThat(stepOom).as("1062's failed step").isNotNull();
        assertThat(stepOom.get("state").asText()).isEqualTo("OUT_OF_MEMORY (step 1062.0)");
        assertThat(stepOom.get("kinds").toString()).isEqualTo("{\"oom\":1}");
        assertThat(j.at("/total/wasted_measured_jobs").asInt()).isPositive();
        assertThat(j.at("/total/wasted_energy_kwh_measured").asDouble()).isPositive();
        JsonNode array = null;
        for (JsonNode t : j.get("top_jobs")) {
            assertThat(t.get("id").asText()).doesNotMatch("4242_\\d+");
            if (t.get("array").asBoolean()) {
                array = t;
            }
        }
        assertThat(array).as("array 4242 has failed tasks").isNotNull();
        assertThat(array.get("id").asText()).isEqualTo("4242_[1-5]");
        assertThat(array.get("task_count").asInt()).isEqualTo(5);
        // at 100 columns the narrow table: how many of its tasks failed, never cut, and what the fraction is
        String narrow = StatsRun.run(Map.of(), "stats", "--top", "1000").out();
        assertThat(narrow).containsPattern("4242_\\[1-5] .* \\d/5 ")
                .contains("an array's OUTCOME: failed tasks/tasks");
        assertThat(StatsRun.run(Map.of("COLUMNS", "200"), "stats", "--top", "1000").out())
                .containsPattern("4242_\\[1-5] .* 5 tasks: 4 completed, 1 failed");
    }

    @Test
    void csvHasOneRowPerGroupWithTheJsonColumns() {
        StatsRun.Result r = StatsRun.run(seed(), "stats", "--csv");
        assertThat(r.code()).isZero();
        String[] lines = r.out().split("\r\n");
        assertThat(lines[0]).isEqualTo("dimension," + String.join(",", StatsViews.COLUMNS));
        int width = lines[0].split(",", -1).length;
        Set<String> dims = new HashSet<>();
        for (String l : lines) {
            assertThat(l.split(",", -1)).hasSize(width);
            dims.add(l.split(",")[0]);
        }
        assertThat(dims).contains("total", "kind", "partition", "user", "day");
        assertThat(r.out()).contains("\r\ntotal,total,12,12,0,2,6,4,0,0,0,0.166667,24.001389,384.022222,15.360889,")
                .contains("\r\npartition,gpuA100x4,9,9,0,2,4,3,");
    }

    static final Pattern SAMPLE = Pattern.compile(
            "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([a-zA-Z_][a-zA-Z0-9_]*=\"(\\\\.|[^\"\\\\])*\"(,[a-zA-Z_][a-zA-Z0-9_]*=\"(\\\\.|[^\"\\\\])*\")*)})? "
                    + "([+-]?Inf|-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?)");

    @Test
    void prometheusOutputIsValidTextfileFormatWithStableNames() {
        StatsRun.Result r = StatsRun.run(seed(), "stats", "--prometheus");
        assertThat(r.code()).isZero();
        String text = r.out();
        assertThat(text).endsWith("\n");
        List<String> families = new ArrayList<>();
        String help = null;
        String type = null;
        for (String line : text.split("\n")) {
            if (line.startsWith("# HELP ")) {
                help = line.split(" ")[2];
                assertThat(families).as("one HELP per family").doesNotContain(help);
                families.add(help);
            } else if (line.startsWith("# TYPE ")) {
                type = line.split(" ")[2];
                assertThat(type).isEqualTo(help);
                assertThat(line).endsWith(" gauge");
            } else {
                assertThat(SAMPLE.matcher(line).matches()).as("sample line: %s", line).isTrue();
                String name = line.split("[{ ]")[0];
                assertThat(name).as("sample under its own HELP/TYPE").isEqualTo(type);
                assertThat(name).startsWith("slurmwise_");
            }
        }
        // the documented names (README, Stats): renaming one breaks dashboards, so this list only grows
        assertThat(families).contains("slurmwise_jobs", "slurmwise_failure_ratio", "slurmwise_partition_failure_ratio",
                "slurmwise_failed_jobs_by_kind", "slurmwise_wasted_gpu_seconds_by_kind",
                "slurmwise_wasted_cpu_seconds_by_kind", "slurmwise_wasted_energy_estimated_joules_by_kind",
                "slurmwise_wasted_gpu_seconds_by_partition", "slurmwise_wasted_energy_estimated_joules_by_partition",
                "slurmwise_wasted_co2e_estimated_grams", "slurmwise_wasted_energy_measured_joules",
                "slurmwise_energy_model_info", "slurmwise_window_start_timestamp_seconds",
                "slurmwise_never_started_jobs", "slurmwise_never_started_jobs_by_kind");
        assertThat(text).contains("slurmwise_jobs{partition=\"gpuA100x4\",outcome=\"failed\"} 2\n")
                .contains("slurmwise_partition_failure_ratio{partition=\"gpuA100x4\"} 0.2222222222222222\n")
                .contains("slurmwise_wasted_gpu_seconds_by_kind{kind=\"time_limit\"} 86405\n")
                .contains("slurmwise_wasted_energy_estimated_joules_by_kind{kind=\"time_limit\"} 55299200\n");
        assertThat(StatsPrometheus.escape("a\"b\\c\nd")).isEqualTo("a\\\"b\\\\c\\nd");
    }

    /**
     * With logs not read (--all-users' default), most failures' cause is not in their record: the unknown row says
     * so, not "Cause not recognised", which read as the classifier failing on logs it never saw.
     */
    @Test
    void unknownByRecordAloneSaysTheLogsWereNotRead() {
        JsonNode off = StatsRun.run(Map.of(), "stats", "--all-users", "--json").json();
        JsonNode unknown = null;
        for (JsonNode k : off.get("by_kind")) {
            if (k.get("key").asText().equals("unknown")) {
                unknown = k;
            }
        }
        assertThat(unknown).as("failures unknown by record alone").isNotNull();
        assertThat(unknown.get("title").asText()).isEqualTo("Logs not read: the accounting record alone does not say");
        JsonNode on = StatsRun.run(Map.of(), "stats", "--all-users", "--logs", "on", "--json").json();
        for (JsonNode k : on.get("by_kind")) {
            assertThat(k.get("title").asText()).doesNotContain("logs not read");
        }
    }

    /** A window where nothing ended: its ratios have no sample (NaN would make a PromQL average over them NaN). */
    @Test
    void prometheusLeavesOutRatiosOfNothing() {
        StatsRun.Result r = StatsRun.run(seed(), "stats", "--prometheus", "--since", "2001-01-01", "--until", "2001-01-02");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).doesNotContain("NaN").contains("# TYPE slurmwise_failure_ratio gauge\n")
                .doesNotContainPattern("(?m)^slurmwise_failure_ratio ")
                .doesNotContainPattern("(?m)^slurmwise_completed_cpu_efficiency_ratio ")
                .containsPattern("(?m)^slurmwise_stats_records 0$");
    }

    @Test
    void htmlIsOneSelfContainedPageWithTheChartsAndTheTopJobs() throws IOException {
        Path page = tmp.resolve("fleet.html");
        StatsRun.Result r = StatsRun.run(seed(), "stats", "--html", page.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("wrote " + page);
        String html = Files.readString(page);
        assertThat(html).startsWith("<!DOCTYPE html>").doesNotContain("{{")
                .contains("id=\"chart-kind\"").contains("id=\"chart-partition\"").contains("id=\"chart-rate\"")
                .contains("id=\"chart-energy\"").contains("id=\"top-jobs\"")
                .contains(">3101<").contains("finetune_mt5").contains("17%").contains("15.4 kWh")
                .contains("22% (2/9)");
        // self-contained: nothing is fetched (the only URL is the SVG namespace, which is never loaded)
        assertThat(html.replace("http://www.w3.org/2000/svg", "")).doesNotContain("http:").doesNotContain("https:")
                .doesNotContain("<script").doesNotContain("<link").doesNotContain("src=");
        StatsRun.Result bad = StatsRun.run(seed(), "stats", "--html", tmp.resolve("no/such/dir/x.html").toString());
        assertThat(bad.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(bad.err()).contains("does not exist");
    }

    @Test
    void userErrorsGiveOneLineAndADocumentedExitCode() throws IOException {
        assertThat(StatsRun.run(seed(), "stats", "--json", "--csv").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(StatsRun.run(seed(), "stats", "--user", "mira", "--all-users").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(StatsRun.run(seed(), "stats", "--slice", "fortnightly").err()).contains("7days");
        assertThat(StatsRun.run(seed(), "stats", "--pue", "0.5").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(StatsRun.run(seed(), "stats", "--logs", "maybe").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(StatsRun.run(seed(), "stats", "--since", "yesterday").code()).isEqualTo(ExitCodes.USAGE);
        // a misspelt user or partition is no empty window (an outside audit: both printed "no jobs", exit 0)
        StatsRun.Result who = StatsRun.run(seed(), "stats", "--user", "nobody-here-42");
        assertThat(who.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(who.err()).contains("no user 'nobody-here-42' on this cluster").contains("mira");
        StatsRun.Result where = StatsRun.run(seed(), "stats", "--partition", "nope");
        assertThat(where.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(where.err()).contains("no partition 'nope'").contains("cpu");
        // an export without job rows is nothing read, not a window without jobs
        Path empty = tmp.resolve("empty.psv");
        Files.writeString(empty, "");
        Path header = tmp.resolve("header.psv");
        Files.writeString(header, "JobID|JobName|User|Partition|State|ExitCode|Elapsed|AllocCPUS|AllocTRES\n");
        for (Path p : List.of(empty, header)) {
            StatsRun.Result none = StatsRun.run(seed(), "stats", "--input", p.toString());
            assertThat(none.code()).as(p.toString()).isEqualTo(ExitCodes.INPUT);
            assertThat(none.err()).contains("no job rows");
        }
        Path site = tmp.resolve("bad.properties");
        Files.writeString(site, "gpu.wats=300\n");
        StatsRun.Result cfg = StatsRun.run(seed(), "stats", "--energy-file", site.toString());
        assertThat(cfg.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(cfg.err()).contains("bad.properties").contains("gpu.wats").doesNotContain("\tat ");
    }

    @Test
    void filtersAndSlicesNarrowTheWindowConsistently() {
        JsonNode mira = StatsRun.run(seed(), "stats", "--user", "mira", "--json").json();
        assertThat(mira.at("/total/jobs").asInt()).isEqualTo(3);
        assertThat(mira.at("/query/user").asText()).isEqualTo("mira");
        JsonNode cpu = StatsRun.run(seed(), "stats", "--partition", "cpu", "--json").json();
        assertThat(cpu.at("/total/jobs").asInt()).isEqualTo(2);
        JsonNode daily = StatsRun.run(seed(), "stats", "--slice", "1day", "--json", "--all-users").json();
        JsonNode weekly = StatsRun.run(seed(), "stats", "--json", "--all-users").json();
        assertThat(daily.at("/window/slices").asInt()).isEqualTo(30);
        assertThat(daily.get("total")).isEqualTo(weekly.get("total"));
        assertThat(daily.get("kinds_from").asText()).as("--all-users reads no logs by default").isEqualTo("records");
        StatsRun.Result empty = StatsRun.run(seed(), "stats", "--since", "2020-01-01", "--until", "2020-02-01");
        assertThat(empty.code()).isZero();
        assertThat(empty.out()).contains("no jobs in this window");
    }

    @Test
    void sparklinesScaleToTheLargestDay() {
        assertThat(StatsPanel.spark(List.of(0.0, 1.0, 2.0, 4.0))).isEqualTo("·▃▅█");
    }

    @Test
    void chartAxesEndOnRoundNumbers() {
        assertThat(Svg.nice(0.286)).isCloseTo(0.3, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(Svg.nice(15.36)).isEqualTo(20);
        assertThat(Svg.nice(102.6)).isEqualTo(120);
        assertThat(Svg.nice(1.0)).isEqualTo(1.0);
        assertThat(Svg.nice(0)).isEqualTo(1);
    }

    @Test
    void theProgressBarShowsSlicesOnATerminalAndClearsItself() {
        java.io.StringWriter sw = new java.io.StringWriter();
        ProgressBar bar = new ProgressBar(new java.io.PrintWriter(sw), true);
        java.time.LocalDateTime t = java.time.LocalDateTime.of(2026, 11, 1, 0, 0);
        var slices = io.slurmwise.stats.FleetScan.slices(t, t.plusDays(21), java.time.Duration.ofDays(7));
        for (var s : slices) {
            bar.sliceStarted(s);
            bar.sliceDone(s, 10);
        }
        bar.finish();
        assertThat(sw.toString()).contains("sacct slice 1/3").contains("sacct slice 3/3 [########################]")
                .contains("30 jobs").endsWith("\r");
        java.io.StringWriter off = new java.io.StringWriter();
        ProgressBar quiet = new ProgressBar(new java.io.PrintWriter(off), false);
        slices.forEach(quiet::sliceStarted);
        quiet.finish();
        assertThat(off.toString()).as("nothing when not a terminal").isEmpty();
    }

    @Test
    void colourOnATerminalKeepsTheFigures() {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        Map<String, String> env = new java.util.HashMap<>(seed());
        env.put("SLURMWISE_BACKEND", "mock");
        env.put("COLUMNS", "100");
        int code = io.slurmwise.cli.Main.run(new String[] {"stats"}, new java.io.PrintWriter(out),
                new java.io.PrintWriter(err), env, true);
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("\u001b[").contains("17% failure rate").contains("gpuA100x4 22% (2/9)");
        assertThat(err.toString()).as("progress bar on the terminal").contains("sacct slice 5/5");
    }
}
