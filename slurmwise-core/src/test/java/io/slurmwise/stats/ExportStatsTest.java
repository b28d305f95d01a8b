package io.slurmwise.stats;

import io.slurmwise.backend.JobQuery;
import io.slurmwise.classify.Classifier;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.SacctReader;
import io.slurmwise.testing.FixtureCluster;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExportStatsTest {

    static final Pattern LEADING_ID = Pattern.compile("^(\\d+)");

    /** The mock cluster's rows repeated {@code times}, each copy with new job ids (arrays stay arrays). */
    static String repeated(int times, String delimiter) throws IOException {
        String[] lines = Files.readString(FixtureCluster.DIR.resolve("sacct.psv")).split("\n");
        Map<String, Integer> index = new HashMap<>();
        StringBuilder sb = new StringBuilder(lines[0].replace("|", delimiter)).append('\n');
        for (int r = 0; r < times; r++) {
            for (int i = 1; i < lines.length; i++) {
                Matcher m = LEADING_ID.matcher(lines[i]);
                if (!m.find()) {
                    continue;
                }
                int k = index.computeIfAbsent(m.group(1), x -> index.size() + 1);
                sb.append(r * 1000 + k).append(lines[i].substring(m.end()).replace("|", delimiter)).append('\n');
            }
        }
        return sb.toString();
    }

    static final Classifier CLASSIFIER = new Classifier(io.slurmwise.taxonomy.Taxonomy.load(null));
    static final FixtureCluster CLUSTER = new FixtureCluster();

    static FleetScan scan() {
        return FleetScan.builder(CLUSTER, CLASSIFIER).build();
    }

    static FleetReport sequential(String text, JobQuery q) {
        FleetScan scan = scan();
        FleetStats s = scan.newStats();
        s.coverWindow(q.since(), q.until());
        try (var jobs = SacctReader.stream(new StringReader(text))) {
            jobs.filter(q::covers).forEach(j -> scan.add(s, j));
        }
        return s.report();
    }

    static ExportStats.Result parallel(String text, JobQuery q, int threads, int block) {
        FleetScan scan = scan();
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return ExportStats.builder(scan::newStats, scan::add).threads(threads).blockSize(block).build()
                .run(List.of(ExportStats.Source.of("export", () -> new ByteArrayInputStream(bytes))), q);
    }

    @Test
    void blocksOfAnySizeOnAnyThreadsGiveTheSequentialReport() throws IOException {
        String text = repeated(7, "|");
        JobQuery all = new JobQuery(null, null, null, null, true, null);
        FleetReport expected = sequential(text, all);
        assertThat(expected.records()).isGreaterThan(400);
        for (int block : new int[] {64, 300, 4096, 1 << 20}) {
            for (int threads : new int[] {1, 3}) {
                ExportStats.Result r = parallel(text, all, threads, block);
                assertThat(r.stats().report()).as("block %d, threads %d", block, threads).isEqualTo(expected);
                assertThat(r.counts().jobs()).isEqualTo(expected.records());
            }
        }
    }

    @Test
    void aHeterogeneousJobIsNeverCutBetweenBlocks() throws IOException {
        // het job 5000 is three component rows (5000+0..2) with their steps; a block boundary between them would
        // make two FleetStats count it twice
        StringBuilder sb = new StringBuilder("JobID|JobName|User|Partition|State|Start|End|Elapsed|AllocCPUS\n");
        for (int i = 1; i <= 6; i++) {
            sb.append(4990 + i).append("|pre|ann|cpu|COMPLETED|2026-11-01T00:00:00|2026-11-01T01:00:00|01:00:00|4\n");
        }
        sb.append("5000+0|lead|eve|cpu|CANCELLED by 0|2026-11-01T00:00:00|2026-11-01T02:00:00|02:00:00|16\n")
                .append("5000+0.batch|batch||||2026-11-01T00:00:00|2026-11-01T02:00:00|02:00:00|16\n")
                .append("5000+1|gpu|eve|gpu|FAILED|2026-11-01T00:00:00|2026-11-01T02:00:00|02:00:00|8\n")
                .append("5000+1.0|train||||2026-11-01T00:00:00|2026-11-01T02:00:00|02:00:00|8\n")
                .append("5000+2|io|eve|cpu|CANCELLED by 0|2026-11-01T00:00:00|2026-11-01T02:00:00|02:00:00|2\n");
        for (int i = 1; i <= 6; i++) {
            sb.append(5000 + i).append("|post|bob|cpu|FAILED|2026-11-01T00:00:00|2026-11-01T00:30:00|00:30:00|4\n");
        }
        String text = sb.toString();
        JobQuery all = new JobQuery(null, null, null, null, true, null);
        FleetReport expected = sequential(text, all);
        assertThat(expected.total().jobs()).isEqualTo(13);
        assertThat(expected.total().failed()).isEqualTo(7);
        for (int block : new int[] {64, 128, 200, 300, 4096}) {
            for (int threads : new int[] {1, 3}) {
                assertThat(parallel(text, all, threads, block).stats().report()).as("block %d, threads %d", block, threads)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void theWindowUserAndPartitionSelectAsTheBackendsDo() throws IOException {
        String text = repeated(3, "|");
        List<JobRecord> jobs = new ArrayList<>();
        try (var s = SacctReader.stream(new StringReader(text))) {
            s.forEach(jobs::add);
        }
        LocalDateTime mid = jobs.get(jobs.size() / 2).end();
        JobQuery q = new JobQuery(mid.minusDays(3), mid, null, "alice", false, null);
        ExportStats.Result r = parallel(text, q, 2, 512);
        assertThat(r.stats().report()).isEqualTo(sequential(text, q));
        assertThat(r.counts().counted()).isEqualTo(jobs.stream().filter(q::covers).count()).isPositive()
                .isLessThan(r.counts().jobs());
    }

    @Test
    void anyDelimiterAndColumnSubsetReadsTheSame() throws IOException {
        JobQuery all = new JobQuery(null, null, null, null, true, null);
        FleetReport pipes = sequential(repeated(2, "|"), all);
        assertThat(parallel(repeated(2, ";;"), all, 2, 700).stats().report()).isEqualTo(pipes);
        // without the columns stats does not read, in another order, with a delimiter no value holds
        String full = repeated(2, "|");
        String[] lines = full.split("\n");
        List<String> header = List.of(lines[0].split("\\|", -1));
        List<String> keep = new ArrayList<>(header);
        keep.removeAll(List.of("WorkDir", "StdOut", "StdErr", "QOS"));
        java.util.Collections.reverse(keep);
        StringBuilder sb = new StringBuilder();
        for (String line : lines) {
            String[] f = line.split("\\|", -1);
            List<String> out = new ArrayList<>();
            for (String k : keep) {
                out.add(f[header.indexOf(k)]);
            }
            sb.append(String.join(";", out)).append('\n');
        }
        FleetReport subset = parallel(sb.toString(), all, 2, 1000).stats().report();
        assertThat(subset.total()).isEqualTo(pipes.total());
        assertThat(subset.byKind()).isEqualTo(pipes.byKind());
    }

    @Test
    void aRowLongerThanTheLineCapIsSkippedAndCountedWhileTheOthersStillCount() throws IOException {
        String text = repeated(3, "|");
        JobQuery all = new JobQuery(null, null, null, null, true, null);
        FleetReport expected = sequential(text, all);
        int firstRow = text.indexOf('\n') + 1;
        // a job name of 2 MiB: past SacctReader's 1 MiB line cap, within a (grown) block, parsed in place
        String huge = "999999|" + "x".repeat(2 << 20) + "|alice\n";
        String withHuge = text.substring(0, firstRow) + huge + text.substring(firstRow);
        ExportStats.Result r = parallel(withHuge, all, 2, 1 << 20);
        assertThat(r.counts().malformed()).isEqualTo(1);
        assertThat(r.stats().report()).isEqualTo(expected);
    }

    @Test
    void anExportWithoutAHeaderSaysSo() {
        JobQuery all = new JobQuery(null, null, null, null, true, null);
        assertThatThrownBy(() -> parallel("1001|train|alice\n1002|x|bob\n", all, 1, 64))
                .isInstanceOf(ExportStats.ExportException.class)
                .hasMessageContaining("has no JobID column").hasMessageContaining("without -n");
    }

    @Test
    void anExportWithoutStateOrAnyTimeSaysWhichColumnIsMissing() {
        JobQuery all = new JobQuery(null, null, null, null, true, null);
        assertThatThrownBy(() -> parallel("JobID|User|Elapsed\n1001|alice|01:00:00\n", all, 1, 64))
                .isInstanceOf(ExportStats.ExportException.class)
                .hasMessageContaining("has no State column").hasMessageContaining("--format=JobID");
        assertThatThrownBy(() -> parallel("JobID|State|Start\n1001|FAILED|2026-11-01T00:00:00\n", all, 1, 64))
                .isInstanceOf(ExportStats.ExportException.class)
                .hasMessageContaining("has no Elapsed (nor Start and End) column");
        // Start and End are enough: the time is their difference
        assertThat(parallel("JobID|State|Start|End|AllocCPUS\n1001|FAILED|2026-11-01T00:00:00|2026-11-01T02:00:00|4\n",
                all, 1, 64).stats().report().total().wastedCpuHours()).isCloseTo(8.0, org.assertj.core.api.Assertions.within(1e-9));
    }

    /** A block is cut before a job's first row, and a requeued job's runs (its id repeated, sacct -D) stay together. */
    @Test
    void blocksAreCutBetweenJobsNeverBetweenARequeuedJobsRuns() {
        byte[] sep = "|".getBytes(StandardCharsets.UTF_8);
        String rows = "1|a\n1.batch|x\n2|b\n2.batch|y\n2|c\n2.batch|z\n";
        byte[] b = rows.getBytes(StandardCharsets.UTF_8);
        assertThat(ExportStats.lastJobStart(b, 0, b.length, 0, sep)).isEqualTo(rows.indexOf("2|b"));
        String plain = "1|a\n1.batch|x\n2|b\n2.batch|y\n3|c\n";
        byte[] p = plain.getBytes(StandardCharsets.UTF_8);
        assertThat(ExportStats.lastJobStart(p, 0, p.length, 0, sep)).isEqualTo(plain.indexOf("3|c"));
        // one job's runs back to the block's start: no cut inside
        String one = "2|b\n2.batch|y\n2|c\n";
        byte[] o = one.getBytes(StandardCharsets.UTF_8);
        assertThat(ExportStats.lastJobStart(o, 0, o.length, 0, sep)).isZero();
        // and counted once however the export is cut into blocks
        String header = "JobID|JobName|User|Partition|State|ExitCode|Start|End|Elapsed|AllocCPUS\n";
        StringBuilder export = new StringBuilder(header);
        for (int j = 1; j <= 400; j++) {
            export.append(j).append("|job|ann|cpu|NODE_FAIL|0:0|2026-11-02T00:00:00|2026-11-02T01:00:00|01:00:00|4\n");
            export.append(j).append("|job|ann|cpu|COMPLETED|0:0|2026-11-02T02:00:00|2026-11-02T03:00:00|01:00:00|4\n");
        }
        byte[] all = export.toString().getBytes(StandardCharsets.UTF_8);
        FleetScan scan = FleetScan.forRecords(new Classifier(io.slurmwise.taxonomy.Taxonomy.load(null))).build();
        for (int block : new int[] {1 << 10, 1 << 12, 1 << 20}) {
            FleetReport r = ExportStats.builder(scan::newStats, scan::add).threads(2).blockSize(block).build()
                    .run(List.of(ExportStats.Source.of("d.psv", () -> new ByteArrayInputStream(all))),
                            JobQuery.window(null, null)).stats().report();
            assertThat(r.total().jobs()).as("blocks of %d bytes", block).isEqualTo(400);
            assertThat(r.total().completed()).isEqualTo(400);
            assertThat(r.total().failed()).isZero();
            assertThat(r.total().interruptedCpuHours()).isCloseTo(1600.0, org.assertj.core.data.Offset.offset(1e-6));
        }
    }
}
