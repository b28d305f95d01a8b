package io.slurmwise.backend.real;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.Random;

import io.slurmwise.testing.Captures;
import io.slurmwise.testing.Fuzz;
import io.slurmwise.testing.Hostile;
import io.slurmwise.testing.Lines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the {@code scontrol show job} parser with the real 22.05 captures damaged line by line and hostile
 * Key=Value tokens: it returns records and every accessor answers, never an exception.
 */
@Tag("fuzz")
class ScontrolJobFuzzTest {

    private static final List<String> CAPTURES = captures();

    private static List<String> captures() {
        List<String> out = new ArrayList<>(Captures.outputs("cgroup/scontrol_finished.txt"));
        out.add(RealCaptures.output("scontrol_show_job_segfault.txt"));
        return out;
    }

    @AfterAll
    static void record() {
        Fuzz.record();
    }

    static Function<Random, String> outputsGen() {
        java.util.function.Function<java.util.Random, String> hostile = Hostile.pick("JobId=", "JobId=1 JobName=a b c", "ArrayJobId=5 ArrayTaskId=2",
                "ArrayTaskId=99999999999999999999", "UserId=(1001)", "UserId=alice(", "ExitCode=1:2:3", "ExitCode=:",
                "StdOut=", "Command==", "WorkDir=/a b=c", "=x", "A=B=C", "Reason=None", "   JobId=7   ");
        return (Fuzz.oneOf(Lines.damaged(CAPTURES, hostile, "\n"), Lines.damaged(CAPTURES, hostile, "\r\n"),
                r -> {
                    StringBuilder sb = new StringBuilder();
                    for (int i = r.nextInt(10); i > 0; i--) {
                        sb.append(hostile.apply(r)).append(' ');
                    }
                    return sb.toString();
                }));
    }

    @Test
    void scontrolShowJob() {
        Fuzz.inputs(outputsGen()).forEach(ScontrolJobFuzzTest::parse);
    }

    private static void parse(String text) {
        Fuzz.neverThrows("ScontrolJob.parseAll (scontrol)", text, () -> {
            for (ScontrolJob j : ScontrolJob.parseAll(text)) {
                j.jobId();
                j.displayId();
                j.userName();
                j.state();
                j.reason();
                j.exitCode();
                j.stdOut();
                j.stdErr();
                j.workDir();
                j.batchHost();
            }
        });
    }
}
