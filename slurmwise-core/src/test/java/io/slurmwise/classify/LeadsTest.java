package io.slurmwise.classify;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.diagnose.TemplateExplainer;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** An unknown finding says where to read first, and never calls those lines evidence. */
class LeadsTest {

    private static final Classifier C = ClassifierTest.CLASSIFIER;

    private static Finding classify(LogTail... logs) {
        return C.classify(JobFacts.NONE, List.of(logs));
    }

    @Test
    void anUnknownFindingLeadsToTheLastLinesThatReadLikeAnError() {
        Finding f = classify(LogTail.of(LogStream.STDERR, "job.err", """
                loading index
                Error reading _plen[] array: 0, 112320
                Error: Encountered internal HISAT2 exception (#1)
                Command: hisat2-align-s --wrapper basic-0 -p 31
                (ERR): hisat2-align exited with value 1
                """));
        assertThat(f.isUnknown()).isTrue();
        assertThat(f.evidence()).isEmpty();
        assertThat(f.leads()).extracting(Evidence::location).containsExactly("stderr:2", "stderr:3", "stderr:5");
        assertThat(f.leads()).allSatisfy(e -> assertThat(e.weight()).isZero());
        assertThat(new TemplateExplainer().explain(null, f, List.of()).text())
                .contains("Start reading at stderr:2: \"Error reading _plen[] array: 0, 112320.\"");
    }

    /**
     * A Python traceback's meaning is its last line (the real lab's 190 read "Start reading at stderr:2: Traceback (most
     * recent call last):" above its KeyError): an exception's class name is an error word, and the header gives way to
     * the exception line after it.
     */
    @Test
    void aTracebackLeadsToItsExceptionLine() {
        Finding f = classify(LogTail.of(LogStream.STDERR, "job.err", """
                Traceback (most recent call last):
                  File "/home/u/train.py", line 3, in <module>
                    lr = cfg["batch_size"]
                KeyError: 'batch_size'
                """));
        assertThat(f.isUnknown()).isTrue();
        assertThat(f.leads()).extracting(Evidence::text).containsExactly("KeyError: 'batch_size'");
        assertThat(f.leads()).extracting(Evidence::location).containsExactly("stderr:4");
        assertThat(new TemplateExplainer().explain(null, f, List.of()).text())
                .contains("Start reading at stderr:4: \"KeyError: 'batch_size'.\"");
        // Java's too, and a traceback with nothing after it keeps its header
        assertThat(classify(LogTail.of(LogStream.STDERR, "job.err", "at Main.run\njava.lang.IllegalStateException: no"
                + " input\n")).leads()).extracting(Evidence::location).containsExactly("stderr:2");
        assertThat(classify(LogTail.of(LogStream.STDERR, "job.err", "Traceback (most recent call last):\n")).leads())
                .extracting(Evidence::text).containsExactly("Traceback (most recent call last):");
    }

    @Test
    void atMostThreeLinesStderrFirstRepeatsOnceAndColourGone() {
        Finding f = classify(
                LogTail.of(LogStream.STDOUT, "job.out", "step 1\nstep 2 failed, retrying\n"),
                LogTail.of(LogStream.STDERR, "job.err",
                        "\u001b[31mERROR\u001b[0m: bad header in sample.dat\nwarning: x\nERROR: bad header in sample.dat\n"
                                + "fatal: giving up\n"));
        // a warning has no error word; the repeated line counts once, where it last appears
        assertThat(f.leads()).extracting(Evidence::text)
                .containsExactly("ERROR: bad header in sample.dat", "fatal: giving up", "step 2 failed, retrying");
        assertThat(f.leads()).extracting(Evidence::location).containsExactly("stderr:3", "stderr:4", "stdout:2");
    }

    @Test
    void aLogWithoutErrorWordsLeadsToItsLastLine() {
        Finding f = classify(LogTail.of(LogStream.STDOUT, "job.out", "Archived/Failed\nclamr--CANCELED\nffmpeg--DEP_FAIL\n\n"));
        // "Failed" is an error word; "DEP_FAIL" is one identifier, not the word
        assertThat(f.leads()).extracting(Evidence::text).containsExactly("Archived/Failed");
        Finding quiet = classify(LogTail.of(LogStream.STDOUT, "job.out", "epoch 1\nepoch 2\n  \n"));
        assertThat(quiet.leads()).extracting(Evidence::location).containsExactly("stdout:2");
        assertThat(quiet.leads().get(0).text()).isEqualTo("epoch 2");
    }

    @Test
    void aKnownKindAndAnEmptyLogHaveNoLeads() {
        Finding oom = classify(LogTail.of(LogStream.STDERR, "job.err",
                "slurmstepd: error: Detected 1 oom_kill event in StepId=7.batch. Some of the step tasks have been OOM Killed.\n"));
        assertThat(oom.isUnknown()).isFalse();
        assertThat(oom.leads()).isEmpty();
        assertThat(classify(LogTail.of(LogStream.STDERR, "job.err", "")).leads()).isEmpty();
        assertThat(C.classify(JobFacts.NONE, List.of()).leads()).isEmpty();
    }

    @Test
    void aWrappedMessageIsOneLeadAtItsFirstLine() {
        // PMIx's help text as a reporter pasted it (every break doubled), cut short by the page it was stored on
        Finding f = classify(LogTail.of(LogStream.STDERR, "job.err", """
                --------------------------------------------------------------------------

                It looks like pmix_init failed for some reason; your parallel process is

                likely to abort.  There are many reasons that a parallel process can

                fail during pmix_init; some of which are due to configuration or

                environment problems.  This failure appears to be an internal failure;

                here's some additional information (which may only be relevant to an

                PMIX developer):

                  pmix_psec_base_open fai
                """));
        assertThat(f.isUnknown()).isTrue();
        assertThat(f.leads()).hasSize(1);
        assertThat(f.leads().get(0).location()).isEqualTo("stderr:3");
        assertThat(f.leads().get(0).text()).startsWith("It looks like pmix_init failed for some reason; your parallel "
                + "process is likely to abort.  There are many reasons").contains("environment problems.");
        // the explanation quotes the paragraph's first sentence, not the whole paragraph
        assertThat(new TemplateExplainer().explain(null, f, List.of()).text()).contains("Start reading at stderr:3: "
                + "\"It looks like pmix_init failed for some reason; your parallel process is likely to abort.\" No note");
    }

    @Test
    void anExceptionALibraryWrappedIsOneLead() {
        Finding f = classify(LogTail.of(LogStream.STDERR, "job.err", """
                Traceback (most recent call last):
                  File "train.py", line 12, in <module>
                RuntimeError: The server socket has failed to listen on any local network
                address. The server socket has failed to bind to [::]:29600 (errno: 98 - Address
                already in use).
                """));
        // the traceback's header gives way to its exception line
        assertThat(f.leads()).extracting(Evidence::location).containsExactly("stderr:3");
        assertThat(f.leads().get(0).text()).isEqualTo("RuntimeError: The server socket has failed to listen on any "
                + "local network address. The server socket has failed to bind to [::]:29600 (errno: 98 - Address "
                + "already in use).");
    }

    @Test
    void shortLinesAndPrefixedLinesStayMessagesOfTheirOwn() {
        Finding f = classify(LogTail.of(LogStream.STDERR, "job.err", """
                loading the index from disk
                error reading block 7
                the reader stopped because the file was shorter than its header said
                fatal: giving up on sample.dat
                """));
        // a short line is no wrapped one; a 'name: ' line is a program's own message, even in lower case
        assertThat(f.leads()).extracting(Evidence::location).containsExactly("stderr:2", "stderr:4");
        assertThat(f.leads()).extracting(Evidence::text)
                .containsExactly("error reading block 7", "fatal: giving up on sample.dat");
    }
}
