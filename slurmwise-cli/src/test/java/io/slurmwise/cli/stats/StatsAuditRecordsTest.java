package io.slurmwise.cli.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an outside audit of {@code stats} found about records that do not stand for one job alone: a requeued job's
 * runs in different weeks, a heterogeneous job's components on different partitions.
 */
class StatsAuditRecordsTest {

    static final String HEADER = "JobID|JobName|User|Account|Partition|QOS|State|ExitCode|DerivedExitCode|Submit|Start|End"
            + "|Elapsed|Timelimit|ReqMem|MaxRSS|AllocCPUS|AllocTRES|ReqTRES|NodeList|TotalCPU|ConsumedEnergyRaw|WorkDir"
            + "|StdOut|StdErr|Reason";
    static final String PARTITIONS = String.join("\n", "PARTITION|TIMELIMIT|NODES|CPUS|MEMORY|GRES|AVAIL",
            "cpu|2-00:00:00|124|128|256000|(null)|up", "gpuH100x8|2-00:00:00|12|96|2063000|gpu:h100:8|up", "");
    static final String GPU_TRES = "billing=288,cpu=96,gres/gpu:h100=8,gres/gpu=8,mem=2000G,node=1";

    /** The audit's fixture: a run ends by NODE_FAIL late on 7 October, the requeued run completes on the 8th. */
    static final String REQUEUE = String.join("\n", HEADER,
            "777001|train|u001|acct01|gpuH100x8|gpu|NODE_FAIL|0:0|0:0|2026-10-07T10:00:00|2026-10-07T10:00:05|2026-10-07T22:00:05|12:00:00|2-00:00:00|2000G||96|" + GPU_TRES + "|" + GPU_TRES + "|gpuh001|10:00:00||/scratch/u001|||None",
            "777001.batch|batch||acct01|||CANCELLED|0:15||2026-10-07T10:00:05|2026-10-07T10:00:05|2026-10-07T22:00:05|12:00:00|||1000K|96|cpu=96,mem=2000G,node=1||gpuh001|10:00:00|||||",
            "777001|train|u001|acct01|gpuH100x8|gpu|COMPLETED|0:0|0:0|2026-10-07T10:00:00|2026-10-07T22:10:00|2026-10-08T04:10:00|06:00:00|2-00:00:00|2000G||96|" + GPU_TRES + "|" + GPU_TRES + "|gpuh002|10:00:00||/scratch/u001|||None",
            "777001.batch|batch||acct01|||COMPLETED|0:0||2026-10-07T22:10:00|2026-10-07T22:10:00|2026-10-08T04:10:00|06:00:00|||1000K|96|cpu=96,mem=2000G,node=1||gpuh002|10:00:00|||||",
            "");

    /** A heterogeneous job completed on cpu and failed on the GPU partition, and a plain job on each. */
    static final String HET = String.join("\n", HEADER,
            "9000028+0|het|u1|a|cpu|normal|COMPLETED|0:0|0:0|2026-10-10T09:00:00|2026-10-10T10:00:00|2026-10-10T12:00:00|02:00:00|1-00:00:00|8G||8|billing=8,cpu=8,mem=8G,node=1|billing=8,cpu=8,mem=8G,node=1|cn001|01:00:00|||||None",
            "9000028+1|het|u1|a|gpuH100x8|gpu|FAILED|1:0|0:0|2026-10-10T09:00:00|2026-10-10T10:00:00|2026-10-10T11:00:00|01:00:00|1-00:00:00|8G||16|billing=16,cpu=16,gres/gpu:h100=8,gres/gpu=8,mem=8G,node=1|billing=16,cpu=16,gres/gpu=8,mem=8G,node=1|gpuh001|01:00:00|||||None",
            "9000030|plain|u1|a|cpu|normal|COMPLETED|0:0|0:0|2026-10-10T09:00:00|2026-10-10T10:00:00|2026-10-10T11:00:00|01:00:00|1-00:00:00|8G||4|billing=4,cpu=4,mem=8G,node=1|billing=4,cpu=4,mem=8G,node=1|cn002|01:00:00|||||None",
            "9000031|gpujob|u2|a|gpuH100x8|gpu|FAILED|1:0|0:0|2026-10-10T09:00:00|2026-10-10T10:00:00|2026-10-10T13:00:00|03:00:00|1-00:00:00|8G||16|billing=16,cpu=16,gres/gpu:h100=8,gres/gpu=8,mem=8G,node=1|billing=16,cpu=16,gres/gpu=8,mem=8G,node=1|gpuh002|01:00:00|||||None",
            "");

    /**
     * The audit's odd records: an End before its Start, an Elapsed of 1000 days an hour after the Start, a GPU count of
     * NO_VAL, a CPU count of NO_VAL, a Start at the epoch without Elapsed, a negative CPU count, an energy of NO_VAL64,
     * and a plain job.
     */
    static final String ODD = String.join("\n", HEADER,
            "800001|skew|u1|a|cpu|normal|FAILED|1:0|0:0|2026-10-10T10:00:00|2026-10-10T12:00:00|2026-10-10T11:00:00||01:00:00|4G||8|billing=8,cpu=8,mem=4G,node=1|billing=8,cpu=8,mem=4G,node=1|cn001|00:00:00|||||None",
            "800002|hugeel|u1|a|cpu|normal|FAILED|1:0|0:0|2026-10-10T10:00:00|2026-10-10T10:00:00|2026-10-10T11:00:00|1000-00:00:00|01:00:00|4G||8|billing=8,cpu=8,mem=4G,node=1|billing=8,cpu=8,mem=4G,node=1|cn001|00:00:00|||||None",
            "800003|hugegpu|u1|a|gpuH100x8|gpu|FAILED|1:0|0:0|2026-10-10T10:00:00|2026-10-10T10:00:00|2026-10-10T11:00:00|01:00:00|01:00:00|4G||8|billing=8,cpu=8,gres/gpu=4294967294,mem=4G,node=1|billing=8,cpu=8,gres/gpu=1,mem=4G,node=1|gpuh001|00:00:00|||||None",
            "800004|novalcpu|u1|a|cpu|normal|FAILED|1:0|0:0|2026-10-10T10:00:00|2026-10-10T10:00:00|2026-10-10T11:00:00|01:00:00|01:00:00|4G||4294967294|billing=8,mem=4G,node=1|billing=8,cpu=8,mem=4G,node=1|cn001|00:00:00|||||None",
            "800007|epoch|u1|a|cpu|normal|FAILED|1:0|0:0|2026-10-10T10:00:00|1970-01-01T00:00:00|2026-10-10T11:00:00||01:00:00|4G||8|billing=8,cpu=8,mem=4G,node=1|billing=8,cpu=8,mem=4G,node=1|cn001|00:00:00|||||None",
            "800008|negcpu|u1|a|cpu|normal|FAILED|1:0|0:0|2026-10-10T10:00:00|2026-10-10T10:00:00|2026-10-10T11:00:00|01:00:00|01:00:00|4G||-8|billing=8,cpu=-8,mem=4G,node=1|billing=8,cpu=8,mem=4G,node=1|cn001|00:00:00|||||None",
            "800009|energyneg|u1|a|cpu|normal|FAILED|1:0|0:0|2026-10-10T10:00:00|2026-10-10T10:00:00|2026-10-10T11:00:00|01:00:00|01:00:00|4G||8|billing=8,cpu=8,mem=4G,node=1|billing=8,cpu=8,mem=4G,node=1|cn001|00:00:00|18446744073709551614||||None",
            "800010|ok|u1|a|cpu|normal|COMPLETED|0:0|0:0|2026-10-10T10:00:00|2026-10-10T10:00:00|2026-10-10T11:00:00|01:00:00|01:00:00|4G||8|billing=8,cpu=8,mem=4G,node=1|billing=8,cpu=8,mem=4G,node=1|cn001|99-00:00:00|||||None",
            "");

    static final String[] WINDOW = {"--since", "2026-10-01", "--until", "2026-10-15"};

    @TempDir
    Path tmp;

    /** A mock cluster folder holding {@code sacct}, its timestamps as recorded. */
    Path cluster(String name, String sacct) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve(name));
        Files.writeString(dir.resolve("sacct.psv"), sacct);
        Files.writeString(dir.resolve("partitions.psv"), PARTITIONS);
        Files.writeString(dir.resolve("cluster.properties"), "replay.shift-to-now=false\n");
        return dir;
    }

    static StatsRun.Result ok(StatsRun.Result r) {
        assertThat(r.code()).as(r.err()).isZero();
        return r;
    }

    StatsRun.Result backend(Path dir, String... more) {
        String[] args = new String[2 + WINDOW.length + more.length];
        args[0] = "stats";
        args[1] = "--all-users";
        System.arraycopy(WINDOW, 0, args, 2, WINDOW.length);
        System.arraycopy(more, 0, args, 2 + WINDOW.length, more.length);
        return ok(StatsRun.run(Map.of("SLURMWISE_MOCK_DIR", dir.toString()), args));
    }

    StatsRun.Result input(Path dir, String... more) {
        String[] args = new String[3 + more.length];
        args[0] = "stats";
        args[1] = "--input";
        args[2] = dir.resolve("sacct.psv").toString();
        System.arraycopy(more, 0, args, 3, more.length);
        return ok(StatsRun.run(Map.of(), args));
    }

    @Test
    void aRequeuedJobWhoseRunsEndInDifferentWeeksCountsOnceWhateverTheSlicing() throws IOException {
        Path dir = cluster("requeue", REQUEUE);
        for (String slice : new String[] {"7days", "14days", "1day"}) {
            JsonNode t = backend(dir, "--json", "--slice", slice).json().get("total");
            assertThat(t.get("jobs").asLong()).as("--slice %s", slice).isEqualTo(1);
            assertThat(t.get("completed").asLong()).isEqualTo(1);
            assertThat(t.get("failed").asLong()).isZero();
            assertThat(t.get("interrupted_gpu_hours").asDouble()).isEqualTo(96.0);
        }
        JsonNode t = input(dir, "--json").json().get("total");
        assertThat(t.get("jobs").asLong()).isEqualTo(1);
        assertThat(t.get("interrupted_gpu_hours").asDouble()).isEqualTo(96.0);
    }

    /** A row of the breakdown without its key, to compare a partition's row with a filtered run's total. */
    static JsonNode figures(JsonNode row) {
        ObjectNode o = row.deepCopy();
        o.remove("key");
        return o;
    }

    static JsonNode row(JsonNode report, String partition) {
        for (JsonNode r : report.get("by_partition")) {
            if (r.get("key").asText().equals(partition)) {
                return r;
            }
        }
        throw new AssertionError("no row " + partition + " in " + report.get("by_partition"));
    }

    @Test
    void aPartitionsFilteredRunSaysWhatItsRowSaysOfAHeterogeneousJob() throws IOException {
        Path dir = cluster("het", HET);
        JsonNode whole = input(dir, "--json").json();
        JsonNode cpu = row(whole, "cpu");
        assertThat(cpu.get("jobs").asLong()).isEqualTo(2);
        assertThat(cpu.get("failed").asLong()).as("the het job failed on its other partition").isEqualTo(1);
        for (String p : new String[] {"cpu", "gpuH100x8"}) {
            JsonNode expected = figures(row(whole, p));
            JsonNode filtered = input(dir, "--json", "--partition", p).json();
            assertThat(figures(filtered.get("total"))).as("--input --partition %s", p).isEqualTo(expected);
            assertThat(filtered.get("by_partition")).hasSize(1);
            JsonNode overAccounting = backend(dir, "--json", "--partition", p).json();
            assertThat(figures(overAccounting.get("total"))).as("--partition %s over accounting", p).isEqualTo(expected);
            assertThat(figures(row(backend(dir, "--json").json(), p))).isEqualTo(expected);
        }
    }

    @Test
    void recordsWhoseTimesCannotBeAreLeftOutAndEveryFormatSaysHowMany() throws IOException {
        Path dir = cluster("odd", ODD);
        for (StatsRun.Result r : new StatsRun.Result[] {input(dir, "--json"), backend(dir, "--json")}) {
            JsonNode j = r.json();
            JsonNode t = j.get("total");
            assertThat(t.get("jobs").asLong()).isEqualTo(5);
            assertThat(t.get("failed").asLong()).isEqualTo(4);
            assertThat(t.get("wasted_gpu_hours").asDouble()).as("NO_VAL GPUs are no GPUs").isZero();
            assertThat(t.get("wasted_cpu_hours").asDouble()).as("four failed jobs of 8 CPUs for an hour").isEqualTo(32.0);
            assertThat(t.get("wasted_energy_kwh_measured").isNull()).as("NO_VAL64 energy is no measurement").isTrue();
            assertThat(j.get("implausible_records").asLong()).isEqualTo(3);
            assertThat(j.get("first_implausible_record").asText())
                    .isEqualTo("800001 (End 2026-10-10T11:00 before Start 2026-10-10T12:00)");
            assertThat(r.err()).contains("3 implausible records left out (first: 800001");
        }
        String text = input(dir).out().replaceAll("\\s+", " ");
        assertThat(text).contains("(8 records read) · 3 implausible records left out (first: 800001 (End");
        assertThat(input(dir, "--prometheus").out()).contains("\nslurmwise_stats_implausible_records 3\n");
        Path html = tmp.resolve("odd.html");
        input(dir, "--html", html.toString());
        assertThat(Files.readString(html)).contains("3 implausible records left out");
        assertThat(input(cluster("plain", HET), "--json").json().get("implausible_records").asLong()).isZero();
    }
}
