package io.slurmwise.classify;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobState;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ClassifierTest {

    static final Classifier CLASSIFIER = new Classifier(Taxonomy.load(null));

    private static Finding classify(JobFacts facts, String stderr) {
        return CLASSIFIER.classify(facts, List.of(LogTail.of(LogStream.STDERR, "job.err", stderr)));
    }

    private static JobFacts state(JobState s, String exit) {
        return JobFacts.NONE.withState(s).withExitCode(exit == null ? null : ExitCode.parse(exit));
    }

    @Test
    void cudaOomOnOneRankIsTheRootOfNcclWatchdogTimeoutsOnTheOthers() {
        Finding f = classify(state(JobState.FAILED, "1:0"), """
                [rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 79.15 GiB
                [rank0]:[E ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4201, OpType=ALLREDUCE) ran for 600023 milliseconds before timing out.
                [rank1]:[E ProcessGroupNCCL.cpp:616] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4201, OpType=ALLREDUCE) ran for 600031 milliseconds before timing out.
                torch.distributed.DistBackendError: NCCL communicator was aborted on rank 1.
                srun: error: gpua017: task 3: Exited with exit code 1
                """);
        assertThat(f.kindId()).isEqualTo("cuda_oom");
        assertThat(f.others()).extracting(Finding.KindScore::kindId).contains("nccl");
        assertThat(f.evidence()).first().satisfies(e -> {
            assertThat(e.line()).isEqualTo(1);
            assertThat(e.lineInFile()).isTrue();
            assertThat(e.text()).contains("CUDA out of memory");
        });
    }

    @Test
    void anLmodErrorIsTheRootOfTheImportErrorThatFollows() {
        Finding f = classify(state(JobState.FAILED, "1:0"), """
                Lmod has detected the following error:  The following module(s) are unknown: "cuda/12.9"
                Traceback (most recent call last):
                  File "/home/bob/train.py", line 3, in <module>
                    import torch
                ModuleNotFoundError: No module named 'torch'
                """);
        assertThat(f.kindId()).isEqualTo("module_load");
    }

    @Test
    void noiseCarriedBesideAnEventInOneRecordHidesOnlyItself() {
        // a JSON record quotes stderr with escaped line breaks: cgroup v1's failcnt notice (oom's ignore list) and the
        // kill event it was printed with; the notice is noise where it is, the event stays evidence
        Finding both = classify(JobFacts.NONE, "{\"stderr\": \"slurmstepd: error: Exceeded step memory limit at some point.\\n"
                + "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=42.batch. Some of the step tasks have been OOM"
                + " Killed.\\n\"}\n");
        assertThat(both.kindId()).isEqualTo("oom");
        assertThat(both.evidence()).first().satisfies(e -> assertThat(e.text()).contains("oom-kill event"));
        // the notice carried alone is still noise
        Finding notice = classify(JobFacts.NONE, "{\"stderr\": \"slurmstepd: error: Exceeded step memory limit at some point.\\n"
                + "done\\n\"}\n");
        assertThat(notice.isUnknown()).isTrue();
    }

    @Test
    void aWrappersExitStatus137IsOutOfMemoryUnlessAnEventThatEndedTheJobCameFirst() {
        // Nextflow's task wrapper outlived the SIGKILL of its child: the memory cgroup's kill, not SLURM's (oom.md)
        Finding alone = classify(JobFacts.NONE, """
                Caused by:
                  Process `align (1)` terminated with an error exit status (137)
                """);
        assertThat(alone.kindId()).isEqualTo("oom");
        assertThat(alone.confidence()).isLessThan(0.6); // one line, a status: said as likely, not sure
        Finding afterLimit = classify(JobFacts.NONE, """
                slurmstepd: error: *** JOB 4242 ON node12 CANCELLED AT 2024-05-01T10:00:00 DUE TO TIME LIMIT ***
                Process `align (1)` terminated with an error exit status (137)
                """);
        assertThat(afterLimit.kindId()).isEqualTo("time_limit");
        assertThat(afterLimit.others()).extracting(Finding.KindScore::kindId).doesNotContain("oom");
        // LSF's job report is the job's own status, which LSF's own kills end with too
        assertThat(classify(JobFacts.NONE, "Exited with exit code 137.\n\nResource usage summary:\n").isUnknown()).isTrue();
    }

    /** SLURM's partition refusals read to "this": a wrapper's one-line report arrives cut at a width (DRMAA's). */
    @Test
    void aPartitionRefusalCutAtAWidthIsStillRead() {
        assertThat(classify(JobFacts.NONE, "drmaa.errors.DeniedByDrmException: code 17: slurm_submit_batch_job error:"
                + " User's group not permitted to use this partitio\n").kindId()).isEqualTo("resources_unavailable");
        assertThat(classify(JobFacts.NONE, "sbatch: error: Batch job submission failed: Job's QOS not permitted to use"
                + " this parti\n").kindId()).isEqualTo("qos_limit");
        assertThat(classify(JobFacts.NONE, "sbatch: error: Batch job submission failed: Job's account not permitted to use"
                + " this\n").kindId()).isEqualTo("allocation_exhausted");
    }

    @Test
    void benignNcclAndPmixNoiseIsNotAFailureCause() {
        Finding f = classify(JobFacts.NONE, """
                gpua017:1234:1290 [0] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory
                gpua017:1234:1290 [0] NCCL INFO NET/IB : No device found.
                gpua017:1234:1290 [0] NCCL WARN NET/Plugin: Could not find: libnccl-net.so
                pmix_psec_munge: munge_decode failed (warning only)
                epoch 10/10 done, loss 1.23
                """);
        assertThat(f.isUnknown()).isTrue();
    }

    @Test
    void fallbacksAndWarningsThatLetTheJobGoOnAreNoise() {
        Finding f = classify(JobFacts.NONE, """
                slurmstepd: error: Unable to create TMPDIR [/tmp/user/123]: Permission denied
                slurmstepd: error: Setting TMPDIR to /tmp
                /usr/lib/python3/dist-packages/torch/cuda/__init__.py:107: UserWarning: CUDA initialization: Found no NVIDIA driver on your system.
                tput: No value for $TERM and no -T specified
                [W socket.cpp:601] [c10d] The client socket has failed to connect to [localhost]:29500 (errno: 99 - Cannot assign requested address).
                epoch 3 done
                """);
        assertThat(f.isUnknown()).as(f.toString()).isTrue();
        // the same driver message raised as an error is still a CUDA error
        assertThat(classify(JobFacts.NONE, "RuntimeError: Found no NVIDIA driver on your system.\n").kindId())
                .isEqualTo("cuda_error");
    }

    @Test
    void gadisJobfsKillIsAFullDiskNotTheSigtermItEndsWith() {
        // NCI Gadi's PBS line (payu-org/payu#587), then the usage block whose exit status is the kill's SIGTERM
        Finding f = classify(JobFacts.NONE, """
                Job 143560526.gadi-pbs killed due to exceeding jobfs quota. Quota: 15.0GB, Used: 15.0GB, Host: gadi-cpu-spr-0578

                ======================================================================================
                                  Resource Usage on 2025-06-21 18:33:30:
                   Job Id:             143560526.gadi-pbs
                   Exit Status:        271 (Linux Signal 15 SIGTERM Termination)
                   JobFS requested:    60.0GB                 JobFS used: 11.74GB
                ======================================================================================
                """);
        assertThat(f.kindId()).isEqualTo("disk_quota");
        assertThat(f.evidence()).first().satisfies(e -> assertThat(e.text()).contains("exceeding jobfs quota"));
        // the usage block alone reports a jobfs request, not a kill: no evidence of a full disk
        Finding usage = classify(JobFacts.NONE, """
                   JobFS requested:    60.0GB                 JobFS used: 11.74GB
                """);
        assertThat(usage.kindId()).isNotEqualTo("disk_quota");
    }

    @Test
    void aJavaFileHelpersFileNotFoundIsAMissingInputNotItsStackTrace() {
        // BigDataScript's Gpr.reader (the same helper as SnpEff's), restarting from a checkpoint path that is not there
        Finding f = classify(state(JobState.FAILED, "1:0"), """
                Picked up JAVA_TOOL_OPTIONS: -XX:+UseContainerSupport
                Exception in thread "main" java.lang.RuntimeException: File not found '/nesi/nobackup/u/PEMA/analysis_folder/trimming.chp'
                \tat org.bds.util.Gpr.reader(Gpr.java:553)
                \tat org.bds.serialize.BdsSerializer.load(BdsSerializer.java:271)
                \tat org.bds.Bds.main(Bds.java:185)
                """);
        assertThat(f.kindId()).isEqualTo("file_not_found");
        assertThat(f.evidence()).first().satisfies(e -> assertThat(e.text()).contains("File not found '"));
    }

    @Test
    void exceededStepMemoryOnACompletedJobIsNoise() {
        Finding f = classify(state(JobState.COMPLETED, "0:0"),
                "slurmstepd: error: Exceeded step memory limit at some point.\nall done\n");
        assertThat(f.isUnknown()).isTrue();
    }

    /**
     * The README's exit-code rule: a signal ({@code 0:11}) or scontrol's {@code 139:0} decides alone; sacct's
     * {@code 11:0}, which a program's own {@code exit 11} also gives, is weaker evidence that needs a log line beside it.
     */
    @Test
    void sacctsElevenIsWeakerEvidenceThanASignal() {
        java.util.function.Function<String, JobFacts> exit = e -> new JobFacts(JobState.FAILED, ExitCode.parse(e), null,
                null, null, null, null, "cn001");
        assertThat(classify(exit.apply("0:11"), "").kindId()).isEqualTo("segfault");
        assertThat(classify(exit.apply("139:0"), "").kindId()).isEqualTo("segfault");
        assertThat(classify(exit.apply("11:0"), "").isUnknown()).isTrue();
    }

    @Test
    void aBareKilledBecomesOomOnlyWithMaxRssAtTheLimit() {
        JobFacts atLimit = new JobFacts(JobState.FAILED, ExitCode.parse("0:9"), DataSize.tryParse("31.8G").orElseThrow(),
                DataSize.tryParse("32G").orElseThrow(), null, null, null, "gpua017");
        assertThat(classify(atLimit, "Killed\n").kindId()).isEqualTo("oom");
        JobFacts farBelow = new JobFacts(JobState.FAILED, ExitCode.parse("0:9"), DataSize.tryParse("2G").orElseThrow(),
                DataSize.tryParse("32G").orElseThrow(), null, null, null, "gpua017");
        assertThat(classify(farBelow, "Killed\n").kindId()).isNotEqualTo("oom");
    }

    @Test
    void aKilledThatEndsTheLogIsProbableOomButNotTheSameWordMidLog() {
        // the kernel's SIGKILL and nothing after it: no cancel, time limit or preemption message followed
        assertThat(classify(JobFacts.NONE, "loading shards\n100%|#####| 205944/205944 [18:54<00:00]\nKilled\n").kindId())
                .isEqualTo("oom");
        // glued to a progress bar that had no newline, and bash's job-control form
        assertThat(classify(JobFacts.NONE, " 31%|####  | 331/1063 [01:06<03:59,  3.06it/s]Killed").kindId()).isEqualTo("oom");
        assertThat(classify(JobFacts.NONE, "epoch 5\n/bin/bash: line 27: 318 Killed sh start.sh\n\n").kindId())
                .isEqualTo("oom");
        // the script went on after the kill: a sub-step died, nothing says why
        Finding midLog = classify(JobFacts.NONE, "Killed\nretrying with smaller chunks\nall done\n");
        assertThat(midLog.isUnknown()).isTrue();
        Finding evidence = classify(JobFacts.NONE, "a\nb\nKilled\n");
        assertThat(evidence.evidence()).anySatisfy(e -> assertThat(e.line()).isEqualTo(3));
    }

    @Test
    void aKilledAtTheEndDoesNotOutweighTheAccountingRecord() {
        // a completed job: only strong evidence of a hidden crash may call it a failure
        assertThat(classify(state(JobState.COMPLETED, "0:0"), "done\nKilled\n").isUnknown()).isTrue();
        // SLURM's own time-limit message names the cause
        assertThat(classify(state(JobState.TIMEOUT, "0:0"),
                "slurmstepd: error: *** JOB 9 ON c001 CANCELLED AT 2026-11-20T14:02:11 DUE TO TIME LIMIT ***\nKilled\n")
                .kindId()).isEqualTo("time_limit");
        // a measured peak far below the limit outweighs a log ending in Killed
        JobFacts farBelow = new JobFacts(JobState.FAILED, ExitCode.parse("0:9"), DataSize.tryParse("2G").orElseThrow(),
                DataSize.tryParse("32G").orElseThrow(), null, null, null, "c001");
        assertThat(classify(farBelow, "step 1\nKilled\n").kindId()).isNotEqualTo("oom");
    }

    @Test
    void onlyReqNodeNotAvailFormsThatNameAnObstacleAreAResourcesProblem() {
        for (String obstacle : List.of("ReqNodeNotAvail", "ReqNodeNotAvail, UnavailableNodes:gpu[001-004]",
                "ReqNodeNotAvail, Reserved for maintenance", "ReqNodeNotAvail,_Reserved_for_maintenance")) {
            JobFacts f = new JobFacts(JobState.PENDING, ExitCode.parse("0:0"), null, null, null, null, obstacle, null);
            assertThat(classify(f, "").kindId()).as(obstacle).isEqualTo("resources_unavailable");
            assertThat(classify(JobFacts.NONE, "JobState=PENDING Reason=" + obstacle.replace(' ', '_') + " Dependency=(null)")
                    .kindId()).as("scontrol text " + obstacle).isEqualTo("resources_unavailable");
        }
        // the scheduler's waits: busy nodes, or nodes held for higher-priority partitions or for the next job
        for (String wait : List.of("Nodes required for job are DOWN, DRAINED or reserved for jobs in higher priority partitions",
                "ReqNodeNotAvail, May be reserved for other job")) {
            JobFacts f = new JobFacts(JobState.PENDING, ExitCode.parse("0:0"), null, null, null, null, wait, null);
            assertThat(classify(f, "").isUnknown()).as(wait).isTrue();
            assertThat(classify(JobFacts.NONE, "  1 compute ping user PD 0:00 2 (" + wait + ")").isUnknown())
                    .as("squeue text " + wait).isTrue();
        }
    }

    @Test
    void otherRuntimesOwnWordsForTheCommonFailuresAreRecognised() {
        java.util.Map<String, String> lines = new java.util.LinkedHashMap<>();
        lines.put("fatal error: runtime: out of memory", "oom");
        lines.put("Out of memory!", "oom");
        lines.put("g++: fatal error: Killed signal terminated program cc1plus", "oom");
        lines.put("RuntimeError: The NVIDIA driver on your system is too old (found version 11040).", "cuda_error");
        lines.put("AssertionError: Torch not compiled with CUDA enabled", "cuda_error");
        lines.put("node01:1234:1290 [0] NCCL WARN NET/IB : Got completion from peer 10.0.0.2<47345> with error 12,"
                + " opcode 0, len 0, vendor err 129", "nccl");
        lines.put("RuntimeError: [enforce fail at inline_container.cc:337] . unexpected pos 1536 vs 1430", "disk_quota");
        lines.put("sbatch: error: Unable to open file job.sh", "file_not_found");
        lines.put("srun: error: Task launch for StepId=1234.0 failed on node node02: Communication connection failure",
                "node_fail");
        lines.put("=>> PBS: job killed: mem 10485760kb exceeded limit 8388608kb", "oom");
        lines.put("TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.", "oom");
        lines.put("slurmstepd: error: Exceeded job memory limit", "oom");
        lines.put("RuntimeError: DataLoader worker (pid 12345) is killed by signal: Killed.", "oom");
        lines.put("torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 1234)", "oom");
        lines.put("EnvironmentNameNotFound: Could not find conda environment: myenv", "import_error");
        lines.put("ORTE has lost communication with a remote daemon.", "node_fail");
        lines.put("sbatch: error: Batch job submission failed: Access/permission denied", "permission");
        lines.forEach((line, kind) -> assertThat(classify(JobFacts.NONE, line + "\n").kindId()).as(line).isEqualTo(kind));
        // the benign cgroup notice keeps its exception, and conda's init hint followed by the program's output stays a
        // weak hint (EventOrderTest: when it ends the log)
        assertThat(classify(JobFacts.NONE, "slurmstepd: error: Exceeded step memory limit at some point.\n").isUnknown())
                .isTrue();
        assertThat(classify(JobFacts.NONE, "CondaError: Run 'conda init' before 'conda activate'\nepoch 1 loss 2.31\n")
                .isUnknown()).isTrue();
    }

    @Test
    void theStateAloneDecidesWhenTheLogIsEmpty() {
        assertThat(classify(state(JobState.TIMEOUT, "0:0"), "").kindId()).isEqualTo("time_limit");
        assertThat(classify(state(JobState.OUT_OF_MEMORY, "0:125"), "").kindId()).isEqualTo("oom");
        assertThat(classify(state(JobState.NODE_FAIL, "0:0"), "").kindId()).isEqualTo("node_fail");
        assertThat(classify(state(JobState.PREEMPTED, "0:0"), "").kindId()).isEqualTo("preempted");
        assertThat(classify(state(JobState.CANCELLED, "0:0"), "").kindId()).isEqualTo("cancelled");
        assertThat(classify(state(JobState.FAILED, "1:0"), "").isUnknown()).isTrue();
    }

    @Test
    void aCancelledStateWithATimeLimitMessageIsATimeLimit() {
        Finding f = classify(state(JobState.CANCELLED, "0:15"),
                "slurmstepd: error: *** JOB 77 ON c001 CANCELLED AT 2026-11-20T14:02:11 DUE TO TIME LIMIT ***\n");
        assertThat(f.kindId()).isEqualTo("time_limit");
    }

    @Test
    void elapsedAtTheLimitSupportsTimeLimit() {
        JobFacts f = new JobFacts(JobState.FAILED, ExitCode.parse("0:15"), null, null, Duration.ofHours(12).plusSeconds(3),
                Duration.ofHours(12), null, "c001");
        assertThat(classify(f, "").kindId()).isEqualTo("time_limit");
    }

    @Test
    void pendingReasonsMapToSchedulingKinds() {
        JobFacts dep = new JobFacts(JobState.PENDING, null, null, null, null, null, "DependencyNeverSatisfied", "None assigned");
        assertThat(classify(dep, "").kindId()).isEqualTo("dependency");
        JobFacts part = new JobFacts(JobState.PENDING, null, null, null, null, null, "PartitionTimeLimit", null);
        assertThat(classify(part, "").kindId()).isEqualTo("resources_unavailable");
        JobFacts qos = new JobFacts(JobState.PENDING, null, null, null, null, null, "QOSMaxWallDurationPerJobLimit", null);
        assertThat(classify(qos, "").kindId()).isEqualTo("qos_limit");
        JobFacts alloc = new JobFacts(JobState.PENDING, null, null, null, null, null, "AssocGrpBillingMinutes", null);
        assertThat(classify(alloc, "").kindId()).isEqualTo("allocation_exhausted");
    }

    @Test
    void refinementsWinOverTheirParent() {
        Finding f = classify(state(JobState.FAILED, "132:0"),
                "/var/spool/slurmd/job123/slurm_script: line 9: 4242 Illegal instruction     (core dumped) ./solver\n");
        assertThat(f.kindId()).isEqualTo("illegal_instruction");
        assertThat(f.kind().parent()).isEqualTo("segfault");
        assertThat(classify(JobFacts.NONE, "RuntimeError: CUDA error: no kernel image is available for execution on the device\n")
                .kindId()).isEqualTo("no_kernel_image");
        assertThat(classify(JobFacts.NONE, "./app: error while loading shared libraries: libfftw3.so.3: cannot open shared object file: No such file or directory\n")
                .kindId()).isEqualTo("missing_shared_library");
    }

    @Test
    void hostileInputIsHandledWithoutErrors() {
        byte[] binary = new byte[1 << 20];
        new java.util.Random(1).nextBytes(binary);
        Finding f = CLASSIFIER.classify(JobFacts.NONE, List.of(new LogTail(LogStream.STDOUT, "x", binary, 1, binary.length, null)));
        assertThat(f).isNotNull();
        String longLine = "A".repeat(10 << 20) + " CUDA out of memory. Tried to allocate 1 GiB\n";
        Finding g = CLASSIFIER.classify(JobFacts.NONE, List.of(new LogTail(LogStream.STDERR, "x",
                longLine.getBytes(StandardCharsets.UTF_8), 1, longLine.length(), null)));
        assertThat(g.kindId()).isEqualTo("cuda_oom");
        assertThat(g.evidence().get(0).text().length()).isLessThanOrEqualTo(Evidence.MAX_TEXT + 3);
        assertThat(g.evidence().get(0).text()).startsWith("...").endsWith("Tried to allocate 1 GiB");
    }

    @Test
    void everyKindHasANoteWithCauseAndFixes() {
        Taxonomy t = CLASSIFIER.taxonomy();
        assertThat(t.kinds()).extracting(k -> k.id()).contains("oom", "cuda_oom", "cuda_error", "time_limit", "nccl",
                "import_error", "module_load", "disk_quota", "permission", "file_not_found", "segfault", "qos_limit",
                "allocation_exhausted", "dependency", "resources_unavailable", "node_fail", "preempted", "cancelled",
                "unknown", "illegal_instruction", "no_kernel_image", "shm_bus_error", "missing_shared_library");
        t.kinds().forEach(k -> {
            assertThat(k.note().section("Cause")).as(k.id() + " Cause").isPresent();
            assertThat(k.note().fixes()).as(k.id() + " Fixes").isNotEmpty();
        });
    }

    @Test
    void aKindsIgnoreListAppliesToEveryRuleTheLastLineIncluded() {
        io.slurmwise.taxonomy.FailureKind k = io.slurmwise.taxonomy.NoteParser.parse("site_kill.md", """
                ---
                id: site_kill
                title: Killed by the site
                category: runtime
                signatures:
                  - pattern: 'reaper killed'
                    weight: 0.9
                  - pattern: 'reaped$'
                    weight: 0.9
                    last_line: true
                ignore:
                  - 'dry run'
                ---
                # Killed by the site
                """);
        Taxonomy t = Taxonomy.of(List.of(k, Taxonomy.load(null).unknown()));
        Classifier c = new Classifier(t);
        assertThat(c.classifyText(JobFacts.NONE, "reaper killed pid 1\n").kindId()).isEqualTo("site_kill");
        assertThat(c.classifyText(JobFacts.NONE, "x\nreaped").kindId()).isEqualTo("site_kill");
        // the same lines marked as a dry run are noise for this kind, whichever rule matched them
        assertThat(c.classifyText(JobFacts.NONE, "dry run: reaper killed pid 1\n").kindId()).isEqualTo("unknown");
        assertThat(c.classifyText(JobFacts.NONE, "x\ndry run: reaped").kindId()).isEqualTo("unknown");
    }

    @Test
    void aShebangEndingInACarriageReturnIsAMissingInterpreterAsTheFileOrTheTerminalShowsIt() {
        // the file holds the \r; a terminal that returned to the line's start shows only what followed it
        assertThat(classify(JobFacts.NONE, "/usr/bin/env: 'bash\r': No such file or directory\n").kindId()).isEqualTo("file_not_found");
        assertThat(classify(JobFacts.NONE, "': No such file or directory\n").kindId()).isEqualTo("file_not_found");
        assertThat(classify(JobFacts.NONE, ": No such file or directory\n").kindId()).isEqualTo("file_not_found");
        // a file named in the line stays the weak, generic ENOENT
        assertThat(classify(JobFacts.NONE, "input.dat: No such file or directory\n").isUnknown()).isTrue();
    }
}
