package io.slurmwise.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

import io.slurmwise.testing.Fuzz;
import io.slurmwise.testing.Hostile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the sacct reader with exports of valid structure (a header of sacct's fields in any order, allocation rows
 * and their .batch/.extern/.0 steps) whose values are valid, odd (what peers' users reported: {@code ReqMem=0n},
 * empty Elapsed, TotalCPU above Elapsed, {@code Unknown}, {@code None}, {@code 4000Mc}, {@code 16?}, array and het
 * ids, cut states) or hostile, and rows cut short or padded. The reader yields records (counting rows it cannot
 * read) or, for a header without JobID, its one IllegalArgumentException; never anything else.
 */
@Tag("fuzz")
class SacctReaderFuzzTest {

    /** Valid and odd values per field, as real exports hold them. */
    private static final Map<String, String[]> VALUES = Map.ofEntries(
            Map.entry("JobID", new String[] {"123", "123_4", "123_[1-5%2]", "123+1", "123+0", "4294967296_1",
                    "123_2147483648", "9999999999", "123_[1,3]"}),
            Map.entry("JobName", new String[] {"train", "prep|v2", "a b", "", "batch", "extern"}),
            Map.entry("User", new String[] {"alice", "", "(null)"}),
            Map.entry("Account", new String[] {"proj", ""}),
            Map.entry("Partition", new String[] {"gpu", "cpu,gpu", ""}),
            Map.entry("QOS", new String[] {"normal", ""}),
            Map.entry("State", new String[] {"FAILED", "CANCELLED+", "CANCELLED by 1000", "OUT_OF_MEMORY", "OUT_OF_ME+",
                    "COMPLETED", "RUNNING", "PENDING", "TIMEOUT", "NODE_FAIL", "PREEMPTED", "REQUEUED", "BOOT_FAIL"}),
            Map.entry("ExitCode", new String[] {"0:0", "1:0", "0:9", "137:0", "0:15", "256:0", ""}),
            Map.entry("DerivedExitCode", new String[] {"0:0", "1:0", ""}),
            Map.entry("Submit", new String[] {"2026-11-12T03:14:07", "Unknown", "None", "2026-02-30T25:61:61",
                    "0000-00-00T00:00:00", "9999-12-31T23:59:59"}),
            Map.entry("Start", new String[] {"2026-11-12T03:15:07", "Unknown", "None", ""}),
            Map.entry("End", new String[] {"2026-11-12T04:15:07", "Unknown", "None", ""}),
            Map.entry("Elapsed", new String[] {"01:00:00", "", "00:00:00", "1-00:00:00", "999999-23:59:59", "41:12"}),
            Map.entry("Timelimit", new String[] {"02:00:00", "UNLIMITED", "Partition_Limit", "INVALID", "5-00", ""}),
            Map.entry("ReqMem", new String[] {"4000Mc", "4000Mn", "32G", "0n", "16?", "1.5T", "0", "", "9223372036854775807Mc"}),
            Map.entry("MaxRSS", new String[] {"2045K", "3G", "0", "", "1234567", "99999999999999999999K"}),
            Map.entry("AllocCPUS", new String[] {"16", "0", "", "2147483648", "-1"}),
            Map.entry("AllocTRES", new String[] {"cpu=16,mem=64G,node=1,billing=16,gres/gpu=1", "gres/gpu:a100=2,gres/gpu:v100=3",
                    "", "cpu=,mem", "node=2147483647"}),
            Map.entry("NodeList", new String[] {"node[01-04]", "None assigned", ""}),
            Map.entry("TotalCPU", new String[] {"00:00.417", "02:00:00", "99-00:00:00", "", "12:34.5678"}),
            Map.entry("ConsumedEnergyRaw", new String[] {"0", "123456", "18446744073709551615", "", "-5"}),
            Map.entry("WorkDir", new String[] {"/home/a", "", "/tmp/a b"}),
            Map.entry("StdOut", new String[] {"/tmp/%j.out", ""}),
            Map.entry("StdErr", new String[] {"/tmp/%j.err", ""}),
            Map.entry("Reason", new String[] {"None", "Resources", "Dependency", ""}),
            Map.entry("NCPUS", new String[] {"16", ""}),
            Map.entry("NNodes", new String[] {"1", "", "0"}),
            Map.entry("Cluster", new String[] {"lab", ""}),
            Map.entry("SubmitLine", new String[] {"sbatch job.sh", "sbatch --wrap 'a|b'", ""}),
            Map.entry("JobIDRaw", new String[] {"123", "124"}));

    private static final List<String> NAMES = new ArrayList<>(VALUES.keySet());

    @AfterAll
    static void record() {
        Fuzz.record();
    }

    private static final String[] SEPARATORS = {"|", "|", "|", SacctReader.DELIMITER, ",", ";", "\t"};
    private static final String[] STEPS = {"123.batch", "123.extern", "123.0", "123_4.batch", "123+1.0",
            "123.99999999999", "124.batch"};

    static Function<Random, String> exportsGen() {
        return (SacctReaderFuzzTest::export);
    }

    /** A header (sacct's fields, any subset in any order, or a few names repeated), then rows of jobs and steps. */
    static String export(Random r) {
        List<String> fields;
        switch (r.nextInt(3)) {
            case 0 -> fields = SacctReader.FIELDS;
            case 1 -> {
                fields = new ArrayList<>(NAMES);
                Collections.shuffle(fields, r);
                fields = fields.subList(0, r.nextInt(fields.size() + 1));
            }
            default -> {
                fields = new ArrayList<>();
                for (int i = r.nextInt(7); i > 0; i--) {
                    fields.add(NAMES.get(r.nextInt(NAMES.size())));
                }
            }
        }
        String sep = SEPARATORS[r.nextInt(SEPARATORS.length)];
        String eol = r.nextInt(3) == 0 ? "\r\n" : "\n";
        StringBuilder sb = new StringBuilder();
        if (r.nextInt(7) != 0) {
            sb.append(String.join(sep, fields)).append(eol);
        }
        if (fields.isEmpty()) {
            return sb.append(Hostile.pick().apply(r)).toString();
        }
        for (int row = r.nextInt(7); row > 0; row--) {
            List<String> values = new ArrayList<>(fields.size());
            boolean step = r.nextInt(2) == 0;
            for (String f : fields) {
                values.add(f.equals("JobID") && step ? STEPS[r.nextInt(STEPS.length)]
                        : Hostile.pick(VALUES.getOrDefault(f, new String[0])).apply(r));
            }
            switch (r.nextInt(10)) {
                case 0 -> values.remove(values.size() - 1); // cut short
                case 1 -> values.add("extra");
                default -> { }
            }
            sb.append(String.join(sep, values)).append(eol);
        }
        return sb.toString();
    }

    @Test
    void sacctRows() {
        for (String export : Fuzz.inputs(exportsGen())) {
            rows(export);
        }
    }

    private static void rows(String export) {
        Fuzz.rejectsOnlyWith("SacctReader (sacct rows)", IllegalArgumentException.class, export, () -> {
            try (SacctReader r = SacctReader.open(new ByteArrayInputStream(export.getBytes(StandardCharsets.UTF_8)))) {
                r.keep("JobIDRaw", "SubmitLine", "NCPUS");
                while (r.hasNext()) {
                    JobRecord job = r.next();
                    assertThat(job.id()).isNotNull();
                    job.state();
                    assertThat(job.gpus()).isNotNegative();
                    assertThat(job.nodes()).isNotNegative();
                    job.memoryLimit().ifPresent(m -> assertThat(m.bytes()).isNotNegative());
                    job.optElapsed().ifPresent(d -> assertThat(d.isNegative()).isFalse());
                    r.kept();
                }
                assertThat(r.malformedRows()).isNotNegative();
            }
        });
    }

    @Test
    void sacctRowsWithoutHeader() {
        for (String export : Fuzz.inputs(exportsGen())) {
            Fuzz.rejectsOnlyWith("SacctReader (sacct -n rows)", IllegalArgumentException.class, export, () -> {
                try (var jobs = SacctReader.toStream(SacctReader.open(new StringReader(export), SacctReader.FIELDS))) {
                    jobs.forEach(JobRecord::memoryLimit);
                }
            });
        }
    }
}
