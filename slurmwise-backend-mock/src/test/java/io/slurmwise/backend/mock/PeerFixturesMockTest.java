package io.slurmwise.backend.mock;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.Backends;
import io.slurmwise.backend.JobLookup;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.config.Settings;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Peers' real sacct fixtures (slurmwise-core/src/test/resources/peers, sources in its README) replayed by the mock:
 * a het job's leader id and a repeated JobID are looked up as the real backend looks them up (one
 * {@link JobLookup#of} for both).
 */
class PeerFixturesMockTest {

    static final Path PEERS = Path.of("..", "slurmwise-core", "src", "test", "resources", "peers");
    static final JobQuery ALL = JobQuery.window(LocalDateTime.of(2000, 1, 1, 0, 0), LocalDateTime.of(2100, 1, 1, 0, 0));

    @Test
    void aHetJobLeaderIdGivesItsComponentsAndAComponentIdGivesItself() {
        MockBackend torchx = MockBackend.fromFolder(PEERS.resolve("torchx"));
        // torchx's 1853+0, 1853+1, 1853+2: "1853" was "not known" to the mock
        JobLookup whole = torchx.lookup(JobId.parse("1853"));
        assertThat(whole).isInstanceOfSatisfying(JobLookup.Array.class, a -> {
            assertThat(a.heterogeneous()).isTrue();
            assertThat(a.tasks()).extracting(j -> j.id().toString()).containsExactly("1853+0", "1853+1", "1853+2");
        });
        assertThat(torchx.lookup(JobId.parse("1853+2"))).isInstanceOfSatisfying(JobLookup.Found.class,
                f -> assertThat(f.job().name()).isEqualTo("echo-2"));
        assertThat(torchx.lookup(JobId.parse("1853+1.0"))).isInstanceOfSatisfying(JobLookup.Found.class,
                f -> assertThat(f.job().id().toString()).isEqualTo("1853+1"));
        // a plain job next to it stays a plain job
        assertThat(torchx.lookup(JobId.parse("1902"))).isInstanceOf(JobLookup.Found.class);
    }

    @Test
    void diagnosingAHetJobLeaderSaysItIsOneAndShowsAComponent() {
        Settings s = Settings.from(Map.of("SLURMWISE_BACKEND", "mock", "SLURMWISE_MOCK_DIR",
                PEERS.resolve("torchx").toString()));
        try (Slurmwise sw = Slurmwise.builder(s).backend(Backends.select(s).backend()).build()) {
            Diagnosis d = sw.diagnose("1853");
            assertThat(d).isInstanceOfSatisfying(Diagnosis.StatusOnly.class, so -> {
                assertThat(so.job().id().toString()).isEqualTo("1853+0");
                assertThat(so.summary()).startsWith("heterogeneous job 1853 has 3 components (3 COMPLETED); showing"
                        + " component 1853+0");
            });
        }
    }

    @Test
    void aRepeatedJobIdIsEachRunInTheWindowAndTheLastRecordInALookup() {
        MockBackend reportseff = MockBackend.fromFolder(PEERS.resolve("reportseff").resolve("conftest"));
        // reportseff's fixtures hold job 8189521 twice: it collapsed silently to the last
        assertThat(reportseff.repeatedRecords()).isEqualTo(1);
        assertThat(reportseff.describe()).contains("1 record repeats a JobID");
        List<JobRecord> runs = reportseff.jobs(ALL).filter(j -> j.id().toString().equals("8189521")).toList();
        assertThat(runs).hasSize(2);
        assertThat(reportseff.jobs(ALL).count()).isEqualTo(10);
        assertThat(reportseff.lookup(JobId.parse("8189521"))).isInstanceOfSatisfying(JobLookup.Found.class, f -> {
            assertThat(f.job()).as("the mock replays its file per query: an equal record, not the same object").isEqualTo(runs.get(1));
            assertThat(f.earlierRuns()).containsExactly(runs.get(0));
        });
    }
}
