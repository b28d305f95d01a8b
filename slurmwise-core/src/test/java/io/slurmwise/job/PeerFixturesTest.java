package io.slurmwise.job;

import io.slurmwise.backend.JobLookup;
import io.slurmwise.stats.FleetReport;
import io.slurmwise.stats.FleetStats;
import io.slurmwise.view.Views;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Other open-source SLURM tools' sacct fixtures (src/test/resources/peers, sources in its README), read as
 * slurmwise reads an export: every row is a job, a step folded into the job read before it, or rejected with a
 * reason; the totals equal the hand count of {@code scripts/peers/handcount.py}, written apart from this code.
 */
class PeerFixturesTest {

    static final Path PEERS = Path.of("src", "test", "resources", "peers");

    /** The hand count of one export (scripts/peers/handcount.py, copied here). */
    record Expected(String export, int rows, int jobs, int steps, long completed, long failed, long cancelled,
                    long pending, long running, long unknown, double cpuHours, double gpuHours, double memoryGib,
                    int records) {
        /** An export whose every job is one record (no heterogeneous job: a record per component). */
        Expected(String export, int rows, int jobs, int steps, long completed, long failed, long cancelled,
                 long pending, long running, long unknown, double cpuHours, double gpuHours, double memoryGib) {
            this(export, rows, jobs, steps, completed, failed, cancelled, pending, running, unknown, cpuHours, gpuHours,
                    memoryGib, jobs);
        }

        @Override
        public String toString() {
            return export;
        }
    }

    static Stream<Expected> exports() {
        return Stream.of(
                // 7971484 COMPLETED on 2 A100 nodes while its srun step 7971484.0 FAILED: a failure
                new Expected("hb-jobinfo", 242, 100, 142, 65, 17, 8, 7, 3, 0, 120622.0156, 175.5367, 5641.8086),
                new Expected("greenalgorithms4hpc", 2, 2, 0, 0, 2, 0, 0, 0, 0, 100.2736, 3.0083, 256.6016),
                new Expected("xdmod/accounting-logs", 4, 4, 0, 2, 1, 1, 0, 0, 0, 21626.4933, 0, 190.4297),
                new Expected("xdmod/accounting-logs-with-job-arrays", 6, 6, 0, 0, 6, 0, 0, 0, 0, 110592.0, 0, 4500.0),
                new Expected("xdmod/non-ended-job-state", 2, 2, 0, 0, 0, 0, 1, 1, 0, 0, 0, 164.0625),
                new Expected("xdmod/unknown-job-state", 2, 2, 0, 0, 0, 0, 0, 0, 2, 0, 0, 164.0625),
                new Expected("xdmod/utf8-multibyte-chars", 1, 1, 0, 0, 1, 0, 0, 0, 0, 576.0, 0, 2.9297),
                new Expected("xdmod/helper-valid-output", 1, 1, 0, 0, 1, 0, 0, 0, 0, 18432.0, 0, 750.0),
                // het job 1853: three records (1853+0..2), one job
                new Expected("torchx", 14, 4, 8, 1, 1, 1, 0, 1, 0, 0, 0, 0, 6),
                new Expected("reportseff/conftest", 32, 10, 22, 5, 2, 3, 0, 0, 0, 219005.9453, 0, 4448.7422),
                new Expected("reportseff/console-jobs", 12, 4, 8, 3, 0, 0, 1, 0, 0, 22.8678, 0, 36.1562),
                new Expected("reportseff/console-jobs-timelimit", 10, 4, 6, 1, 2, 1, 0, 0, 0, 1.4883, 0, 114.2812));
    }

    static String text(String export) throws IOException {
        return Files.readString(PEERS.resolve(export).resolve("sacct.psv"), StandardCharsets.UTF_8);
    }

    static List<JobRecord> read(String text, long[] malformed) {
        SacctReader r = SacctReader.open(new StringReader(text));
        List<JobRecord> out = new ArrayList<>();
        r.forEachRemaining(out::add);
        malformed[0] = r.malformedRows();
        return out;
    }

    static List<JobRecord> read(String export) throws IOException {
        return read(text(export), new long[1]);
    }

    static JobRecord job(String export, String id) throws IOException {
        return read(export).stream().filter(j -> j.id().toString().equals(id)).findFirst().orElseThrow();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exports")
    void everyRowIsAJobAStepOfOneOrRejectedAndTheTotalsAreTheHandCount(Expected e) throws IOException {
        String text = text(e.export());
        List<String> rows = text.lines().skip(1).filter(l -> !l.isBlank()).toList();
        long[] malformed = new long[1];
        List<JobRecord> jobs = read(text, malformed);
        assertThat(rows).hasSize(e.rows());
        assertThat(malformed[0]).as("rejected rows").isZero();
        assertThat(jobs).hasSize(e.records());
        // each step row belongs to a job the reader returned (the one before it): folded, not lost
        Set<String> ids = jobs.stream().map(j -> j.id().toString()).collect(Collectors.toSet());
        List<String> steps = rows.stream().map(l -> l.split("\\|", -1)[column(text, "JobID")])
                .filter(id -> id.contains(".")).toList();
        assertThat(steps).hasSize(e.steps());
        assertThat(steps).allSatisfy(s -> assertThat(ids).contains(s.substring(0, s.indexOf('.'))));

        FleetStats stats = FleetStats.builder().build();
        jobs.forEach(j -> stats.add(j, null));
        FleetReport.Breakdown t = stats.report().total();
        assertThat(t.jobs()).isEqualTo(e.jobs());
        assertThat(new long[] {t.completed(), t.failed(), t.cancelled(), t.preempted(), t.pending(), t.running(),
                t.unknown()}).containsExactly(e.completed(), e.failed(), e.cancelled(), 0, e.pending(), e.running(),
                e.unknown());
        assertThat(t.usedCpuHours()).isCloseTo(e.cpuHours(), within(1e-3));
        assertThat(t.usedGpuHours()).isCloseTo(e.gpuHours(), within(1e-3));
        double gib = jobs.stream().mapToDouble(j -> j.memoryLimit().map(DataSize::gibibytes).orElse(0.0)).sum();
        assertThat(gib).isCloseTo(e.memoryGib(), within(1e-3));
        assertThat(stats.report().jobsWithoutCpus()).isZero();
    }

    private static int column(String text, String name) {
        List<String> header = List.of(text.lines().findFirst().orElseThrow().split("\\|"));
        return header.indexOf(name);
    }

    @Test
    void jobstatsExportsWithoutJobIdAreRefusedWithTheReason() throws IOException {
        assertThatThrownBy(() -> read("jobstats"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("sacct output has no JobID column; its header was: `JobIDRaw|Start|End")
                .hasMessageContaining("expected the output of sacct -P --format=JobID,...");
    }

    @Test
    void reqMemSince2108IsTheWholeJobsMemoryNotPerNode() throws IOException {
        // 3 nodes, ReqMem=192G, ReqTRES mem=192G: was read as 192G per node, 576G
        JobRecord j = job("hb-jobinfo", "2349564");
        assertThat(j.nodes()).isEqualTo(3);
        assertThat(j.reqMem()).isEqualTo(new MemoryRequest(DataSize.ofGibibytes(192), MemoryRequest.Per.JOB));
        assertThat(j.memoryLimit()).contains(DataSize.ofGibibytes(192));
        // MaxRSS (one task's peak) meets its node's 64G, and people read both figures
        assertThat(j.memoryPerNode()).contains(DataSize.ofGibibytes(64));
        assertThat(j.memoryLimitText()).contains("64G per node, 192G in all");
        assertThat(io.slurmwise.classify.JobFacts.of(j).memoryLimit()).isEqualTo(DataSize.ofGibibytes(64));
        // no TRES at all: 312.50G on 4 nodes (NNodes) is still the total
        JobRecord multi = job("reportseff/conftest", "8205048");
        assertThat(multi.nodes()).isEqualTo(4);
        assertThat(multi.memoryLimit()).contains(DataSize.ofGibibytes(312.5));
        assertThat(multi.reqMem().perNode(multi.cpus(), 0, multi.nodes())).isEqualTo(DataSize.ofGibibytes(78.125));
    }

    @Test
    void aPendingJobHasTheGpusItAsksForAndARunJobTheGpusItWasGiven() throws IOException {
        // hb-jobinfo's pending 8323312: AllocTRES empty, ReqTRES billing=1,cpu=1,gres/gpu=1 (was 0 GPUs, a CPU job)
        JobRecord pending = job("hb-jobinfo", "8323312");
        assertThat(pending.state()).isEqualTo(JobState.PENDING);
        assertThat(pending.allocTres().values()).isEmpty();
        assertThat(pending.gpus()).isEqualTo(1);
        assertThat(pending.cpus()).isEqualTo(1);
        // a job that was allocated counts what AllocTRES gave, never what it asked for
        JobRecord ran = SacctReader.stream(new java.io.StringReader("""
                JobID|State|AllocTRES|ReqTRES
                7|COMPLETED|billing=4,cpu=4,node=1|billing=4,cpu=4,gres/gpu:a100=2,node=1
                8|PENDING||billing=4,cpu=4,gres/gpu:a100=2,node=1
                """)).filter(j -> j.id().toString().equals("7")).findFirst().orElseThrow();
        assertThat(ran.gpus()).isZero();
        assertThat(ran.gpuModel()).isEmpty();
        JobRecord typed = SacctReader.stream(new java.io.StringReader("""
                JobID|State|AllocTRES|ReqTRES
                8|PENDING||billing=4,cpu=4,gres/gpu:a100=2,node=1
                """)).findFirst().orElseThrow();
        assertThat(typed.gpus()).isEqualTo(2);
        assertThat(typed.gpuModel()).contains("a100");
    }

    @Test
    void legacyPerNodeAndPerCpuSuffixesMultiplyByTheNodesAndCpusSacctGives() throws IOException {
        // 191846Mn on NNodes=20, no TRES: 20 x 191846M (was 191846M: the node count came from TRES only)
        JobRecord perNode = job("reportseff/conftest", "6196869");
        assertThat(perNode.memoryLimit()).contains(DataSize.ofMebibytes(20L * 191846));
        // 3000Mc with NCPUS=256, no AllocCPUS, no TRES: 256 x 3000M (was 3000M and 0 CPUs)
        JobRecord perCpu = job("xdmod/accounting-logs-with-job-arrays", "4103947_100");
        assertThat(perCpu.cpus()).isEqualTo(256);
        assertThat(perCpu.memoryLimit()).contains(DataSize.ofMebibytes(256L * 3000));
        // with TRES, its mem= wins (always the job's total since SLURM 15.08)
        JobRecord green = job("greenalgorithms4hpc", "556141");
        assertThat(green.reqMem().per()).isEqualTo(MemoryRequest.Per.CPU);
        assertThat(green.memoryLimit()).contains(DataSize.ofMebibytes(6760));
    }

    @Test
    void ncpusGivesTheCpusWhenAllocCpusAndTresAreAbsentAndOnlyNothingIsWarned() throws IOException {
        FleetStats arrays = FleetStats.builder().build();
        read("xdmod/accounting-logs-with-job-arrays").forEach(j -> arrays.add(j, null));
        // 6 tasks x 256 CPUs x 3 days (was 0 CPU-hours)
        assertThat(arrays.report().total().usedCpuHours()).isCloseTo(6 * 256 * 72.0, within(1e-6));
        assertThat(arrays.report().jobsWithoutCpus()).isZero();

        // the same GreenAlgorithms rows with the CPU columns left out: nothing gives a count, so it is said
        String text = text("greenalgorithms4hpc");
        List<String> header = List.of(text.lines().findFirst().orElseThrow().split("\\|"));
        int ncpus = header.indexOf("NCPUS");
        int tres = header.indexOf("AllocTRES");
        String stripped = text.lines().map(l -> {
            List<String> f = new ArrayList<>(List.of(l.split("\\|", -1)));
            f.remove(tres);
            f.remove(ncpus);
            return String.join("|", f);
        }).collect(Collectors.joining("\n"));
        FleetStats none = FleetStats.builder().build();
        read(stripped, new long[1]).forEach(j -> none.add(j, null));
        assertThat(none.report().jobsWithoutCpus()).isEqualTo(2);
        assertThat(none.report().total().usedCpuHours()).isZero();
    }

    @Test
    void aRepeatedJobIdIsOneRunEachInStatsAndTheLastIsTheJob() throws IOException {
        List<JobRecord> jobs = read("reportseff/conftest");
        List<JobRecord> runs = jobs.stream().filter(j -> j.id().toString().equals("8189521")).toList();
        assertThat(runs).hasSize(2);
        assertThat(new HashSet<>(jobs.stream().map(JobRecord::id).toList())).hasSize(9);
        // stats: each record used its allocation (sacct -D lists a requeued job's runs one by one)
        FleetStats stats = FleetStats.builder().build();
        jobs.forEach(j -> stats.add(j, null));
        assertThat(stats.report().total().jobs()).isEqualTo(10);
        // a lookup: the last record is the job, the earlier runs beside it
        JobLookup found = JobLookup.of(JobId.parse("8189521"), runs, UnaryOperator.identity());
        assertThat(found).isInstanceOf(JobLookup.Found.class);
        assertThat(((JobLookup.Found) found).job()).isSameAs(runs.get(1));
        assertThat(((JobLookup.Found) found).earlierRuns()).containsExactly(runs.get(0));
    }

    @Test
    void arrayTaskIdsAboveTwoToThe31AreLongs() throws IOException {
        // 4294967294 is SLURM's NO_VAL for a task id (jobstats' ARRAY_TASK_ID_SENTINEL, reportseff's arrayTaskId): no
        // task SLURM can have, so no id a user may ask for (JobId.parse says the limit)
        assertThat(JobId.tryParse("5908801_4294967294")).isEmpty();
        JobId id = new JobId(5908801, 4_294_967_294L, null, null, null);
        assertThat(id.arrayTaskId()).contains(4_294_967_294L);
        assertThat(id.toString()).isEqualTo("5908801_4294967294");
        // hb-jobinfo's task 5908801_3 with that task id: the export still reads, every job of it
        String text = text("hb-jobinfo").replace("5908801_3|", "5908801_4294967294|");
        List<JobRecord> jobs = read(text, new long[1]);
        assertThat(jobs).hasSize(100);
        assertThat(jobs).anySatisfy(j -> assertThat(j.id().arrayTask()).isEqualTo(4_294_967_294L));
    }

    @Test
    void aHetJobLeaderIdGivesTheHetJobWithItsComponents() throws IOException {
        List<JobRecord> records = read("torchx").stream().filter(j -> j.id().jobId() == 1853).toList();
        JobLookup whole = JobLookup.of(JobId.parse("1853"), records, UnaryOperator.identity());
        assertThat(whole).isInstanceOf(JobLookup.Array.class);
        JobLookup.Array het = (JobLookup.Array) whole;
        assertThat(het.heterogeneous()).isTrue();
        assertThat(het.tasks()).extracting(j -> j.id().toString()).containsExactly("1853+0", "1853+1", "1853+2");
        JobLookup one = JobLookup.of(JobId.parse("1853+1"), records, UnaryOperator.identity());
        assertThat(one).isInstanceOf(JobLookup.Found.class);
        assertThat(((JobLookup.Found) one).job().name()).isEqualTo("echo-1");
    }

    @Test
    void jsonTimesKeepTheirSeconds() throws IOException {
        JobRecord j = job("hb-jobinfo", "7946767");
        assertThat(Views.job(j)).containsEntry("end", "2024-04-05T11:42:00")
                .containsEntry("start", "2024-04-05T00:18:37");
    }
}
