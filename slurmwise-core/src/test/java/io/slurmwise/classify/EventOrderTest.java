package io.slurmwise.classify;

import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A Killed or an exit status after the event that ended the job is that event's doing, not another failure. */
class EventOrderTest {

    private static Finding classify(JobState state, String exit, String log) {
        return ClassifierTest.CLASSIFIER.classifyText(JobFacts.NONE.withState(state)
                .withExitCode(exit == null ? null : ExitCode.parse(exit)), log);
    }

    @Test
    void aKilledThatEndsTheLogAfterAScancelIsTheCancel() {
        Finding f = classify(JobState.CANCELLED, "0:15", """
                epoch 3 step 1200 loss 1.93
                slurmstepd: error: *** JOB 4242 ON node12 CANCELLED AT 2024-05-01T10:00:00 ***
                srun: error: node12: task 0: Killed
                Killed
                """);
        assertThat(f.kindId()).isEqualTo("cancelled");
    }

    @Test
    void theSameKilledWithoutTheCancelLineStillPointsAtMemory() {
        Finding f = classify(JobState.CANCELLED, "0:9", """
                epoch 3 step 1200 loss 1.93
                Killed
                """);
        assertThat(f.kindId()).isEqualTo("oom");
    }

    @Test
    void killedTasksAfterATimeLimitAreTheTimeLimit() {
        Finding f = classify(JobState.FAILED, "0:9", """
                slurmstepd: error: *** STEP 4242.0 ON node12 CANCELLED AT 2024-05-01T10:00:00 DUE TO TIME LIMIT ***
                srun: Job step aborted: Waiting up to 32 seconds for job step to finish.
                srun: error: node12: task 0: Killed
                /var/spool/slurmd/job4242/slurm_script: line 12: 98765 Killed                  python train.py
                """);
        assertThat(f.kindId()).isEqualTo("time_limit");
        assertThat(f.others()).extracting(Finding.KindScore::kindId).doesNotContain("oom");
    }

    @Test
    void anExitSignalAfterPreemptionIsThePreemption() {
        Finding f = classify(JobState.FAILED, "0:9", """
                slurmstepd: error: *** JOB 4242 ON node12 CANCELLED AT 2024-05-01T10:00:00 DUE TO PREEMPTION ***
                Killed
                """);
        assertThat(f.kindId()).isEqualTo("preempted");
    }

    @Test
    void aRootCauseBeforeTheCancelStillWins() {
        Finding f = classify(JobState.CANCELLED, "0:15", """
                torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.
                slurmstepd: error: *** JOB 4242 ON node12 CANCELLED AT 2024-05-01T10:00:00 ***
                Killed
                """);
        assertThat(f.kindId()).isEqualTo("cuda_oom");
    }

    @Test
    void aStrongMessageAfterTheEventIsStillEvidence() {
        // slurmstepd reports the cgroup's oom-kill count when the step ends, after the time-limit line
        Finding f = classify(JobState.OUT_OF_MEMORY, "0:125", """
                slurmstepd: error: *** JOB 4242 ON node12 CANCELLED AT 2024-05-01T10:00:00 DUE TO TIME LIMIT ***
                slurmstepd: error: Detected 1 oom_kill event in StepId=4242.batch. Some of the step tasks have been OOM Killed.
                """);
        assertThat(f.others()).extracting(Finding.KindScore::kindId).contains(f.kindId().equals("oom") ? "time_limit" : "oom");
    }
}
