package io.slurmwise.classify;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.diagnose.TemplateExplainer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** One deciding line, wherever it is named; and a start-up banner is not a crash. */
class DecidingLineTest {

    private static final Classifier C = ClassifierTest.CLASSIFIER;

    @Test
    void theExplanationNamesTheStrongestLineNotTheFirst() {
        // the worker's "Killed" comes first in the log; the oom-kill line decides (an outside audit found the panel
        // and the explanation naming different lines)
        Finding f = C.classify(JobFacts.NONE, List.of(LogTail.of(LogStream.STDERR, "job.err", """
                RuntimeError: DataLoader worker (pid 48213) is killed by signal: Killed.
                Traceback (most recent call last):
                slurmstepd: error: Detected 1 oom-kill event(s) in StepId=1001.batch. Some of your processes may have been killed by the cgroup out-of-memory handler.
                """)));
        assertThat(f.kindId()).isEqualTo("oom");
        Evidence deciding = f.decidingLine();
        assertThat(deciding.text()).contains("oom-kill event");
        assertThat(f.strongestFirst().get(0)).isEqualTo(deciding);
        assertThat(new TemplateExplainer().explain(null, f, List.of()).text())
                .contains("The deciding evidence is the line " + deciding.location() + ":");
    }

    @Test
    void aQuotedLineGetsNoSecondStop() {
        assertThat(TemplateExplainer.quoted("TRACEBACK:")).isEqualTo("\"TRACEBACK:\"");
        assertThat(TemplateExplainer.quoted("??:?")).isEqualTo("\"??:?\"");
        assertThat(TemplateExplainer.quoted("by the handler.")).isEqualTo("\"by the handler.\"");
        assertThat(TemplateExplainer.quoted("No space left on device")).isEqualTo("\"No space left on device.\"");
    }

    @Test
    void openFoamsTrapBannerIsNoFloatingPointCrash() {
        Finding f = C.classify(JobFacts.NONE, List.of(LogTail.of(LogStream.STDOUT, "log.simpleFoam", """
                Exec   : simpleFoam -parallel
                trapFpe: Floating point exception trapping enabled (FOAM_SIGFPE).
                fileModificationChecking : Monitoring run-time modified files using timeStampMaster
                """)));
        assertThat(f.kindId()).isNotEqualTo("segfault");
        assertThat(f.evidence()).noneMatch(e -> e.text().contains("trapFpe"));
        Finding crash = C.classify(JobFacts.NONE, List.of(LogTail.of(LogStream.STDERR, "job.err",
                "/var/spool/slurmd/job42/slurm_script: line 9: 4321 Floating point exception (core dumped) ./solver\n")));
        assertThat(crash.kindId()).isEqualTo("segfault");
    }
}
