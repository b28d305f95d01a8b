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

    /**
     * A message that names its object on the next line keeps it: 1031's evidence stopped at "module(s) are unknown:"
     * before the module's name (an outside audit). A long next line is another message, not the object.
     */
    @Test
    void aMatchedLineEndingInAColonKeepsTheShortLineAfterIt() {
        Finding f = C.classify(JobFacts.NONE, List.of(LogTail.of(LogStream.STDERR, "job.err", """
                Lmod has detected the following error:  The following module(s) are unknown:
                "pytorch/2.3.0"

                Please check the spelling or version number. Also try "module spider ..."
                """)));
        assertThat(f.kindId()).isEqualTo("module_load");
        assertThat(f.decidingLine().text()).endsWith("are unknown: \"pytorch/2.3.0\"");
        assertThat(f.decidingLine().line()).isEqualTo(1);
        String longNext = "x".repeat(200);
        Finding g = C.classify(JobFacts.NONE, List.of(LogTail.of(LogStream.STDERR, "job.err",
                "Lmod has detected the following error:  The following module(s) are unknown:\n" + longNext + "\n")));
        assertThat(g.decidingLine().text()).endsWith("are unknown:");
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

    @Test
    void evidenceCarriesTheWordsThatMatched() {
        // HDF5's write error: the deciding words come after a long file name
        String hdf5 = ", filename = '/tmp/erik_1026/tas_day_EC-Earth3_ssp585_r1i1p1f1_gr_regrid_2071.nc', file descriptor = 17,"
                + " errno = 28, error message = 'No space left on device', buf = 0x2b1e4c000040, total write size = 8388608";
        Finding f = C.classify(JobFacts.NONE, List.of(LogTail.of(LogStream.STDERR, "job.err", hdf5 + "\n")));
        assertThat(f.kindId()).isEqualTo("disk_quota");
        Evidence e = f.decidingLine();
        assertThat(e.text()).isEqualTo(hdf5);
        assertThat(e.match()).containsIgnoringCase("No space left on device");
        assertThat(hdf5).contains(e.match());
        // an anchored signature's match is found after a launcher prefix, as the scanner reads the line
        Finding ranked = C.classify(JobFacts.NONE, List.of(LogTail.of(LogStream.STDERR, "job.err",
                "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")));
        assertThat(ranked.decidingLine().match()).isNotNull();
        assertThat(ranked.decidingLine().text()).contains(ranked.decidingLine().match());
        // accounting fields have no match
        assertThat(new Evidence(Evidence.Source.ACCOUNTING, 0, false, "State=FAILED", "none", 0.5).match()).isNull();
    }

    @Test
    void aLongLineKeepsThePartAroundItsMatch() {
        String noise = "x".repeat(1000);
        Evidence e = new Evidence(Evidence.Source.STDERR, 7, true, noise + " CUDA out of memory. Tried " + noise,
                "cuda_oom", 1, "CUDA out of memory");
        assertThat(e.text()).startsWith("...").endsWith("...").contains("CUDA out of memory").hasSize(Evidence.MAX_TEXT + 3);
        // the match near the start: the line's first characters, as before
        Evidence early = new Evidence(Evidence.Source.STDERR, 7, true, "CUDA out of memory " + noise, "cuda_oom", 1,
                "CUDA out of memory");
        assertThat(early.text()).startsWith("CUDA out of memory").endsWith("...").hasSize(Evidence.MAX_TEXT + 3);
        // a match that is not in the text is no match
        assertThat(new Evidence(Evidence.Source.STDERR, 1, true, "Killed", "oom", 1, "Segmentation").match()).isNull();
        // the match near the very end: the window ends with the line, without a trailing cut mark
        Evidence late = new Evidence(Evidence.Source.STDERR, 7, true, noise + " No space left on device", "disk_quota", 1,
                "No space left on device");
        assertThat(late.text()).startsWith("...").endsWith("No space left on device");
    }

    @Test
    void theMessageRaisedDecidesNotTheCodeThatRaisedIt() {
        // a traceback quotes the raising line of code before the message (mock job 1019 showed the code as evidence)
        Finding f = C.classify(JobFacts.NONE, List.of(LogTail.of(LogStream.STDERR, "job.err", """
                Traceback (most recent call last):
                  File "/scratch/chen/post/sample.py", line 41, in load
                    raise FileNotFoundError(f'File ({filename}) not found')
                FileNotFoundError: File (/scratch/chen/cavity_les/VTK/cavity_les_0.45.vtm) not found
                """)));
        assertThat(f.kindId()).isEqualTo("file_not_found");
        assertThat(f.decidingLine().text()).startsWith("FileNotFoundError: File (/scratch/chen/");
        // the same score as when the code line carried the weight: only which line decides moved
        Finding alone = C.classify(JobFacts.NONE, List.of(LogTail.of(LogStream.STDERR, "job.err",
                "FileNotFoundError: File (/scratch/chen/cavity_les/VTK/cavity_les_0.45.vtm) not found\n")));
        assertThat(f.confidence()).isEqualTo(alone.confidence());
    }
}
