package io.slurmwise.classify;

import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobState;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job's record pasted into the text (a thread's {@code sacct -j ID} or {@code scontrol show job ID} beside the error)
 * is read as the record when there is none: its exit code says what the record's would, with the pasted line as the
 * evidence.
 */
class PastedRecordTest {

    private static final String SACCT = """
            $ sacct -j 4551234
                   JobID    JobName  Partition    Account  AllocCPUS      State ExitCode\s
            ------------ ---------- ---------- ---------- ---------- ---------- --------\s
            4551234           train        cpu    lab-acc          8     FAILED      0:9\s
            4551234.bat+      batch               lab-acc          8     FAILED      0:9\s
            4551234.ext+     extern               lab-acc          8  COMPLETED      0:0\s
            """;

    private static Optional<ExitCode> exit(String text) {
        return PastedRecord.find(text.getBytes(StandardCharsets.UTF_8)).map(PastedRecord::exitCode);
    }

    private static Finding classify(String log) {
        return ClassifierTest.CLASSIFIER.classifyText(JobFacts.NONE, log);
    }

    @Test
    void sacctsTableGivesTheJobRowsStatus() {
        Optional<PastedRecord> p = PastedRecord.find(SACCT.getBytes(StandardCharsets.UTF_8));
        assertThat(p).isPresent();
        assertThat(p.get().exitCode()).isEqualTo(ExitCode.parse("0:9"));
        assertThat(p.get().line()).isEqualTo(3);
        assertThat(p.get().text()).startsWith("4551234           train");
        // the same, its job row's status told apart from its steps'
        assertThat(exit(SACCT.replace("FAILED      0:9\s\n4551234.bat", "FAILED    137:0\s\n4551234.bat")))
                .hasValue(ExitCode.parse("137:0"));
    }

    @Test
    void aTableThatLostItsAlignmentIsReadByItsWords() {
        assertThat(exit("""
                JobID    JobName  Partition  State  ExitCode
                ------------ ---------- ---------- ---------- --------
                9911  myjob  short  FAILED  0:53
                9911.batch  batch  short  FAILED  0:53
                """)).hasValue(ExitCode.parse("0:53"));
    }

    @Test
    void parsableOutputIsReadByItsBars() {
        assertThat(exit("""
                JobID|JobName|State|ExitCode|MaxRSS|ReqMem
                123|job|FAILED|137:0||16G
                123.batch|batch|FAILED|137:0|16001234K|
                """)).hasValue(ExitCode.parse("137:0"));
    }

    @Test
    void scontrolsBlockGivesItsExitCodeNotTheDerivedOne() {
        assertThat(exit("""
                JobId=987655 JobName=run.sh
                   JobState=FAILED Reason=NonZeroExitCode Dependency=(null)
                   Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:9
                   DerivedExitCode=1:0
                   RunTime=00:10:12 TimeLimit=1-00:00:00 TimeMin=N/A
                """)).hasValue(ExitCode.parse("0:9"));
        assertThat(exit("   DerivedExitCode=139:0\n")).isEmpty();
    }

    @Test
    void noRecordOfOneJobIsNoRecord() {
        // several jobs: which is this log's is not said
        assertThat(exit("""
                JobID|State|ExitCode
                239023|FAILED|0:9
                239023.batch|FAILED|0:9
                239024|FAILED|1:0
                """)).isEmpty();
        // an ExitCode= outside any scontrol block (a program's own words)
        assertThat(exit("worker 3 finished: ExitCode=0:9 after retry\n")).isEmpty();
        // a header with nothing under it, or a table cut before its job row
        assertThat(exit("JobID|State|ExitCode\n")).isEmpty();
        assertThat(exit("JobID|State|ExitCode\n123.batch|FAILED|0:9\n")).isEmpty();
        assertThat(exit("no record here\n")).isEmpty();
    }

    /** Its line is the log's line: a progress bar's \r before it, or CRLF line ends, do not move it. */
    @Test
    void theEvidenceLineIsCountedAsTheLogCountsLines() {
        String bar = "epoch 1:  10%\repoch 1:  50%\repoch 1: 100%\n";
        Optional<PastedRecord> p = PastedRecord.find((bar + SACCT).getBytes(StandardCharsets.UTF_8));
        assertThat(p.map(PastedRecord::line)).hasValue(4);
        Optional<PastedRecord> crlf = PastedRecord.find(SACCT.replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8));
        assertThat(crlf.map(PastedRecord::exitCode)).hasValue(ExitCode.parse("0:9"));
        assertThat(crlf.map(PastedRecord::line)).hasValue(3);
    }

    @Test
    void aTableCopiedFromAWebPageReadsThroughItsNoBreakSpaces() {
        assertThat(exit(SACCT.replace("FAILED      0:9\s\n4551234.bat", "FAILED\u00a0\u00a0\u00a0\u00a0\u00a0\u00a00:9\s\n4551234.bat")))
                .hasValue(ExitCode.parse("0:9"));
    }

    @Test
    void thePastedStatusWeighsAsTheRecordsWithItsLineAsEvidence() {
        Finding pasted = classify(SACCT);
        Finding record = ClassifierTest.CLASSIFIER.classifyText(JobFacts.NONE.withExitCode(ExitCode.parse("0:9")), "");
        assertThat(pasted.kindId()).isEqualTo(record.kindId()).isEqualTo("oom");
        assertThat(pasted.confidence()).isEqualTo(record.confidence());
        Evidence e = pasted.evidence().get(0);
        assertThat(e.isLogLine()).isTrue();
        assertThat(e.line()).isEqualTo(4);
        assertThat(e.text()).startsWith("4551234           train").endsWith("[pasted record: ExitCode=0:9 (signal 9)]");
        // slurmd's launch error, pasted: the record's reading of 0:53
        assertThat(classify(SACCT.replace("0:9", "0:53")).kindId()).isEqualTo("file_not_found");
    }

    @Test
    void theRecordsOwnExitCodeAndTheLogsWordsComeFirst() {
        // with a record, the paste is not read (it may be another job's)
        Finding withRecord = ClassifierTest.CLASSIFIER.classifyText(JobFacts.NONE.withState(JobState.FAILED)
                .withExitCode(ExitCode.parse("1:0")), SACCT);
        assertThat(withRecord.kindId()).isEqualTo("unknown");
        // the log's own cause outranks the pasted status, as it outranks the record's
        assertThat(classify(SACCT + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n").kindId())
                .isEqualTo("cuda_oom");
    }

    @Test
    void cutAndGarbledPastesNeverThrow() {
        String[] seeds = {SACCT, "JobID|JobName|State|ExitCode\n1|a|FAILED|137:0\n1.batch|b|FAILED|137:0\n",
                "JobId=9 JobName=x\n   JobState=FAILED Reason=NonZeroExitCode\n   ExitCode=0:9\n"};
        java.util.Random r = new java.util.Random(42);
        String noise = "|-: \n\t.+0123456789ExitCodeJobID\u00a0\u2019x";
        for (int n = 0; n < 20_000; n++) {
            StringBuilder b = new StringBuilder(seeds[r.nextInt(seeds.length)]);
            for (int k = r.nextInt(6); k >= 0 && b.length() > 0; k--) {
                int at = r.nextInt(b.length());
                switch (r.nextInt(3)) {
                    case 0 -> b.setCharAt(at, noise.charAt(r.nextInt(noise.length())));
                    case 1 -> b.delete(at, Math.min(b.length(), at + r.nextInt(12)));
                    default -> b.insert(at, noise.charAt(r.nextInt(noise.length())));
                }
            }
            String text = b.toString();
            Optional<PastedRecord> p = PastedRecord.find(text.getBytes(StandardCharsets.UTF_8));
            p.ifPresent(x -> assertThat(x.line()).as(text).isBetween(0, (int) text.lines().count() + 1));
        }
    }
}
