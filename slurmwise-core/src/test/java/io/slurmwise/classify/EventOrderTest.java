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

    @Test
    void aBareStepCancelAloneIsACancel() {
        // SLURM <= 24.11 at scancel, an interrupted srun, or an srun whose ssh session closed: no DUE TO clause
        Finding f = classify(null, null, """
                2021-02-13 16:36:03.027407
                slurmstepd-node1: error: *** STEP 204.0 ON node1 CANCELLED AT 2021-02-13T16:38:01 ***
                2021-02-13 16:36:04.028471
                """);
        assertThat(f.kindId()).isEqualTo("cancelled");
    }

    @Test
    void theSameStepCancelAfterSrunTerminatedTheStepIsSrunsTeardown() {
        // --kill-on-bad-exit: srun says it terminates the step, then slurmstepd prints the same bare line
        Finding f = classify(JobState.FAILED, "1:0", """
                AssertionError: Expected throughput to be at least 560000.0
                srun: error: sn30: task 0: Exited with exit code 1
                srun: Terminating StepId=30399.0
                slurmstepd: error: *** STEP 30399.0 ON sn30 CANCELLED AT 2024-04-03T09:40:00 ***
                srun: error: sn30: tasks 1,3-5: Terminated
                """);
        assertThat(f.kindId()).isEqualTo("unknown");
        assertThat(f.others()).extracting(Finding.KindScore::kindId).doesNotContain("cancelled");
        // the older wording, and a crash before it, whose kind then stands alone
        Finding old = classify(null, null, """
                srun: error: node7: task 289: Segmentation fault
                srun: Terminating job step 3495450.0
                slurmstepd: error: *** STEP 3495450.0 ON node1 CANCELLED AT 2021-10-27T20:22:22 ***
                """);
        assertThat(old.kindId()).isEqualTo("segfault");
        assertThat(old.others()).extracting(Finding.KindScore::kindId).doesNotContain("cancelled");
    }

    @Test
    void theSignalNamingStepCancelAfterSrunsWaitRanOutIsSrunsTeardown() {
        // SLURM >= 25.05 names the signal; srun kills the rest of the step when --wait (WaitTime) runs out
        Finding f = classify(null, null, """
                srun: First task exited 30s ago
                srun: StepId=5981146.0 tasks 0-3: running
                srun: StepId=5981146.0 task 4: exited
                srun: Terminating StepId=5981146.0
                *** STEP 5981146.0 ON dane138 CANCELLED AT 2026-05-12T12:43:25 DUE to SIGNAL Killed ***
                srun: error: dane900: task 3: Killed
                """);
        assertThat(f.others()).extracting(Finding.KindScore::kindId).doesNotContain("cancelled");
        assertThat(f.kindId()).isNotEqualTo("cancelled");
        // the same line with nothing of srun's before it is a cancel
        assertThat(classify(null, null,
                "slurmstepd: error: *** STEP 77.0 ON n1 CANCELLED AT 2026-05-12T12:43:25 DUE to SIGNAL Terminated ***\n")
                .kindId()).isEqualTo("cancelled");
    }

    @Test
    void aTaskKilledBesideSlurm17sMemoryNoticeIsTheOomKiller() {
        // SLURM 17.11 had no oom-kill count: the notice, then the task that died by a signal
        Finding f = classify(null, null, """
                ### select, command-id=689904228, files=242
                slurmstepd: error: Exceeded step memory limit at some point.
                slurmstepd: error: get_exit_code task 0 died by signal
                """);
        assertThat(f.kindId()).isEqualTo("oom");
        // either line alone is no memory kill: the notice is printed for jobs that complete, the death could be any signal
        assertThat(classify(JobState.COMPLETED, "0:0", "slurmstepd: error: Exceeded step memory limit at some point.\n")
                .kindId()).isNotEqualTo("oom");
        assertThat(classify(null, null, "slurmstepd: error: get_exit_code task 0 died by signal\n").kindId())
                .isNotEqualTo("oom");
    }

    @Test
    void aScancelThatFoundNoJobCancelledNothing() {
        // scancel -v: it announces the cancel, then the controller says there is no such job (it had ended)
        Finding f = classify(null, null, """
                scancel: Terminating job 123456
                scancel: error: Kill job error on job id 123456: Invalid job id specified
                """);
        assertThat(f.kindId()).isEqualTo("unknown");
        assertThat(f.others()).extracting(Finding.KindScore::kindId).doesNotContain("cancelled");
        // without the error the announced cancel is evidence
        assertThat(classify(null, null, "scancel: Terminating job 123456\n").kindId()).isEqualTo("cancelled");
        // the same two lines as a JSON record carries them, joined by escaped line breaks
        assertThat(classify(null, null, "{\"message\":\"std_err:scancel: Terminating job 123456\\nscancel: error: "
                + "Kill job error on job id 123456: Invalid job id specified\\n\"}\n").kindId()).isEqualTo("unknown");
    }

    @Test
    void aStepThatWaitsForItsAllocationIsEvidenceUntilItIsCreated() {
        String waits = """
                srun: Job 9479148 step creation temporarily disabled, retrying (Requested nodes are busy)
                srun: Job 9479148 step creation still disabled, retrying (Requested nodes are busy)
                """;
        assertThat(classify(null, null, waits).kindId()).isEqualTo("resources_unavailable");
        Finding created = classify(null, null, waits + "srun: Step created for StepId=9479148.7\nrank 0 done\n");
        assertThat(created.kindId()).isEqualTo("unknown");
        assertThat(created.others()).extracting(Finding.KindScore::kindId).doesNotContain("resources_unavailable");
        // srun stopped while the step still waited: it never ran
        assertThat(classify(JobState.TIMEOUT, "0:0", waits + "srun: Cancelled pending step for job 9479148\n")
                .others()).extracting(Finding.KindScore::kindId).contains("resources_unavailable");
    }

    @Test
    void aStepCancelAfterAnMpiAbortIsTheAbort() {
        Finding f = classify(null, null, """
                MPI_ABORT was invoked on rank 3 in communicator MPI_COMM_WORLD with errorcode 1.
                srun: Job step aborted: Waiting up to 32 seconds for job step to finish.
                slurmstepd: error: *** STEP 49022.0 ON c0 CANCELLED AT 2018-11-28T23:15:38 ***
                """);
        assertThat(f.kindId()).isEqualTo("unknown");
    }

    @Test
    void aTeardownLineAfterTheStepCancelDoesNotUndoIt() {
        // scancel: srun reports the abort and kills what is left after slurmstepd's line
        Finding f = classify(null, null, """
                epoch 3 step 1200 loss 1.93
                slurmstepd: error: *** STEP 4242.0 ON node12 CANCELLED AT 2024-05-01T10:00:00 ***
                srun: error: node12: task 0: Killed
                srun: Terminating StepId=4242.0
                """);
        assertThat(f.kindId()).isEqualTo("cancelled");
    }

    @Test
    void sallocSaysWhenTheAllocationEndedAtItsTimeLimit() {
        Finding f = classify(null, null, """
                 47%|████      | 1258/2675 [1:31:09<1:42:45,  4.35s/it]
                salloc: Job 255505 has exceeded its time limit and its allocation has been revoked.
                srun: forcing job termination
                srun: Job step aborted: Waiting up to 32 seconds for job step to finish.
                slurmstepd: error: *** STEP 255506.0 ON gpu16 CANCELLED AT 2024-12-20T14:27:46 ***
                srun: error: gpu16: task 0: Killed
                """);
        assertThat(f.kindId()).isEqualTo("time_limit");
    }

    @Test
    void submititSaysWhetherItsSignalCameAtTheTimeLimit() {
        // submitit compares its walltime with the requested time before it requeues (job_environment.py)
        Finding timedOut = classify(null, null, """
                submitit INFO (2022-07-12 04:18:45,881) - Job has timed out. Ran 1438 minutes out of requested 1440 minutes.
                submitit WARNING (2022-07-12 04:18:45,881) - Caught signal SIGUSR2 on node12: this job is timed-out.
                submitit INFO (2022-07-12 04:18:45,912) - Requeued job 60601445 (2 remaining timeouts)
                """);
        assertThat(timedOut.kindId()).isEqualTo("time_limit");
        Finding preempted = classify(null, null, """
                submitit INFO (2022-07-12 04:18:45,881) - Job has not timed out. Ran 1 minutes out of requested 20 minutes.
                submitit WARNING (2022-07-12 04:18:45,881) - Caught signal SIGHUP on node12: this job is preempted.
                """);
        assertThat(preempted.kindId()).isEqualTo("preempted");
    }

    private static final String CONDA = """
            CommandNotFoundError: Your shell has not been properly configured to use 'conda activate'.
            To initialize your shell, run

                $ conda init <SHELL_NAME>

            Currently supported shells are:
              - bash
              - zsh

            See 'conda init --help' for more information and options.

            IMPORTANT: You may need to close and restart your shell after running 'conda init'.
            """;

    @Test
    void aFailedCondaActivationThatEndsTheLogIsTheCause() {
        // conda exits 1 and nothing ran after it: the job ended at the failed activation
        assertThat(classify(null, null, CONDA).kindId()).isEqualTo("import_error");
        assertThat(classify(JobState.FAILED, "1:0", "CondaError: Run 'conda init' before 'conda activate'\n").kindId())
                .isEqualTo("import_error");
        // a post cut inside conda's message still ends with one of its lines
        assertThat(classify(null, null, """
                CommandNotFoundError: Your shell has not been properly configured to use 'conda activate'.
                To initialize your shell, run

                    $ conda init <SHELL_NAME>
                """).kindId()).isEqualTo("import_error");
    }

    @Test
    void aFailedCondaActivationFollowedByTheProgramsOutputIsOnlyAHint() {
        // the program ran in its environment for 46 minutes, then the job was cancelled
        Finding cancelled = classify(JobState.CANCELLED, null, CONDA + """
                /env/lib/python3.8/site-packages/pandas/core/series.py:726: RuntimeWarning: divide by zero
                  8%|8         | 4/50 [46:11<8:50:58, 692.57s/it]slurmstepd: error: *** JOB 41994 ON clr0708 CANCELLED AT 2022-04-14T14:03:49 ***
                """);
        assertThat(cancelled.kindId()).isEqualTo("cancelled");
        // the program ran and failed on its own data
        assertThat(classify(null, null, CONDA + """
                  File "/env/lib/python3.8/site-packages/sklearn/utils/validation.py", line 114, in _assert_all_finite
                ValueError: Input contains NaN, infinity or a value too large for dtype('float64').
                """).isUnknown()).isTrue();
        // the program ran to its end
        assertThat(classify(null, null, CONDA + "100%|##########| 50/50 [00:12<00:00, 4.01it/s]\n").isUnknown()).isTrue();
        // the base Python lacked a package: that consequence names itself
        assertThat(classify(null, null, CONDA + "ModuleNotFoundError: No module named 'rdkit'\n").kindId())
                .isEqualTo("import_error");
    }

    @Test
    void aFailedCondaDeactivateAtTheEndIsNoFailure() {
        // the same closing lines after `conda deactivate` (nothing was active): below the bar
        assertThat(classify(null, null, """
                epoch 10 loss 0.12
                CommandNotFoundError: Your shell has not been properly configured to use 'conda deactivate'.
                See 'conda init --help' for more information and options.
                """).isUnknown()).isTrue();
        // and a job that completed keeps only strong evidence
        assertThat(classify(JobState.COMPLETED, "0:0", CONDA).isUnknown()).isTrue();
    }

    @Test
    void anInvalidMpiTypeAfterThePluginFailedToLoadIsNotARequestToCorrect() {
        // SLURM 24.05's srun when its mpi/pmix plugin exists but cannot load the node's PMIx library
        String failedLoad = """
                srun: error:  mpi/pmix_v5: init: (null) [0]: mpi_pmix.c:193: pmi/pmix: can not load PMIx library
                srun: error: Couldn't load specified plugin name for mpi/pmix: Plugin init() callback failed
                srun: error: MPI: Cannot create context for mpi/pmix
                srun: error: MPI: Unable to load any plugin
                srun: error: Invalid MPI type 'pmix', --mpi=list for acceptable types
                """;
        assertThat(classify(JobState.FAILED, "1:0", failedLoad).kindId()).isEqualTo("unknown");
        // a type that names no plugin: srun says only that it could load none
        String typo = """
                srun: error: MPI: Cannot create context for mpi/pmi2x
                srun: error: MPI: Unable to load any plugin
                srun: error: Invalid MPI type 'pmi2x', --mpi=list for acceptable types
                """;
        assertThat(classify(JobState.FAILED, "1:0", typo).kindId()).isEqualTo("resources_unavailable");
    }

    @Test
    void aFiltersOwnWordsBeforeTheAccountingPolicyRefusalDecide() {
        // NeSI's filter refuses a request that does not suit the partition and returns ESLURM_ACCOUNTING_POLICY: its own
        // line names what to change, SLURM's errno text after it is only the code the filter chose
        String refused = """
                $ srun --partition=genoa2 --mem=20G --pty bash
                srun: error: The genoa2 partition does not seem suitable for this job
                srun: error: Unable to allocate resources: Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)
                """;
        assertThat(classify(null, null, refused).kindId()).isEqualTo("resources_unavailable");
        assertThat(classify(null, null, refused.replace("srun: error: ", "sbatch: error: ")
                .replace("Unable to allocate resources", "Batch job submission failed")).kindId())
                .isEqualTo("resources_unavailable");
        // the refusal alone is still the policy's
        assertThat(classify(null, null, "sbatch: error: Batch job submission failed: Job violates accounting/QOS policy "
                + "(job submit limit, user's size and/or time limits)\n").kindId()).isEqualTo("qos_limit");
    }
}
