package io.slurmwise.classify;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.backend.LogTails;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A log carried in JSON records' strings reads as the log it carries, for every reading ({@link CarriedLog}). */
class CarriedLogTest {

    /** A time limit's cancellation, then the kernel's Killed: the order says the time limit ended the job. */
    private static final String TIME_LIMIT = "epoch 3/10 loss=0.41\n"
            + "slurmstepd: error: *** JOB 4242 ON node12 CANCELLED AT 2024-03-01T10:00:00 DUE TO TIME LIMIT ***\n"
            + "Killed\n";

    private static Finding classify(String log) {
        return ClassifierTest.CLASSIFIER.classifyText(JobFacts.NONE, log);
    }

    private static String unfolded(String text) {
        return new String(CarriedLog.of(text.getBytes(StandardCharsets.UTF_8)).text(), StandardCharsets.UTF_8);
    }

    @Test
    void aWholeLogInOneRecordReadsAsItsLinesInOrderWithEvidenceOnTheRecordsLine() {
        Finding plain = classify(TIME_LIMIT);
        Finding json = classify(TextFormsRobustnessTest.jsonRecord(TIME_LIMIT));
        assertThat(plain.kindId()).isEqualTo("time_limit");
        assertThat(json.kindId()).isEqualTo(plain.kindId());
        Evidence e = json.evidence().get(0);
        // the file has one line: every carried line's evidence names it, with the carried line as its text
        assertThat(e.line()).isEqualTo(1);
        assertThat(e.text()).isEqualTo(plain.evidence().get(0).text()).startsWith("slurmstepd: error: ***");
        assertThat(unfolded(TextFormsRobustnessTest.jsonRecord(TIME_LIMIT))).isEqualTo(TIME_LIMIT);
    }

    @Test
    void aRecordPerLineReadsAsTheLogWithEachLinesOwnNumber() {
        String docker = TextFormsTest.eachLine(TIME_LIMIT, l -> "{\"log\":\"" + TextFormsRobustnessTest.jsonEscaped(l + "\n")
                + "\",\"stream\":\"stderr\",\"time\":\"2024-03-01T10:00:00.123456789Z\"}");
        assertThat(unfolded(docker)).isEqualTo(TIME_LIMIT);
        Finding json = classify(docker);
        assertThat(json.kindId()).isEqualTo("time_limit");
        assertThat(json.evidence().get(0).line()).isEqualTo(classify(TIME_LIMIT).evidence().get(0).line()).isEqualTo(2);
    }

    @Test
    void linesAfterARecordKeepTheirNumbersInTheFile() {
        String log = "{\"log\": \"step 1\\nstep 2\\nstep 3\\n\"}\nslurmstepd: error: *** JOB 4242 ON node12 CANCELLED AT "
                + "2024-03-01T10:00:00 DUE TO TIME LIMIT ***\n";
        CarriedLog c = CarriedLog.of(log.getBytes(StandardCharsets.UTF_8));
        assertThat(c.unfolded()).isTrue();
        assertThat(c.physicalLine(0)).isZero();
        assertThat(c.physicalLine(2)).isZero();
        assertThat(c.physicalLine(3)).isEqualTo(1);
        Finding f = classify(log);
        assertThat(f.kindId()).isEqualTo("time_limit");
        assertThat(f.evidence().get(0).line()).isEqualTo(2);
    }

    @Test
    void nestedEscapesQuotesAndColourCodesReadAsTheCharactersTheyStandFor() {
        // the log itself holds a Python repr with \n in it, a quoted name, and a colour code
        String log = "RuntimeError('sbatch failed:\\nsbatch: error: invalid partition specified: \"gpu\"')\n"
                + "\u001b[1;31mKilled\u001b[0m\n";
        String json = TextFormsRobustnessTest.jsonRecord(log);
        assertThat(json).contains("\\\\n").contains("\\\"gpu\\\"").contains("\\u001b");
        assertThat(unfolded(json)).isEqualTo(log);
        assertThat(classify(json).kindId()).isEqualTo(classify(log).kindId());
    }

    @Test
    void otherKeysBeforeAndAfterTheLogAreNotTheLog() {
        String json = "{\"job_id\": 4242, \"state\": \"FAILED\", \"log\": \"" + TextFormsRobustnessTest.jsonEscaped(TIME_LIMIT)
                + "\", \"exit\": {\"code\": 0, \"signal\": 9}, \"node\": \"node12\"}";
        assertThat(unfolded(json)).isEqualTo(TIME_LIMIT.stripTrailing());
        assertThat(classify(json).kindId()).isEqualTo("time_limit");
    }

    @Test
    void aRecordWithoutALineBreakReadsAsItsLogKeysValue() {
        String line = "/var/spool/slurm/d/job42/slurm_script: line 2: ./run.sh: No such file or directory";
        String json = "{\"time\": \"2024-03-01T10:00:00Z\", \"msg\": \"" + line + "\", \"level\": \"error\"}";
        assertThat(unfolded(json)).isEqualTo(line);
        assertThat(classify(json).kindId()).isEqualTo(classify(line).kindId()).isEqualTo("file_not_found");
        // no log key: the record stays as it is
        String other = "{\"time\": \"2024-03-01T10:00:00Z\", \"note\": \"" + line + "\"}";
        assertThat(unfolded(other)).isEqualTo(other);
    }

    @Test
    void aRecordTheTailCutAtItsStartIsReadFromWhereTheTailStarts() {
        String json = TextFormsRobustnessTest.jsonRecord("epoch 1/10 loss=0.93\nepoch 2/10 loss=0.71\n" + TIME_LIMIT);
        // the tail reader kept the record from the middle of its string on
        String cut = json.substring(json.indexOf("loss=0.71"));
        assertThat(unfolded(cut)).isEqualTo("loss=0.71\n" + TIME_LIMIT);
        LogTail tail = new LogTail(LogStream.STDERR, "job.err", cut.getBytes(StandardCharsets.UTF_8), 0, -1, null);
        Finding f = ClassifierTest.CLASSIFIER.classify(JobFacts.NONE, List.of(tail));
        assertThat(f.kindId()).isEqualTo("time_limit");
        assertThat(f.evidence().get(0).location()).isEqualTo("stderr:tail+1");
        // a Python repr that is the tail's first line is no record
        String repr = "RuntimeError('a\\nb')\n";
        assertThat(unfolded(repr)).isEqualTo(repr);
    }

    @Test
    void aTenMegabyteOneLineRecordIsReadFromItsBoundedTail() {
        StringBuilder log = new StringBuilder(11 << 20);
        while (log.length() < 10 << 20) {
            log.append("step ").append(log.length()).append(" loss=0.5 lr=1e-4 throughput=812.3 samples/s\n");
        }
        log.append(TIME_LIMIT);
        byte[] record = TextFormsRobustnessTest.jsonRecord(log.toString()).getBytes(StandardCharsets.UTF_8);
        LogTail tail = LogTails.ofBytes(LogStream.STDERR, "job.err", record, 1000);
        assertThat(tail.content().length).isEqualTo(LogTails.MAX_TAIL_BYTES);
        assertThat(CarriedLog.of(tail.content()).text().length).isLessThanOrEqualTo(tail.content().length);
        Finding f = ClassifierTest.CLASSIFIER.classify(JobFacts.NONE, List.of(tail));
        assertThat(f.kindId()).isEqualTo("time_limit");
        assertThat(f.evidence().get(0).location()).isEqualTo("stderr:tail+1");
    }

    @Test
    void anOrdinaryLogIsReturnedAsItIs() {
        byte[] log = ("a Windows path C:\\new\\data and a dict {'log': 'x'}\n" + TIME_LIMIT).getBytes(StandardCharsets.UTF_8);
        CarriedLog c = CarriedLog.of(log);
        assertThat(c.text()).isSameAs(log);
        assertThat(c.unfolded()).isFalse();
        assertThat(c.physicalLine(3)).isEqualTo(3);
    }
}
