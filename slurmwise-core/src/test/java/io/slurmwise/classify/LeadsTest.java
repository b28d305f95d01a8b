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

    /**
     * Open MPI's help text that the build lacks SLURM's PMI support is the lead, not the MPI_ERRORS_ARE_FATAL box, the
     * "Local abort" and srun's task summary it brings about (the auditor's 32_mpi_pmi.err).
     */
    @Test
    void anMpiLibrarysConsequencesGiveWayToTheMessageBeforeThem() {
        Finding f = classify(LogTail.of(LogStream.STDERR, "job.err", """
                --------------------------------------------------------------------------
                The application appears to have been direct launched using "srun",
                but OMPI was not built with SLURM's PMI support and therefore cannot
                execute. There are several options for building PMI support under
                SLURM, depending upon the SLURM version you are using:

                  version 16.05 or later: you can use SLURM's PMIx support. This
                  requires that you configure and build SLURM --with-pmix.

                Please configure as appropriate and try again.
                --------------------------------------------------------------------------
                *** An error occurred in MPI_Init
                *** on a NULL communicator
                *** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,
                ***    and potentially your MPI job)
                [cn021:1288] Local abort before MPI_INIT completed completed successfully, but am not able to aggregate error messages, and not able to guarantee that all other processes were killed!
                srun: error: cn021: tasks 0-31: Exited with exit code 1
                """));
        assertThat(f.isUnknown()).isTrue();
        assertThat(f.leads()).singleElement().satisfies(e -> {
            assertThat(e.location()).isEqualTo("stderr:2");
            assertThat(e.text()).contains("OMPI was not built with SLURM's PMI support");
        });
        // alone, the consequences are still where to read
        Finding alone = classify(LogTail.of(LogStream.STDERR, "job.err",
                "*** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,\n"
                        + "srun: error: cn021: tasks 0-31: Exited with exit code 1\n"));
        assertThat(alone.leads()).hasSize(2);
    }

    /** GROMACS's bare "Fatal error:" header gives way to its message on the next line (16_gromacs_lincs.err). */
    @Test
    void aBareFatalErrorHeaderIsReadWithTheLineAfterIt() {
        Finding f = classify(LogTail.of(LogStream.STDERR, "md.err", """
                -------------------------------------------------------
                Program:     gmx mdrun, version 2023.3
                Source file: src/gromacs/mdlib/constr.cpp (line 187)
                MPI rank:    3 (out of 8)

                Fatal error:
                Too many LINCS warnings (1000)
                If you know what you are doing you can adjust the lincs warning threshold in
                your mdp file or set the environment variable GMX_MAXCONSTRWARN to -1,
                but normally it is better to fix the problem
                -------------------------------------------------------
                MPI_ABORT was invoked on rank 3 in communicator MPI_COMM_WORLD
                with errorcode 1.
                """));
        assertThat(f.isUnknown()).isTrue();
        assertThat(f.leads().get(0).text()).isEqualTo("Fatal error: Too many LINCS warnings (1000)");
        assertThat(f.leads()).extracting(Evidence::text).noneMatch(t -> t.equals("Fatal error:"));
    }
}
