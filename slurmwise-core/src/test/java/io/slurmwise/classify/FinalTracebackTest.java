package io.slurmwise.classify;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An uncaught Python exception that ends the log ended the program: a warning the program logged and carried on
 * after is not why the job failed (F2 of issue 10).
 */
class FinalTracebackTest {

    private static Finding classify(String log) {
        return ClassifierTest.CLASSIFIER.classifyText(JobFacts.NONE.withState(JobState.FAILED)
                .withExitCode(ExitCode.parse("1:0")), log);
    }

    /** A training job's stderr: a checkpoint write failed and was retried, then the job died of its own bug. */
    private static final String SURVIVED_WARNING = """
            [2024-03-02 10:14:05] INFO epoch 1/20 train_loss=0.5213 val_acc=0.801
            warning: could not write checkpoint /scratch/u123/run7/epoch1.pt: No space left on device (resolved)
            [2024-03-02 10:31:40] INFO epoch 2/20 train_loss=0.4870 val_acc=0.812
            [2024-03-02 10:49:12] INFO evaluating on held-out split
            Traceback (most recent call last):
              File "/home/u123/proj/train.py", line 214, in <module>
                main()
              File "/home/u123/proj/train.py", line 198, in main
                report = evaluate(model, loader)
              File "/home/u123/proj/eval.py", line 57, in evaluate
                precision = tp / (tp + fp)
            ZeroDivisionError: division by zero
            """;

    @Test
    void aWarningTheProgramCarriedOnAfterDoesNotOutrankTheExceptionThatEndedIt() {
        Finding f = classify(SURVIVED_WARNING);
        assertThat(f.kindId()).isEqualTo("unknown");
    }

    @Test
    void theSameWarningIsStillTheCauseWhenNoExceptionEndsTheLog() {
        String bare = SURVIVED_WARNING.substring(0, SURVIVED_WARNING.indexOf("Traceback"));
        assertThat(classify(bare).kindId()).isEqualTo("disk_quota");
    }

    @Test
    void aWarningTheTracebackFollowsDirectlyStaysEvidence() {
        // nothing of the program's own between the warning and the traceback: it may be what the exception is about
        Finding f = classify("""
                [2024-03-02 10:14:05] INFO epoch 1/20 train_loss=0.5213
                WARNING: write to /scratch/u123/run7/features.h5 failed: No space left on device
                Traceback (most recent call last):
                  File "/home/u123/proj/train.py", line 214, in <module>
                    main()
                RuntimeError: feature cache is incomplete
                """);
        assertThat(f.kindId()).isEqualTo("disk_quota");
    }

    @Test
    void anErrorLineThatIsNoWarningStaysEvidence() {
        Finding f = classify("""
                cp: error writing '/scratch/u123/run7/data.tar': No space left on device
                [2024-03-02 10:31:40] INFO epoch 2/20 train_loss=0.4870
                Traceback (most recent call last):
                  File "/home/u123/proj/train.py", line 214, in <module>
                    main()
                KeyError: 'labels'
                """);
        assertThat(f.kindId()).isEqualTo("disk_quota");
    }

    @Test
    void aFinalExceptionWithAKindOfItsOwnDecidesAsBefore() {
        Finding f = classify(SURVIVED_WARNING.replace("ZeroDivisionError: division by zero",
                "ModuleNotFoundError: No module named 'sklearn'"));
        assertThat(f.kindId()).isEqualTo("import_error");
    }

    @Test
    void aChainedTracebackIsOneEnd() {
        String log = """
                warning: disk usage of /scratch/u123 above 95%: No space left on device soon
                [2024-03-02 10:31:40] INFO epoch 2/20 train_loss=0.4870
                Traceback (most recent call last):
                  File "/home/u123/proj/data.py", line 33, in load
                    return np.load(path)
                OSError: [Errno 28] No space left on device: '/scratch/u123/run7/cache.npy'

                During handling of the above exception, another exception occurred:

                Traceback (most recent call last):
                  File "/home/u123/proj/train.py", line 214, in <module>
                    main()
                RuntimeError: could not load the cache
                """;
        LogTail tail = LogTail.of(LogStream.STDERR, null, log);
        assertThat(FinalTraceback.of(tail)).get().extracting(FinalTraceback::startLine).isEqualTo(2L);
        // the chain's first exception has the kind's words: the end is that kind's, not unknown
        assertThat(classify(log).kindId()).isEqualTo("disk_quota");
    }

    @Test
    void onlyATracebackThatEndsTheLogIsAnEnd() {
        assertThat(FinalTraceback.of(LogTail.of(LogStream.STDERR, null, SURVIVED_WARNING + "Saved results\n"))).isEmpty();
        // a rank's prefix is the header's and the exception line's both
        String ranked = """
                [rank0]: Traceback (most recent call last):
                [rank0]:   File "/w/train.py", line 9, in <module>
                [rank0]:     main()
                [rank0]: ZeroDivisionError: division by zero
                """;
        assertThat(FinalTraceback.of(LogTail.of(LogStream.STDERR, null, ranked))).isPresent();
        // other output cut into the frames: not recognised, nothing changes
        String cut = """
                Traceback (most recent call last):
                  File "/w/train.py", line 9, in <module>
                step 12 loss 0.3
                ZeroDivisionError: division by zero
                """;
        assertThat(FinalTraceback.of(LogTail.of(LogStream.STDERR, null, cut))).isEmpty();
    }

    @Test
    void warningMarksAreTheLevelWordsAndCategories() {
        assertThat(Classifier.isWarningLine("warning: could not write x")).isTrue();
        assertThat(Classifier.isWarningLine("[WARNING] sbatch: error: Batch job submission failed")).isTrue();
        assertThat(Classifier.isWarningLine("/x/y.py:12: UserWarning: slow path")).isTrue();
        assertThat(Classifier.isWarningLine("2024-01-01 WARN | disk")).isTrue();
        assertThat(Classifier.isWarningLine("[2021-03-25T02:43:37+0000] [MainThread] [W] [toil.jobGraph] x")).isTrue();
        assertThat(Classifier.isWarningLine("cp: error writing 'x': No space left on device")).isFalse();
        assertThat(Classifier.isWarningLine("warnings are disabled")).isFalse();
    }
}
