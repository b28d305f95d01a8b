package io.slurmwise.backend.mock;

import io.slurmwise.backend.BackendException;
import io.slurmwise.backend.JobLookup;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** SLURMWISE_MOCK_DIR's export is replayed from the file on every query, and rows it cannot read are told. */
class MockReplayTest {

    static final String HEADER = "JobID|JobName|User|State|ExitCode|Submit|Start|End";

    @Test
    void everyQueryReplaysTheFileAndCutRowsAreTold(@TempDir Path dir) throws IOException {
        Path sacct = dir.resolve(MockBackend.SACCT_FILE);
        Files.writeString(sacct, HEADER + "\n"
                + "10|a|alice|FAILED|1:0|2026-11-10T10:00:00|2026-11-10T10:00:01|2026-11-10T10:05:00\n"
                + "11|b|alice|FAIL\n"
                + "12|c|bob|COMPLETED|0:0|2026-11-10T11:00:00|2026-11-10T11:00:01|2026-11-10T11:05:00\n");
        List<String> told = new ArrayList<>();
        MockBackend mock = MockBackend.fromFolder(dir, told::add);
        try (Stream<JobRecord> s = mock.jobs(JobQuery.window(null, null))) {
            assertThat(s.map(j -> j.id().toString())).containsExactly("10", "12");
        }
        assertThat(told).singleElement().asString().contains("has 1 row that slurmwise could not read (line 3: `11|b|alice|FAIL`)")
                .contains("left out");
        // the file is read again, not a copy held since the first query
        Files.writeString(sacct, HEADER + "\n13|d|carol|TIMEOUT|0:0|2026-11-11T10:00:00|2026-11-11T10:00:01|2026-11-11T12:00:01\n");
        try (Stream<JobRecord> s = mock.jobs(JobQuery.window(null, null))) {
            assertThat(s.map(j -> j.id().toString())).containsExactly("13");
        }
        assertThat(mock.lookup(JobId.parse("13"))).isInstanceOf(JobLookup.Found.class);
        assertThat(mock.lookup(JobId.parse("10"))).isInstanceOf(JobLookup.Missing.class);
    }

    @Test
    void aFolderWhoseExportIsNoSacctOutputIsSaidAtOnce(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve(MockBackend.SACCT_FILE), "\u001b[2Jhello\n");
        assertThatThrownBy(() -> MockBackend.fromFolder(dir)).isInstanceOf(BackendException.class)
                .hasMessageContaining("has no JobID column").hasMessageContaining("\\x1b[2Jhello");
    }
}
