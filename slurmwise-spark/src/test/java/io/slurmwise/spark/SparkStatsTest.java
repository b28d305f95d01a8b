package io.slurmwise.spark;

import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * slurmwise-spark gives the document {@code slurmwise stats --input ... --json} gives, byte for byte, on the same
 * exports (the CLI run in-process), at local[2] with splits small enough to fall inside jobs.
 */
class SparkStatsTest {

    static final Pattern LEADING_ID = Pattern.compile("^(\\d+)");
    static SparkSession spark;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() {
        spark = SparkSession.builder().master("local[2]").appName("slurmwise-spark-test")
                .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2").getOrCreate();
        spark.sparkContext().setLogLevel("WARN");
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    /** The bundled mock cluster's sacct rows (plain jobs, arrays, steps, requeues) repeated with new job ids. */
    static List<String> mockRows(int times) throws IOException {
        String text;
        try (InputStream in = SparkStatsTest.class.getClassLoader()
                .getResourceAsStream("io/slurmwise/mock/cluster/sacct.psv")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String[] lines = text.split("\n");
        Map<String, Integer> index = new HashMap<>();
        List<String> out = new ArrayList<>();
        out.add(lines[0]);
        for (int r = 0; r < times; r++) {
            for (int i = 1; i < lines.length; i++) {
                Matcher m = LEADING_ID.matcher(lines[i]);
                if (m.find()) {
                    int k = index.computeIfAbsent(m.group(1), x -> index.size() + 1);
                    out.add((r * 1000 + k) + lines[i].substring(m.end()));
                }
            }
        }
        return out;
    }

    static String join(List<String> lines) {
        return String.join("\n", lines) + "\n";
    }

    /** The same rows with the columns reversed and another delimiter: what a different --format gives. */
    static String reordered(List<String> rows, String delimiter) {
        StringBuilder sb = new StringBuilder();
        for (String row : rows) {
            String[] f = row.split("\\|", -1);
            List<String> rev = new ArrayList<>(List.of(f));
            java.util.Collections.reverse(rev);
            sb.append(String.join(delimiter, rev)).append('\n');
        }
        return sb.toString();
    }

    record Run(int code, String out, String err) {
    }

    Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = io.slurmwise.cli.Main.run(args, new PrintWriter(out), new PrintWriter(err),
                Map.of("SLURMWISE_HOME", tmp.resolve("home").toString(), "COLUMNS", "100"), false);
        return new Run(code, out.toString(), err.toString());
    }

    static String sparkJson(List<String> inputs, StatsSettings settings, long split) {
        return SparkStats.json(SparkStats.run(spark, inputs, settings, split), settings) + System.lineSeparator();
    }

    @Test
    void aPlainExportCutInSmallSplitsGivesTheClisDocumentByteForByte() throws IOException {
        List<String> rows = mockRows(15);
        Path psv = Files.writeString(tmp.resolve("sacct.psv"), join(rows));
        Run expected = cli("stats", "--input", psv.toString(), "--json", "--top", "20");
        assertThat(expected.code()).as(expected.err()).isZero();
        assertThat(rows).anyMatch(r -> r.matches("^\\d+_\\d+\\|.*")).anyMatch(r -> r.matches("^\\d+\\.batch\\|.*"));
        // 16 KiB splits: most start inside a job's rows (array tasks, steps)
        String actual = sparkJson(List.of(psv.toString()), StatsSettings.defaults().withTop(20), 16 << 10);
        assertThat(actual).isEqualTo(expected.out());
        assertThat(Files.size(psv) / (16 << 10)).isGreaterThan(8);
    }

    @Test
    void aFolderOfReorderedAndCompressedExportsGivesTheClisDocumentByteForByte() throws IOException {
        List<String> rows = new ArrayList<>(mockRows(10));
        Path dir = Files.createDirectories(tmp.resolve("exports"));
        int half = rows.size() / 2;
        // cut between jobs: a file ends before a job row
        while (rows.get(half).matches("^\\d+(_\\d+)?\\..*")) {
            half++;
        }
        // two clusters: each file's rows name theirs in a Cluster column
        List<String> a = new ArrayList<>();
        List<String> b = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            String cluster = i == 0 ? "Cluster" : i < half ? "alpha" : "beta";
            (i < half ? a : b).add(rows.get(i) + "|" + cluster);
        }
        b.add(0, a.get(0));
        Files.writeString(dir.resolve("a.psv"), reordered(a, ";"));
        try (OutputStream o = new GZIPOutputStream(Files.newOutputStream(dir.resolve("b.psv.gz")))) {
            o.write(join(b).getBytes(StandardCharsets.UTF_8));
        }
        Files.writeString(dir.resolve(".hidden"), "not an export");
        Run expected = cli("stats", "--input", dir.toString(), "--json", "--since", "2020-01-01T00:00",
                "--until", "2030-01-01T00:00", "--partition", "gpuA100x4");
        assertThat(expected.code()).as(expected.err()).isZero();
        assertThat(expected.out()).contains("2 files", "\"key\" : \"alpha\"", "\"key\" : \"beta\"");
        StatsSettings s = new StatsSettings(java.time.LocalDateTime.of(2020, 1, 1, 0, 0),
                java.time.LocalDateTime.of(2030, 1, 1, 0, 0), null, "gpuA100x4", 10, null, null, null, null, null,
                null, null);
        assertThat(sparkJson(List.of(dir.toString()), s, 8 << 10)).isEqualTo(expected.out());
    }

    @Test
    void parquetFromTheConverterGivesTheSameFigures() throws IOException {
        List<String> rows = mockRows(8);
        Path psv = Files.writeString(tmp.resolve("sacct.psv"), join(rows));
        String out = tmp.resolve("parquet").toString();
        long jobs = SparkStats.toParquet(spark, List.of(psv.toString()), out, 16 << 10);
        Run expected = cli("stats", "--input", psv.toString(), "--json");
        String fromParquet = sparkJson(List.of(out), StatsSettings.defaults(), SparkStats.SPLIT);
        String backendLine = "(?m)^  \"backend\" : .*$";
        assertThat(fromParquet.replaceAll(backendLine, "")).isEqualTo(expected.out().replaceAll(backendLine, ""));
        assertThat(fromParquet).contains("\"backend\" : \"parquet: ").contains("(" + (jobs - 0) + " records read)");
    }

    @Test
    void splitsNeverCutAJobAndTogetherReadEveryRowOnce() throws IOException {
        List<String> rows = mockRows(4);
        String text = join(rows);
        Path psv = Files.writeString(tmp.resolve("sacct.psv"), text);
        String body = text.substring(text.indexOf('\n') + 1);
        Configuration conf = new Configuration();
        for (long split : new long[] {397, 1000, 4096, 1 << 20}) {
            Inputs in = Inputs.of(List.of(psv.toString()), conf, split);
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (ExportSplit s : in.splits()) {
                try (SplitReader r = new SplitReader(s, conf)) {
                    while (r.nextJob()) {
                        String job = new String(r.jobBytes(), 0, r.jobLength(), StandardCharsets.UTF_8);
                        // one job: its first row is the job row, every other row one of its steps
                        String[] lines = job.split("\n");
                        String id = lines[0].substring(0, lines[0].indexOf('|'));
                        assertThat(id).doesNotContain(".").isEqualTo(r.jobId());
                        for (int i = 1; i < lines.length; i++) {
                            assertThat(lines[i]).startsWith(id + ".");
                        }
                        all.write(r.jobBytes(), 0, r.jobLength());
                    }
                }
            }
            assertThat(all.toString(StandardCharsets.UTF_8)).as("split " + split).isEqualTo(body);
        }
    }

    /**
     * A requeued job's runs (sacct -D repeats its id on each, one after another) are read by one split, the one where
     * its first run starts, whatever the split size: a cut between two runs made Spark count the job twice where
     * stats --input counts it once.
     */
    @Test
    void aRequeuedJobsRunsAreReadByOneSplit() throws IOException {
        List<String> rows = mockRows(2);
        List<String> requeued = new ArrayList<>();
        requeued.add(rows.get(0));
        // every job's block (its row and step rows) three times in a row: three runs of one job, the earlier two
        // ended as sacct -D shows them (the states differ, so no run reads as a repeated row)
        int state = List.of(rows.get(0).split("\\|", -1)).indexOf("State");
        List<String> block = new ArrayList<>();
        for (int i = 1; i <= rows.size(); i++) {
            boolean jobRow = i == rows.size() || !rows.get(i).substring(0, rows.get(i).indexOf('|')).contains(".");
            if (jobRow && !block.isEmpty()) {
                for (String earlier : List.of("REQUEUED", "NODE_FAIL")) {
                    String[] f = block.get(0).split("\\|", -1);
                    f[state] = earlier;
                    requeued.add(String.join("|", f));
                    requeued.addAll(block.subList(1, block.size()));
                }
                requeued.addAll(block);
                block.clear();
            }
            if (i < rows.size()) {
                block.add(rows.get(i));
            }
        }
        String text = join(requeued);
        Path psv = Files.writeString(tmp.resolve("requeued.psv"), text);
        String body = text.substring(text.indexOf('\n') + 1);
        Configuration conf = new Configuration();
        for (long split : new long[] {211, 397, 1000, 4096, 1 << 20}) {
            Inputs in = Inputs.of(List.of(psv.toString()), conf, split);
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            Map<String, Integer> splitOf = new HashMap<>();
            int n = 0;
            for (ExportSplit s : in.splits()) {
                n++;
                try (SplitReader r = new SplitReader(s, conf)) {
                    while (r.nextJob()) {
                        Integer before = splitOf.putIfAbsent(r.jobId(), n);
                        assertThat(before == null || before == n).as("split " + split + ": job " + r.jobId()
                                + " read by splits " + before + " and " + n).isTrue();
                        all.write(r.jobBytes(), 0, r.jobLength());
                    }
                }
            }
            assertThat(all.toString(StandardCharsets.UTF_8)).as("split " + split).isEqualTo(body);
        }
        Run expected = cli("stats", "--input", psv.toString(), "--json");
        assertThat(expected.code()).as(expected.err()).isZero();
        String backendLine = "(?m)^  \"backend\" : .*$";
        assertThat(sparkJson(List.of(psv.toString()), StatsSettings.defaults(), 397).replaceAll(backendLine, ""))
                .isEqualTo(expected.out().replaceAll(backendLine, ""));
    }

    @Test
    void badInputIsOneLineSayingWhatToDo() throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new String[] {"--master", "local[1]", "--input", tmp.resolve("nope").toString(), "--json"},
                new PrintWriter(out), new PrintWriter(err), Map.of());
        assertThat(code).isEqualTo(Main.INPUT);
        assertThat(err.toString()).contains("does not exist").hasLineCount(1);
        Path notSacct = Files.writeString(tmp.resolve("x.csv"), "a,b\n1,2\n");
        err = new StringWriter();
        code = Main.run(new String[] {"--master", "local[1]", "--input", notSacct.toString(), "--json"},
                new PrintWriter(out), new PrintWriter(err), Map.of());
        assertThat(code).isEqualTo(Main.INPUT);
        assertThat(err.toString()).contains("no JobID column").hasLineCount(1);
        err = new StringWriter();
        code = Main.run(new String[] {"--input", notSacct.toString(), "--top", "-1"}, new PrintWriter(out),
                new PrintWriter(err), Map.of());
        assertThat(code).isEqualTo(Main.USAGE);
        assertThat(err.toString()).contains("--top").hasLineCount(1);
    }
}
