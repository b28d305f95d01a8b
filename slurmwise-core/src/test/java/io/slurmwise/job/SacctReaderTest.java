package io.slurmwise.job;

import io.slurmwise.testing.Captures;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SacctReaderTest {

    private static Map<String, JobRecord> read(String text) {
        return SacctReader.stream(new StringReader(text))
                .collect(Collectors.toMap(j -> j.id().toString(), Function.identity()));
    }

    @Test
    void foldsStepRowsIntoTheirJobOnARealCapture() {
        Map<String, JobRecord> jobs = read(Captures.outputs("cgroup/sacct_steps.txt").get(0));
        assertThat(jobs).containsOnlyKeys("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "17");
        JobRecord oom = jobs.get("5");
        assertThat(oom.state()).isEqualTo(JobState.OUT_OF_MEMORY);
        assertThat(oom.exitCode()).isEqualTo(ExitCode.parse("0:125"));
        assertThat(oom.maxRss()).isEqualTo(new DataSize(292936 * DataSize.KIB)); // from 5.batch, not the -X row
        assertThat(oom.memoryLimit()).contains(DataSize.ofMebibytes(300));
        assertThat(jobs.get("9").status().detail()).isEqualTo("by 1001");
        assertThat(jobs.get("6").exitCode().sacctWrappedSignal()).contains(11);
        assertThat(jobs.get("3").nodeList()).isEqualTo("None assigned");
        assertThat(jobs.get("8").gpus()).isEqualTo(2);
        assertThat(jobs.get("17").state()).isEqualTo(JobState.NODE_FAIL);
        assertThat(jobs.get("17").maxRss()).isNull(); // unknown stays unknown
    }

    @Test
    void readsEveryFieldOfTheFullCapture() {
        Map<String, JobRecord> jobs = read(Captures.outputs("cgroup/sacct_all_fields.txt").get(0));
        JobRecord timeout = jobs.get("1");
        assertThat(timeout.state()).isEqualTo(JobState.TIMEOUT);
        assertThat(timeout.timeLimit().limit()).isPresent();
        assertThat(timeout.elapsed().toSeconds()).isEqualTo(79);
        assertThat(timeout.account()).isEqualTo("research");
        assertThat(timeout.workDir()).startsWith("/home/slurmtest/jobs-");
        assertThat(timeout.submit()).isNotNull();
        assertThat(timeout.consumedEnergyJoules()).isNull(); // 0 without an energy plugin means unknown
    }

    @Test
    void realCapturesOfBothModesParseWithoutMalformedRows() {
        for (String mode : List.of("cgroup", "linuxproc")) {
            for (String file : List.of("sacct_steps.txt", "sacct_all_fields.txt")) {
                SacctReader r = SacctReader.open(new StringReader(Captures.outputs(mode + "/" + file).get(0)));
                int n = 0;
                while (r.hasNext()) {
                    r.next();
                    n++;
                }
                assertThat(n).as(mode + "/" + file).isGreaterThan(5);
                assertThat(r.malformedRows()).as(mode + "/" + file).isZero();
            }
        }
    }

    @Test
    void skipsAndCountsMalformedRows() {
        String text = "JobID|State|ExitCode\n1|FAILED|1:0\n2|FAILED\nnot-an-id|FAILED|1:0\n3|COMPLETED|0:0|extra\n4|TIMEOUT|0:0\n";
        SacctReader r = SacctReader.open(new StringReader(text));
        List<String> ids = new java.util.ArrayList<>();
        r.forEachRemaining(j -> ids.add(j.id().toString()));
        assertThat(ids).containsExactly("1", "4");
        assertThat(r.malformedRows()).isEqualTo(3);
    }

    @Test
    void readsTheUnitSeparatorDelimiterWherePipesAreJustText() {
        String d = SacctReader.DELIMITER;
        String text = String.join(d, "JobID", "JobName", "State", "ExitCode", "WorkDir") + "\n"
                + String.join(d, "254", "prep|v2 run", "FAILED", "3:0", "/scratch/a|b") + "\n"
                + String.join(d, "254.batch", "batch", "FAILED", "3:0", "") + "\n";
        SacctReader r = SacctReader.open(new StringReader(text));
        JobRecord j = r.next();
        assertThat(j.name()).isEqualTo("prep|v2 run");
        assertThat(j.workDir()).isEqualTo("/scratch/a|b");
        assertThat(r.hasNext()).isFalse();
        assertThat(r.malformedRows()).isZero();
        SacctReader headerless = SacctReader.open(new StringReader(String.join(d, "7", "x|y", "FAILED", "0:11", "/w") + "\n"),
                List.of("JobID", "JobName", "State", "ExitCode", "WorkDir"));
        assertThat(headerless.next().name()).isEqualTo("x|y");
    }

    @Test
    void aPipeInAJobNameOfAPipeExportIsRepairedAndOtherwiseCounted() {
        String text = "JobID|JobName|State|ExitCode|WorkDir\n"
                + "254|prep|v2|run|FAILED|3:0|/tmp\n"        // sbatch -J 'prep|v2|run'
                + "254.batch|batch|FAILED|3:0|\n"
                + "255|ok|FAILED|1:0|/x|y\n"                 // the '|' is in WorkDir: not a job name, skipped
                + "256|plain|TIMEOUT|0:0|/w\n";
        SacctReader r = SacctReader.open(new StringReader(text));
        List<JobRecord> jobs = new java.util.ArrayList<>();
        r.forEachRemaining(jobs::add);
        assertThat(jobs).extracting(JobRecord::name).containsExactly("prep|v2|run", "plain");
        assertThat(jobs.get(0).state()).isEqualTo(JobState.FAILED);
        assertThat(jobs.get(0).workDir()).isEqualTo("/tmp");
        assertThat(r.malformedRows()).isEqualTo(1);
    }

    @Test
    void splitKeepsEmptyFieldsAroundALiteralDelimiter() {
        assertThat(SacctReader.split("a||b|", "|")).containsExactly("a", "", "b", "");
        assertThat(SacctReader.split("x\u001f|y|z\u001f|", SacctReader.DELIMITER)).containsExactly("x", "y|z", "");
        assertThat(SacctReader.split("", "|")).containsExactly("");
    }

    @Test
    void headerlessOutputWithKnownFields() {
        SacctReader r = SacctReader.open(new StringReader("7|FAILED|0:11\n"), List.of("JobID", "State", "ExitCode"));
        assertThat(r.next().exitCode().signal()).isEqualTo(11);
    }

    @Test
    void refusesOutputWithoutAJobIdColumn() {
        assertThatThrownBy(() -> SacctReader.open(new StringReader("State|ExitCode\nFAILED|1:0\n")))
                .hasMessageContaining("no JobID column");
    }

    @Test
    void emptyOutputIsNoJobs() {
        assertThat(SacctReader.stream(new StringReader("")).count()).isZero();
    }

    @Test
    void pendingReasonComesFromTheReasonColumnOnlyForPendingJobs() {
        Map<String, JobRecord> jobs = read("JobID|State|Reason\n1|PENDING|DependencyNeverSatisfied\n2|FAILED|NonZeroExitCode\n3|PENDING|None\n");
        assertThat(jobs.get("1").optPendingReason()).contains("DependencyNeverSatisfied");
        assertThat(jobs.get("2").optPendingReason()).isEmpty();
        assertThat(jobs.get("3").optPendingReason()).isEmpty();
    }
}
