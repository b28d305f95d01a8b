package io.slurmwise.cli.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.airlift.compress.zstd.ZstdOutputStream;
import io.slurmwise.cli.context.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code stats --input}: sacct exports read directly give what the backend path gives on the same jobs. */
class StatsInputTest {

    static final Pattern LEADING_ID = Pattern.compile("^(\\d+)");
    static final String[] WINDOW = {"--since", "2020-01-01", "--until", "2030-01-01"};

    @TempDir
    Path tmp;

    /** The bundled mock cluster's sacct rows repeated with new job ids (arrays stay arrays). */
    static String repeated(int times) throws IOException {
        String text;
        try (InputStream in = StatsInputTest.class.getClassLoader()
                .getResourceAsStream("io/slurmwise/mock/cluster/sacct.psv")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String[] lines = text.split("\n");
        Map<String, Integer> index = new HashMap<>();
        StringBuilder sb = new StringBuilder(lines[0]).append('\n');
        for (int r = 0; r < times; r++) {
            for (int i = 1; i < lines.length; i++) {
                Matcher m = LEADING_ID.matcher(lines[i]);
                if (m.find()) {
                    int k = index.computeIfAbsent(m.group(1), x -> index.size() + 1);
                    sb.append(r * 1000 + k).append(lines[i].substring(m.end())).append('\n');
                }
            }
        }
        return sb.toString();
    }

    /** The JSON without what names the source and the slicing, which differ by construction. */
    static JsonNode figures(JsonNode j) {
        ObjectNode o = j.deepCopy();
        o.remove("backend");
        o.remove("window");
        return o;
    }

    static String[] args(String... head) {
        String[] out = new String[head.length + WINDOW.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(WINDOW, 0, out, head.length, WINDOW.length);
        return out;
    }

    @Test
    void anExportGivesTheBackendPathsFiguresPlainGzipAndZstd() throws IOException {
        String text = repeated(12);
        Path dir = Files.createDirectories(tmp.resolve("cluster"));
        Path psv = dir.resolve("sacct.psv");
        Files.writeString(psv, text);
        StatsRun.Result backend = StatsRun.run(Map.of("SLURMWISE_MOCK_DIR", dir.toString()),
                args("stats", "--all-users", "--logs", "off", "--json", "--top", "20"));
        assertThat(backend.code()).as(backend.err()).isZero();
        JsonNode expected = figures(backend.json());
        assertThat(expected.at("/total/jobs").asLong()).isGreaterThan(700);

        Path gz = tmp.resolve("sacct.psv.gz");
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(gz))) {
            o.write(text.getBytes(StandardCharsets.UTF_8));
        }
        Path zst = tmp.resolve("sacct.psv.zst");
        try (OutputStream o = new ZstdOutputStream(Files.newOutputStream(zst))) {
            o.write(text.getBytes(StandardCharsets.UTF_8));
        }
        for (Path input : new Path[] {psv, gz, zst}) {
            StatsRun.Result r = StatsRun.run(Map.of(), args("stats", "--input", input.toString(), "--json", "--top", "20",
                    "--threads", "2"));
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(figures(r.json())).as(input.getFileName().toString()).isEqualTo(expected);
            assertThat(r.json().get("backend").asText()).contains("sacct export").contains(input.toString());
        }
    }

    @Test
    void aFolderOfExportsIsTheirSumAndThePanelSaysWhereTheFiguresCameFrom() throws IOException {
        String text = repeated(2);
        Path dir = Files.createDirectories(tmp.resolve("exports"));
        String[] lines = text.split("\n");
        // split between two jobs: the first file ends before a job row
        int cut = 1;
        for (int i = lines.length / 2; i < lines.length; i++) {
            if (!lines[i].split("\\|", 2)[0].contains(".")) {
                cut = i;
                break;
            }
        }
        Files.writeString(dir.resolve("a.psv"), String.join("\n", java.util.Arrays.copyOfRange(lines, 0, cut)) + "\n");
        Files.writeString(dir.resolve("b.psv"), lines[0] + "\n"
                + String.join("\n", java.util.Arrays.copyOfRange(lines, cut, lines.length)) + "\n");
        Path whole = tmp.resolve("whole.psv");
        Files.writeString(whole, text);
        JsonNode both = StatsRun.run(Map.of(), args("stats", "--input", dir.toString(), "--json")).json();
        JsonNode one = StatsRun.run(Map.of(), args("stats", "--input", whole.toString(), "--json")).json();
        assertThat(figures(both)).isEqualTo(figures(one));
        assertThat(both.get("backend").asText()).contains("2 files");
        StatsRun.Result panel = StatsRun.run(Map.of(), "stats", "--input", whole.toString());
        assertThat(panel.code()).as(panel.err()).isZero();
        assertThat(panel.out()).contains("sacct export");
    }

    @Test
    void badInputsSayWhatIsWrong() throws IOException {
        StatsRun.Result missing = StatsRun.run(Map.of(), "stats", "--input", tmp.resolve("nope.psv").toString());
        assertThat(missing.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(missing.err()).contains("does not exist").doesNotContain("Exception");
        Path headerless = tmp.resolve("n.psv");
        Files.writeString(headerless, "1001|train|alice\n");
        StatsRun.Result noHeader = StatsRun.run(Map.of(), "stats", "--input", headerless.toString());
        assertThat(noHeader.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(noHeader.err()).contains("no JobID column").contains("without -n");
        Path notZstd = tmp.resolve("x.psv.zst");
        Files.writeString(notZstd, "JobID|State\n1|FAILED\n");
        StatsRun.Result bad = StatsRun.run(Map.of(), "stats", "--input", notZstd.toString());
        assertThat(bad.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(bad.err()).contains(notZstd.toString()).doesNotContain("\tat ");
        StatsRun.Result logs = StatsRun.run(Map.of(), "stats", "--input", headerless.toString(), "--logs", "on");
        assertThat(logs.code()).isEqualTo(ExitCodes.USAGE);
    }

    /**
     * How exports really arrive (an outside audit): saved with a byte order mark, gzipped under a plain name, cut short
     * in transfer; and a --partition or --user the export never names is a typo, not a window without jobs.
     */
    @Test
    void exportsAsTheyArriveAndNamesTheyDoNotHold() throws IOException {
        String text = repeated(1);
        JsonNode plain = StatsRun.run(Map.of(), args("stats", "--input", write("plain.psv", text).toString(), "--json"))
                .json();
        Path bom = write("bom.psv", "\uFEFF" + text);
        assertThat(figures(StatsRun.run(Map.of(), args("stats", "--input", bom.toString(), "--json")).json()))
                .isEqualTo(figures(plain));
        Path misnamed = tmp.resolve("misnamed.psv");
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(misnamed))) {
            o.write(text.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(figures(StatsRun.run(Map.of(), args("stats", "--input", misnamed.toString(), "--json")).json()))
                .isEqualTo(figures(plain));
        byte[] gz = Files.readAllBytes(misnamed);
        Path cut = tmp.resolve("cut.psv.gz");
        Files.write(cut, java.util.Arrays.copyOf(gz, gz.length / 2));
        StatsRun.Result cutShort = StatsRun.run(Map.of(), "stats", "--input", cut.toString());
        assertThat(cutShort.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(io.slurmwise.cli.StderrText.text(cutShort.err())).contains("cut.psv.gz").contains("gzip file cut short or damaged")
                .contains("copy or export it again").doesNotContain("\tat ");
        StatsRun.Result typo = StatsRun.run(Map.of(), args("stats", "--input", plain(text).toString(), "--partition",
                "gpuA100x44"));
        assertThat(typo.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(typo.err()).contains("no job of partition 'gpuA100x44' in the export").contains("gpuA100x4, ");
        StatsRun.Result nobody = StatsRun.run(Map.of(), args("stats", "--input", plain(text).toString(), "--user", "alcie"));
        assertThat(nobody.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(nobody.err()).contains("no job of user 'alcie'").contains("alice");
        // a name the export holds, in a window where it has no job: an empty window, as before
        StatsRun.Result quiet = StatsRun.run(Map.of(), "stats", "--input", plain(text).toString(), "--partition",
                "largemem", "--since", "2020-01-01", "--until", "2020-01-02");
        assertThat(quiet.code()).as(quiet.err()).isZero();
        assertThat(quiet.out()).contains("no jobs in this window");
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(tmp.resolve(name), text);
    }

    private Path plain(String text) throws IOException {
        return write("plain.psv", text);
    }

    @Test
    void overlappingExportsCountEachJobOnceAndSaySo() throws IOException {
        String text = repeated(2);
        Path whole = tmp.resolve("whole.psv");
        Files.writeString(whole, text);
        // two daily exports that both list the jobs that ran across midnight: here, all of them
        Path dir = Files.createDirectories(tmp.resolve("daily"));
        Files.writeString(dir.resolve("day1.psv"), text);
        Files.writeString(dir.resolve("day2.psv"), text);
        StatsRun.Result both = StatsRun.run(Map.of(), args("stats", "--input", dir.toString(), "--json"));
        JsonNode one = StatsRun.run(Map.of(), args("stats", "--input", whole.toString(), "--json")).json();
        assertThat(figures(both.json())).isEqualTo(figures(one));
        assertThat(both.json().get("backend").asText()).containsPattern("\\d+ repeated rows counted once");
        assertThat(both.err()).contains("repeat a job already read").contains("counted once");
    }

    @Test
    void anExportOfWhichNoRowCanBeReadIsAnErrorNotZeroJobs() throws IOException {
        // a comma-separated header and rows whose names hold commas: every row has the wrong field count
        Path commas = tmp.resolve("commas.csv");
        Files.writeString(commas, "JobID,JobName,State,Elapsed\n1001,prep,a,b,FAILED,00:01:00\n1002,x,y,COMPLETED,00:02:00,z\n");
        StatsRun.Result r = StatsRun.run(Map.of(), "stats", "--input", commas.toString());
        assertThat(r.code()).as(r.out()).isEqualTo(ExitCodes.INPUT);
        assertThat(r.err()).contains("no row of the export could be read").contains("2 rows")
                .contains("export again with sacct -P");
        assertThat(r.out()).doesNotContain("no jobs in this window");
    }

    @Test
    void aWholeExportIsNamedByItsDaysAndTopJobsKeepTheirIdsAndFiguresAt80Columns() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("centre"));
        withCluster(dir, "alpha", repeated(2));
        withCluster(dir, "beta", repeated(1));
        StatsRun.Result r = StatsRun.run(Map.of("COLUMNS", "80"), "stats", "--input", dir.toString(), "--top", "10");
        assertThat(r.code()).as(r.err()).isZero();
        String first = r.out().lines().findFirst().orElseThrow();
        assertThat(first).doesNotContain(" now ").containsPattern("Fleet stats \\d{4}-\\d{2}-\\d{2} → \\d{4}-\\d{2}-\\d{2}");
        JsonNode j = StatsRun.run(Map.of(), "stats", "--input", dir.toString(), "--top", "10", "--json").json();
        java.util.List<String> lines = r.out().lines().toList();
        int top = lines.indexOf(lines.stream().filter(l -> l.contains("Most wasteful")).findFirst().orElseThrow());
        for (JsonNode t : j.get("top_jobs")) {
            String label = t.get("cluster").asText() + ":" + t.get("id").asText();
            String row = lines.stream().skip(top).filter(l -> l.contains(label + " ")).findFirst()
                    .orElseThrow(() -> new AssertionError(label + " is not whole at 80 columns:\n" + r.out()));
            // every figure whole, not cut with an ellipsis
            assertThat(row).contains(String.format(java.util.Locale.ROOT, "%,.1f", t.get("wasted_cpu_hours").asDouble()));
        }
        for (String l : lines) {
            assertThat(l.length()).as(l).isLessThanOrEqualTo(80);
        }
    }

    /** One export per cluster, as {@code sacct -M NAME} writes them, with the Cluster column. */
    static Path withCluster(Path dir, String cluster, String text) throws IOException {
        StringBuilder sb = new StringBuilder();
        boolean header = true;
        for (String line : text.split("\n")) {
            sb.append(line).append('|').append(header ? "Cluster" : cluster).append('\n');
            header = false;
        }
        return Files.writeString(dir.resolve(cluster + ".psv"), sb.toString());
    }

    @Test
    void severalClustersAreABreakdownInEveryOutput() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("centre"));
        withCluster(dir, "alpha", repeated(2));
        withCluster(dir, "beta", repeated(1));
        JsonNode j = StatsRun.run(Map.of(), "stats", "--input", dir.toString(), "--json").json();
        JsonNode clusters = j.get("by_cluster");
        assertThat(clusters).hasSize(2);
        assertThat(clusters.get(0).get("key").asText()).isEqualTo("alpha");
        assertThat(clusters.get(0).get("jobs").asLong()).isEqualTo(2 * clusters.get(1).get("jobs").asLong());
        assertThat(clusters.get(0).get("jobs").asLong() + clusters.get(1).get("jobs").asLong())
                .isEqualTo(j.at("/total/jobs").asLong());
        assertThat(StatsRun.run(Map.of(), "stats", "--input", dir.toString()).out()).contains("By cluster")
                .containsPattern("alpha +\\d+% \\(");
        assertThat(StatsRun.run(Map.of(), "stats", "--input", dir.toString(), "--csv").out())
                .contains("\r\ncluster,alpha,").contains("\r\ncluster,beta,");
        assertThat(StatsRun.run(Map.of(), "stats", "--input", dir.toString(), "--prometheus").out())
                .contains("slurmwise_cluster_jobs{cluster=\"alpha\",outcome=\"failed\"}")
                .contains("slurmwise_wasted_gpu_seconds_by_cluster{cluster=\"beta\"}");
        Path html = tmp.resolve("centre.html");
        assertThat(StatsRun.run(Map.of(), "stats", "--input", dir.toString(), "--html", html.toString()).code()).isZero();
        assertThat(Files.readString(html)).contains("<h2>By cluster</h2>").contains("<table id=\"clusters\">");

        // one cluster: no breakdown to show, and the JSON names it
        Path single = withCluster(Files.createDirectories(tmp.resolve("one")), "alpha", repeated(1));
        assertThat(StatsRun.run(Map.of(), "stats", "--input", single.toString()).out()).doesNotContain("By cluster");
        assertThat(StatsRun.run(Map.of(), "stats", "--input", single.toString(), "--csv").out()).doesNotContain("cluster,");
        assertThat(StatsRun.run(Map.of(), "stats", "--input", single.toString(), "--json").json().get("by_cluster"))
                .hasSize(1);
    }
    /**
     * An array whose tasks failed three ways (an outside audit, F15: the top list named it by one kind): its KIND cell
     * says how many kinds before the cut, at 80 and at 200 columns, and each task counts under its own kind, so the
     * kind table still adds up to the failures.
     */
    @Test
    void anArrayThatFailedSeveralWaysSaysSoAndItsTasksAddUpInTheKindTable() throws IOException {
        String header = "JobID|JobName|User|Account|Partition|QOS|State|ExitCode|DerivedExitCode|Submit|Start|End|Elapsed"
                + "|Timelimit|ReqMem|MaxRSS|AllocCPUS|AllocTRES|ReqTRES|NodeList|TotalCPU|ConsumedEnergyRaw|WorkDir"
                + "|StdOut|StdErr|Reason\n";
        StringBuilder sb = new StringBuilder(header);
        String[] states = {"OUT_OF_MEMORY|0:125", "OUT_OF_MEMORY|0:125", "OUT_OF_MEMORY|0:125", "OUT_OF_MEMORY|0:125",
                "TIMEOUT|0:0", "TIMEOUT|0:0", "NODE_FAIL|0:0", "COMPLETED|0:0"};
        for (int t = 1; t <= states.length; t++) {
            sb.append("7000_").append(t).append("|sweep|bob|genomics|cpu|normal|").append(states[t - 1])
                    .append("|0:0|2026-11-10T08:00:00|2026-11-10T08:00:05|2026-11-10T10:00:05|02:00:00|02:00:00|8G||4")
                    .append("|billing=4,cpu=4,mem=8G,node=1|billing=4,cpu=4,mem=8G,node=1|cn00").append(t)
                    .append("|01:00:00||/scratch/bob|||None\n");
        }
        Path psv = tmp.resolve("sweep.psv");
        Files.writeString(psv, sb.toString());
        JsonNode j = StatsRun.run(Map.of(), "stats", "--input", psv.toString(), "--json").json();
        assertThat(j.at("/total/failed").asInt()).isEqualTo(7);
        long byKind = 0;
        for (JsonNode k : j.get("by_kind")) {
            byKind += k.get("failed").asLong();
        }
        assertThat(byKind).as("the kind table adds up to the failures").isEqualTo(7);
        JsonNode array = j.at("/top_jobs/0");
        assertThat(array.get("id").asText()).isEqualTo("7000_[1-8]");
        assertThat(array.get("kinds").toString()).isEqualTo("{\"node_fail\":1,\"oom\":4,\"time_limit\":2}");
        for (String columns : new String[] {"80", "200"}) {
            String out = StatsRun.run(Map.of("COLUMNS", columns), "stats", "--input", psv.toString()).out();
            String row = out.lines().filter(l -> l.contains("7000_[1-8]")).reduce((a, b) -> b).orElseThrow();
            assertThat(row).as(columns + " columns").contains("3 kinds");
            if (columns.equals("200")) {
                assertThat(row).contains("3 kinds: oom×4,time_limit×2,node_fail×1");
            }
        }
    }
}
