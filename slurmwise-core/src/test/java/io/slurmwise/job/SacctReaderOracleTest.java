package io.slurmwise.job;

import io.slurmwise.testing.Captures;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The byte-level reader gives the very records the string-splitting reader it replaced gave, on the mock
 * cluster, on every real sacct capture, and on rows mangled at random (odd widths, blanks, other units).
 */
class SacctReaderOracleTest {

    static List<JobRecord> both(String text, List<Long> malformed) {
        List<JobRecord> legacy;
        LegacySacctReader old = LegacySacctReader.open(new StringReader(text));
        try (Stream<JobRecord> s = LegacySacctReader.toStream(old)) {
            legacy = s.toList();
        }
        SacctReader fromChars = SacctReader.open(new StringReader(text));
        List<JobRecord> chars = new ArrayList<>();
        fromChars.forEachRemaining(chars::add);
        SacctReader fromBytes = SacctReader.open(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        List<JobRecord> bytes = new ArrayList<>();
        fromBytes.forEachRemaining(bytes::add);
        assertThat(chars).isEqualTo(legacy);
        assertThat(bytes).isEqualTo(legacy);
        assertThat(fromBytes.malformedRows()).isEqualTo(old.malformedRows());
        malformed.add(old.malformedRows());
        return legacy;
    }

    @Test
    void theMockClusterReadsTheSame() throws IOException {
        String text = Files.readString(Path.of("..", "slurmwise-backend-mock", "src", "main", "resources", "io",
                "slurmwise", "mock", "cluster", "sacct.psv"));
        assertThat(both(text, new ArrayList<>())).hasSizeGreaterThan(60);
    }

    @Test
    void everyRealCaptureReadsTheSame() {
        int blocks = 0;
        for (String mode : List.of("cgroup", "linuxproc")) {
            for (String f : List.of("sacct_steps.txt", "sacct_pending_cancelled.txt", "sacct_pending.txt",
                    "sacct_while_running.txt", "sacct_long.txt", "sacct_requested_format.txt", "sacct_all_fields.txt",
                    "sacct_allocations.txt", "sacct_as_user.txt", "sacct_default_window.txt")) {
                for (String out : Captures.outputs(mode + "/" + f)) {
                    if (out.isBlank() || !out.startsWith("JobID")) {
                        continue;
                    }
                    both(out, new ArrayList<>());
                    blocks++;
                }
            }
        }
        assertThat(blocks).isGreaterThan(10);
    }

    @Test
    void mangledRowsReadTheSame() throws IOException {
        String text = Files.readString(Path.of("..", "slurmwise-backend-mock", "src", "main", "resources", "io",
                "slurmwise", "mock", "cluster", "sacct.psv"));
        String[] lines = text.split("\n");
        String[] pieces = {"", " ", "|", "x", "1-02:03:04", "61:00", "12.5G", "3P", "0", "-1", "00:00.5", "2026-02-30T10:00:00",
                "2026-11-01T10:00", "4242_[1-3]", "46+1", "Unknown", "CANCELLED by 0", "99999999999", "1e3K", "\u00e9t\u00e9"};
        Random r = new Random(15);
        List<Long> malformed = new ArrayList<>();
        for (int round = 0; round < 120; round++) {
            StringBuilder sb = new StringBuilder(lines[0]).append('\n');
            for (int i = 1; i < lines.length; i++) {
                String[] f = lines[i].split("\\|", -1);
                if (r.nextInt(4) == 0) {
                    f[r.nextInt(f.length)] = pieces[r.nextInt(pieces.length)];
                }
                sb.append(String.join("|", f)).append(r.nextInt(20) == 0 ? "\r\n" : "\n");
            }
            both(sb.toString(), malformed);
        }
        assertThat(malformed.stream().mapToLong(Long::longValue).sum()).as("some rows were malformed").isPositive();
    }
}
