package io.slurmwise.backend.mock;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.Backends;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.config.Settings;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MockClusterTest {

    static final MockBackend MOCK = MockBackend.bundled();

    /** The intended kind of every job, from the job table of the fixtures' README (the data's own label). */
    static Map<String, String> intendedKinds() throws IOException {
        Map<String, String> kinds = new LinkedHashMap<>();
        try (InputStream in = MockBackend.class.getClassLoader().getResourceAsStream(MockBackend.BUNDLED + "/README.md")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String[] f = line.split("\\|");
                if (f.length > 9 && f[1].strip().matches("\\d+(_\\d+)?")) {
                    String kind = f[8].strip().split("[\\s(]", 2)[0];
                    kinds.put(f[1].strip(), kind);
                }
            }
        }
        return kinds;
    }

    @Test
    void theBundledClusterHasTheJobsTheReadmePromises() throws IOException {
        assertThat(MOCK.jobs(JobQuery.window(null, null)).count()).isGreaterThanOrEqualTo(50);
        Set<String> partitions = MOCK.jobs(JobQuery.window(null, null)).map(JobRecord::partition).collect(Collectors.toSet());
        assertThat(partitions).contains("gpuA100x4").hasSizeGreaterThanOrEqualTo(3);
        assertThat(intendedKinds()).hasSizeGreaterThanOrEqualTo(50);
        JobRecord oom = MOCK.job(JobId.parse("1001")).orElseThrow();
        assertThat(oom.name()).isEqualTo("train_llama_sft");
        assertThat(oom.state()).isEqualTo(JobState.OUT_OF_MEMORY);
        assertThat(oom.exitCode()).isEqualTo(ExitCode.parse("0:125"));
        assertThat(oom.elapsed()).isEqualTo(Duration.ofMinutes(41).plusSeconds(12));
        assertThat(oom.maxRss().toString()).isEqualTo("31.8G");
        assertThat(oom.memoryLimit()).contains(new DataSize(32 * DataSize.GIB));
        JobRecord timeout = MOCK.job(JobId.parse("22542799")).orElseThrow();
        assertThat(timeout.elapsed()).isEqualTo(Duration.ofHours(12).plusSeconds(3));
        assertThat(MOCK.partitions()).extracting(p -> p.name()).contains("gpuA100x4");
    }

    @Test
    void everyJobIsDiagnosedAsItsIntendedKind() throws IOException {
        List<String> wrong = new ArrayList<>();
        Map<String, Integer> perKind = new LinkedHashMap<>();
        try (Slurmwise sw = Slurmwise.builder().backend(MOCK).build()) {
            for (Map.Entry<String, String> e : intendedKinds().entrySet()) {
                Diagnosis d = sw.diagnose(e.getKey());
                String got;
                if (d instanceof Diagnosis.Failed f) {
                    got = f.finding().kindId();
                } else if (d instanceof Diagnosis.StatusOnly so && so.pending() != null && so.pending().finding() != null) {
                    got = so.pending().finding().kindId();
                } else {
                    got = "none";
                }
                String want = e.getValue();
                boolean ok = want.equals("none") || want.equals("running") ? got.equals("none") || got.equals("unknown")
                        : sw.taxonomy().isA(got, want);
                if (!ok) {
                    wrong.add(e.getKey() + ": want " + want + ", got " + got);
                }
                perKind.merge(want, 1, Integer::sum);
            }
        }
        assertThat(wrong).isEmpty();
        for (String k : List.of("oom", "cuda_oom", "cuda_error", "time_limit", "nccl", "import_error", "module_load",
                "disk_quota", "permission", "file_not_found", "segfault", "qos_limit", "allocation_exhausted",
                "dependency", "resources_unavailable", "node_fail", "preempted", "cancelled")) {
            assertThat(perKind.getOrDefault(k, 0)).as("mock jobs of kind " + k).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void replayMovesTheWindowToNow() {
        LocalDateTime newest = MOCK.jobs(JobQuery.window(null, null))
                .flatMap(j -> java.util.stream.Stream.of(j.submit(), j.start(), j.end()))
                .filter(java.util.Objects::nonNull).max(LocalDateTime::compareTo).orElseThrow();
        assertThat(Duration.between(newest, LocalDateTime.now()).toMinutes()).isBetween(0L, 30L);
        LocalDateTime now = LocalDateTime.now();
        long inWindow = MOCK.jobs(JobQuery.window(now.minusDays(30), now)).count();
        assertThat(inWindow).isGreaterThanOrEqualTo(50);
        assertThat(MOCK.jobs(JobQuery.window(now.minusDays(30), now).withStates(Set.of(JobState.TIMEOUT)))
                .allMatch(j -> j.state() == JobState.TIMEOUT)).isTrue();
    }

    /**
     * The reservations move with the records: the maintenance window recorded after the newest job lies ahead of now,
     * as 1052's pending reason says; the course is no maintenance. 1052's answer names the window.
     */
    @Test
    void reservationsMoveWithTheRecords() {
        LocalDateTime now = LocalDateTime.now();
        List<io.slurmwise.job.Reservation> rs = MOCK.reservations();
        assertThat(rs).extracting(io.slurmwise.job.Reservation::name).containsExactly("maint_long", "chen_course");
        assertThat(rs.get(0).maintenance()).isTrue();
        assertThat(rs.get(0).start()).isAfter(now).isBefore(now.plusDays(1));
        try (io.slurmwise.Slurmwise sw = io.slurmwise.Slurmwise.builder().backend(MockBackend.bundled()).build()) {
            io.slurmwise.diagnose.Diagnosis.StatusOnly d = (io.slurmwise.diagnose.Diagnosis.StatusOnly) sw.diagnose("1052");
            assertThat(d.pending().notices()).singleElement().asString()
                    .startsWith("maintenance reservation maint_long (cn[097-124]) from ")
                    .contains("or now with `#SBATCH --time=` at most ");
        }
    }

    @Test
    void logsAndScriptsComeFromTheFixtures() {
        JobRecord oom = MOCK.job(JobId.parse("1001")).orElseThrow();
        LogTail err = MOCK.logTail(oom, LogStream.STDERR, 300);
        assertThat(err.problem()).isNull();
        assertThat(new String(err.content(), StandardCharsets.UTF_8)).contains("Detected 1 oom-kill event(s) in StepId=1001.batch");
        assertThat(err.path()).isEqualTo(oom.stderrPath());
        assertThat(MOCK.batchScript(oom)).hasValueSatisfying(s -> assertThat(s).contains("#SBATCH --mem=32G"));
        assertThat(MOCK.batchScript(MOCK.job(JobId.parse("4242_3")).orElseThrow())).isPresent();
        assertThat(MOCK.batchScript(MOCK.job(JobId.parse("1004")).orElseThrow())).isEmpty();
    }

    @Test
    void statusOnlyForRunningPendingAndCompletedJobs() {
        try (Slurmwise sw = Slurmwise.builder().backend(MOCK).build()) {
            assertThat(sw.diagnose("1002")).isInstanceOfSatisfying(Diagnosis.StatusOnly.class,
                    so -> assertThat(so.summary()).contains("COMPLETED"));
            assertThat(sw.diagnose("1051")).isInstanceOfSatisfying(Diagnosis.StatusOnly.class,
                    so -> assertThat(so.summary()).contains("RUNNING"));
            assertThat(sw.diagnose("999999")).isInstanceOf(Diagnosis.NotFound.class);
            assertThat(sw.diagnose("4242")).isInstanceOfSatisfying(Diagnosis.Failed.class, f -> {
                assertThat(f.job().id().toString()).isEqualTo("4242_3");
                assertThat(f.notices()).anyMatch(n -> n.contains("array job 4242 has 5 tasks") && n.contains("1 FAILED"));
            });
        }
    }

    @Test
    void usersReplayTheirOwnExportFromAFolder(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("sacct.psv"), "JobID|JobName|State|ExitCode|StdErr\n77|mine|FAILED|1:0|/x/77.err\n");
        Files.createDirectories(dir.resolve("logs"));
        Files.writeString(dir.resolve("logs/77.err"), "PermissionError: [Errno 13] Permission denied: '/project/shared/out.h5'\n");
        Settings s = Settings.from(Map.of("SLURMWISE_BACKEND", "mock", "SLURMWISE_MOCK_DIR", dir.toString()));
        try (Slurmwise sw = Slurmwise.builder(s).backend(Backends.select(s).backend()).build()) {
            Diagnosis d = sw.diagnose("77");
            assertThat(d).isInstanceOfSatisfying(Diagnosis.Failed.class, f -> {
                assertThat(f.finding().kindId()).isEqualTo("permission");
                assertThat(f.notices()).anyMatch(n -> n.startsWith("stdout:"));
            });
        }
    }

    @Test
    void aFolderWithoutAnExportIsRefusedWithWhatToDo(@TempDir Path dir) {
        Settings s = Settings.from(Map.of("SLURMWISE_BACKEND", "mock", "SLURMWISE_MOCK_DIR", dir.toString()));
        assertThatThrownBy(() -> Backends.select(s)).hasMessageContaining("has no sacct.psv").hasMessageContaining("sacct -P");
    }

    @Test
    void autoPicksMockWhenSacctIsMissingAndSaysSo(@TempDir Path emptyBin) {
        // a PATH without sacct, stated explicitly: the machine running the tests may well have SLURM
        Backends.Selection sel = Backends.select(Settings.from(Map.of("PATH", emptyBin.toString())));
        assertThat(sel.backend().name()).isEqualTo("mock");
        assertThat(sel.reason()).contains("auto");
    }

    /**
     * The replay moves the logs' timestamps with the records' (an outside audit read 1033's "CANCELLED AT
     * 2026-11-16T03:52:11" beside an End a week later): the line says the record's End, at the same line.
     */
    @Test
    void replayedLogsKeepTheirRecordsTime() {
        MockBackend b = MockBackend.bundled();
        JobRecord j = b.job(JobId.parse("1033")).orElseThrow();
        LogTail t = b.logTail(j, LogStream.STDERR, 300);
        String text = new String(t.content(), StandardCharsets.UTF_8);
        String end = j.end().format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss"));
        assertThat(text).contains("CANCELLED AT " + end + " DUE TO PREEMPTION");
        assertThat(text.lines().filter(l -> l.contains("DUE TO PREEMPTION")).count()).isEqualTo(1);
    }
}
