package io.slurmwise.backend.real;

import io.slurmwise.Slurmwise;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.config.Settings;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.Partition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every scenario of the lab's manifest, read through the real backend from the real SLURM cluster: the record
 * (state, exit codes, pending reason, node list, MaxRSS), the log files the resolution chain finds, and the kind
 * the classifier decides. Fails, never skips, when the cluster is not up.
 */
@Tag("slurm")
class RealClusterScenariosTest {

    static LabCluster lab;
    static RealBackend backend;
    static Slurmwise sw;

    @BeforeAll
    static void cluster() {
        lab = LabCluster.require();
        backend = RealBackend.create(RealBackendConfig.from(Settings.fromEnvironment()));
        sw = Slurmwise.builder().backend(backend).build();
    }

    static String kindOf(Diagnosis d) {
        if (d instanceof Diagnosis.Failed f) {
            return f.finding().kindId();
        }
        if (d instanceof Diagnosis.StatusOnly so && so.pending() != null && so.pending().finding() != null) {
            return so.pending().finding().kindId();
        }
        return "none";
    }

    /** slurmctld still remembers a job that ended less than MinJobAge ago (a minute of margin either way). */
    static Optional<Boolean> controllerRemembers(JobRecord r) {
        if (r.end() == null) {
            return Optional.empty();
        }
        long age = Duration.between(r.end(), LocalDateTime.now()).toSeconds();
        long min = Long.parseLong(lab.fact("MIN_JOB_AGE"));
        if (age < min - 60) {
            return Optional.of(true);
        }
        return age > min + 360 ? Optional.of(false) : Optional.empty();
    }

    @TestFactory
    Stream<DynamicTest> everyScenarioEndToEnd() {
        return lab.scenarios().stream().map(s -> DynamicTest.dynamicTest(s.name() + " (job " + s.jobId() + ")", () -> {
            JobRecord r = backend.job(JobId.parse(s.jobId())).orElseThrow(
                    () -> new AssertionError("job " + s.jobId() + " not found by the real backend"));
            assertThat(s.names(r.id().toString())).as(r.id() + " for " + s.jobId()).isTrue();
            assertThat(r.state().name()).as("state").isEqualTo(s.expectedState());
            assertThat(r.exitCode().toString()).as("sacct exit code").isIn(s.acceptableExitCodes());
            assertThat(r.nodeList()).as("node list").isEqualTo(s.observedNodeList());
            assertThat(r.user()).isEqualTo(lab.fact("TEST_USER"));
            if (s.pending()) {
                assertThat(r.optPendingReason()).as("pending reason from squeue").contains(s.observedReason());
                assertThat(r.stdoutPath()).isNull();
            } else {
                if (s.name().equals("dep_cancelled")) {
                    // what it waited on when slurmctld cancelled it, kept from sacct's Reason
                    assertThat(r.optPendingReason()).as("reason of a job cancelled before it started").contains("Dependency");
                } else {
                    assertThat(r.optPendingReason()).isEmpty();
                }
                Optional<Boolean> remembered = controllerRemembers(r);
                if (remembered.orElse(false)) {
                    assertThat(r.exitCodeView()).as("scontrol's exit code while slurmctld remembers the job").isNotNull();
                } else if (remembered.isPresent()) {
                    assertThat(r.exitCodeView()).as("slurmctld forgot the job after MinJobAge").isNull();
                }
            }
            Diagnosis d = sw.diagnose(JobId.parse(s.jobId()));
            String kind = kindOf(d);
            if (s.expectedKind().equals("none")) {
                assertThat(d).isInstanceOf(Diagnosis.StatusOnly.class);
                assertThat(kind).isEqualTo("none");
            } else {
                assertThat(sw.taxonomy().isA(kind, s.expectedKind())).as("kind " + kind + ", want " + s.expectedKind()).isTrue();
            }
            if (d instanceof Diagnosis.Failed f && !s.observedNodeList().startsWith("None")) {
                // a job that ran has readable logs: no notice but the one naming the failed step of a COMPLETED job
                assertThat(f.notices()).as("a job that ran has readable logs")
                        .allMatch(n -> f.job().failedStep() != null && n.endsWith("diagnosed from that step"));
                assertThat(f.logs()).allSatisfy(t -> {
                    assertThat(t.problem()).isNull();
                    assertThat(Path.of(t.path())).startsWith(s.workDir()).isRegularFile();
                });
            }
        }));
    }

    @Test
    void theResolutionChainFindsTheSameRealFilesWithAndWithoutTheController(@TempDir Path dir) throws IOException {
        // a PATH whose scontrol is dead and whose other tools are the real ones: the controller is "down"
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path dead = bin.resolve("scontrol");
        Files.writeString(dead, "#!/bin/sh\necho 'slurm_load_jobs error: Unable to contact slurm controller (connect failure)' >&2\nexit 1\n");
        Files.setPosixFilePermissions(dead, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("PATH", bin + ":" + System.getenv("PATH"));
        RealBackend noController = RealBackend.create(RealBackendConfig.from(Settings.from(env)));
        int compared = 0;
        for (LabCluster.Scenario s : lab.scenarios()) {
            if (s.pending() || s.observedNodeList().startsWith("None")) {
                continue;
            }
            JobRecord full = backend.job(JobId.parse(s.jobId())).orElseThrow();
            JobRecord fallback = noController.job(JobId.parse(s.jobId())).orElseThrow();
            LogLocation a = backend.logLocation(full);
            LogLocation b = noController.logLocation(fallback);
            assertThat(b.source()).as(s.name()).isIn(LogLocation.Source.BATCH_SCRIPT, LogLocation.Source.DEFAULT);
            assertThat(b.stdout()).as(s.name() + " stdout").isEqualTo(a.stdout());
            assertThat(b.stderr()).as(s.name() + " stderr").isEqualTo(a.stderr());
            assertThat(Path.of(a.stdout())).as(s.name()).isRegularFile();
            assertThat(Path.of(a.stderr())).as(s.name()).isRegularFile();
            compared++;
        }
        assertThat(compared).isGreaterThanOrEqualTo(10);
        // the three shapes of the lab: %x-%j, SLURM's default name (stderr merged), and an array's %x-%A_%a
        JobRecord fnf = backend.job(JobId.parse(lab.scenario("file_not_found").jobId())).orElseThrow();
        assertThat(fnf.stdoutPath()).endsWith("/slurm-" + lab.scenario("file_not_found").jobId() + ".out")
                .isEqualTo(fnf.stderrPath());
        // sacct -P's separator inside a field: the record is whole (name, state, log path); the window listing
        // keeps the row too (windowsFilterByStateUserAndPartitionAndFoldSteps lists every scenario)
        LabCluster.Scenario pipe = lab.scenario("pipe_in_name");
        JobRecord piped = backend.job(JobId.parse(pipe.jobId())).orElseThrow();
        assertThat(piped.name()).isEqualTo("prep|v2 run");
        assertThat(piped.state()).isEqualTo(io.slurmwise.job.JobState.FAILED);
        assertThat(piped.stdoutPath()).endsWith("/slurm-" + pipe.jobId() + ".out");
        LabCluster.Scenario arr = lab.scenario("array_task_fail");
        JobRecord task = backend.job(JobId.parse(arr.jobId())).orElseThrow();
        assertThat(task.stderrPath()).endsWith("/array-" + arr.jobId() + ".err");
        // every pattern at once: %u in a directory, %N, %4j, %J, %2t, %n, %%
        LabCluster.Scenario pat = lab.scenario("log_patterns");
        JobRecord patterns = backend.job(JobId.parse(pat.jobId())).orElseThrow();
        assertThat(patterns.stdoutPath()).isEqualTo(pat.workDir() + "/logs-" + lab.fact("TEST_USER") + "/log_patterns."
                + lab.fact("NODE") + "." + String.format("%04d", Long.parseLong(pat.jobId())) + ".out");
        assertThat(patterns.stderrPath()).isEqualTo(pat.workDir() + "/logs-" + lab.fact("TEST_USER") + "/log_patterns."
                + pat.jobId() + ".t00.n0.%.err");
        JobRecord imp = backend.job(JobId.parse(lab.scenario("import_error").jobId())).orElseThrow();
        assertThat(imp.stderrPath()).isEqualTo(lab.scenario("import_error").workDir() + "/import_error-"
                + lab.scenario("import_error").jobId() + ".err");
    }

    @Test
    void realLogTailsCarryTheKeyLines() {
        JobRecord imp = backend.job(JobId.parse(lab.scenario("import_error").jobId())).orElseThrow();
        LogTail err = backend.logTail(imp, LogStream.STDERR, 300);
        assertThat(err.lines()).anyMatch(l -> l.contains("ModuleNotFoundError: No module named 'torch'"));
        JobRecord oom = backend.job(JobId.parse(lab.scenario("oom").jobId())).orElseThrow();
        String oomErr = String.join("\n", backend.logTail(oom, LogStream.STDERR, 300).lines());
        assertThat(oomErr).containsAnyOf("oom-kill event", "exceeded memory limit", "Exceeded job memory limit");
        JobRecord tl = backend.job(JobId.parse(lab.scenario("time_limit").jobId())).orElseThrow();
        assertThat(backend.logTail(tl, LogStream.STDERR, 5).lines()).anyMatch(l -> l.contains("DUE TO TIME LIMIT"));
    }

    /**
     * step_oom: {@code srun python3 eat_memory.py} killed for memory while the batch script goes on and exits 0. sacct
     * says COMPLETED 0:0 (DerivedExitCode 0:125) for the job and OUT_OF_MEMORY 0:125 for step .0 (cgroup mode); the
     * record stays COMPLETED and the diagnosis is oom, from that step, with a notice naming it.
     */
    @Test
    void aStepKilledForMemoryInACompletedJobIsDiagnosedFromThatStep() {
        LabCluster.Scenario s = lab.scenario("step_oom");
        JobRecord r = backend.job(JobId.parse(s.jobId())).orElseThrow();
        assertThat(r.state()).isEqualTo(JobState.COMPLETED);
        assertThat(r.exitCode()).isEqualTo(ExitCode.parse("0:0"));
        assertThat(r.failedStep()).as("the failed step from sacct's step rows").isNotNull();
        assertThat(r.failedStep().id()).isEqualTo(s.jobId() + ".0");
        if (lab.fact("MODE").equals("cgroup")) {
            assertThat(r.failedStep().describe()).isEqualTo("step " + s.jobId() + ".0 ended OUT_OF_MEMORY (exit 0:125)");
        }
        Diagnosis.Failed f = (Diagnosis.Failed) sw.diagnose(r.id());
        assertThat(f.finding().kindId()).isEqualTo("oom");
        assertThat(f.job().state()).as("the record as SLURM wrote it").isEqualTo(JobState.COMPLETED);
        assertThat(f.notices()).containsExactly("the job COMPLETED (its batch script exited 0), but "
                + r.failedStep().describe() + ": diagnosed from that step");
        assertThat(f.logs().stream().flatMap(t -> t.lines().stream()))
                .anyMatch(l -> l.contains("oom-kill event(s) in StepId=" + s.jobId() + ".0")
                        || l.contains("exceeded memory limit"));
    }

    /**
     * dep_cancelled: {@code --kill-on-invalid-dep=yes --dependency=afterok:<import_error>}. When import_error failed,
     * slurmctld cancelled it: sacct {@code CANCELLED 0:0}, no canceller named, Reason=Dependency, never started. It is
     * the dependency kind (check cancelled_on_dependency), not a user's scancel.
     */
    @Test
    void aJobSlurmctldCancelledForItsDependencyIsADependencyFailure() {
        LabCluster.Scenario s = lab.scenario("dep_cancelled");
        JobRecord r = backend.job(JobId.parse(s.jobId())).orElseThrow();
        assertThat(r.state()).isEqualTo(JobState.CANCELLED);
        assertThat(r.status().detail()).as("no 'by <uid>': no person cancelled it").isEmpty();
        assertThat(r.neverStarted()).isTrue();
        assertThat(r.optPendingReason()).contains("Dependency");
        Diagnosis.Failed f = (Diagnosis.Failed) sw.diagnose(r.id());
        assertThat(f.finding().kindId()).isEqualTo("dependency");
        assertThat(f.finding().evidence()).anySatisfy(e -> assertThat(e.text()).startsWith("State=CANCELLED by no one"
                + " while it waited on Reason=Dependency: slurmctld cancelled it"));
        // the user's own scancel of a running job stays a cancel
        assertThat(kindOf(sw.diagnose(JobId.parse(lab.scenario("cancelled").jobId())))).isEqualTo("cancelled");
    }

    /**
     * deadline_never: {@code --time=00:10:00} with a {@code --deadline} a minute ahead. slurmctld ended it DEADLINE
     * before it started (sacct DEADLINE 1:0, NodeList None assigned; a deadline already past is refused by sbatch).
     * The deadline kind, and no --time is changed.
     */
    @Test
    void aDeadlineTooNearEndsTheJobBeforeItStarts() {
        LabCluster.Scenario s = lab.scenario("deadline_never");
        JobRecord r = backend.job(JobId.parse(s.jobId())).orElseThrow();
        assertThat(r.state()).isEqualTo(JobState.DEADLINE);
        assertThat(r.neverStarted()).isTrue();
        assertThat(r.timeLimit().limit()).contains(Duration.ofMinutes(10));
        Diagnosis.Failed f = (Diagnosis.Failed) sw.diagnose(r.id());
        assertThat(f.finding().kindId()).isEqualTo("deadline");
        assertThat(f.patch().changes()).isEmpty();
        assertThat(f.patch().advice()).anySatisfy(a -> assertThat(a).contains("'s --deadline came before it could start"
                + " and finish, so no --time is changed"));
    }

    /** held: {@code sbatch --hold}. Pending with JobHeldUser, it starts once released: held, not never. */
    @Test
    void aHeldJobStartsOnceReleased() {
        LabCluster.Scenario s = lab.scenario("held");
        Diagnosis.StatusOnly so = (Diagnosis.StatusOnly) sw.diagnose(JobId.parse(s.jobId()));
        assertThat(so.job().optPendingReason()).contains("JobHeldUser");
        assertThat(so.pending().startability()).isEqualTo(io.slurmwise.diagnose.PendingReasons.Startability.HELD);
        assertThat(so.pending().meaning()).contains("scontrol release " + s.jobId());
        assertThat(so.pending().patch()).isNull();
    }

    /**
     * begin_later: {@code --begin=now+2hours}. Pending with BeginTime, it says when it starts at the earliest (scontrol's
     * EligibleTime, two hours after its submission), and is not taken for a requeue's hold (F13).
     */
    @Test
    void aJobWaitingForItsBeginSaysWhenItMayStart() {
        LabCluster.Scenario s = lab.scenario("begin_later");
        JobRecord r = backend.job(JobId.parse(s.jobId())).orElseThrow();
        io.slurmwise.backend.EligibleTime e = backend.eligibleTime(r).orElseThrow();
        assertThat(e.requeued()).isFalse();
        assertThat(Duration.between(r.submit(), e.at())).isEqualTo(Duration.ofHours(2));
        Diagnosis.StatusOnly so = (Diagnosis.StatusOnly) sw.diagnose(r.id());
        assertThat(so.pending().reason()).isEqualTo("BeginTime");
        assertThat(so.pending().meaning()).isEqualTo("its --begin time has not come yet; it starts no earlier than "
                + io.slurmwise.job.SlurmTime.iso(e.at()));
        assertThat(so.pending().startability()).isEqualTo(io.slurmwise.diagnose.PendingReasons.Startability.WILL);
    }

    /**
     * time_override: the script says {@code #SBATCH --time=00:10:00}, scenarios.sh submitted it with
     * {@code sbatch --time=00:01:00}, which overrides the line: TIMEOUT at TimeLimit 00:01:00. The patch edits the
     * script's line, and its advice says first that the job ran with another value, which the command line must change.
     */
    @Test
    void aCommandLineTimeOverridesTheScriptsLine() {
        LabCluster.Scenario s = lab.scenario("time_override");
        JobRecord r = backend.job(JobId.parse(s.jobId())).orElseThrow();
        assertThat(r.timeLimit().limit()).contains(Duration.ofMinutes(1));
        assertThat(backend.batchScript(r).orElseThrow()).contains("#SBATCH --time=00:10:00");
        Diagnosis.Failed f = (Diagnosis.Failed) sw.diagnose(r.id());
        assertThat(f.finding().kindId()).isEqualTo("time_limit");
        assertThat(f.patch()).isInstanceOf(io.slurmwise.patch.Patch.Suggested.class);
        assertThat(f.patch().advice().get(0)).startsWith("Job " + s.jobId() + " ran with --time 00:01:00, not its"
                + " script's 00:10:00: the sbatch command line");
    }

    /**
     * deadline_cut: its script asks --time=00:10:00 --time-min=00:01:00; sbatch's --deadline was 110 s ahead, so
     * slurmctld cut TimeLimit to 00:01:00 and it ended TIMEOUT before the deadline. While slurmctld remembers it,
     * scontrol's Deadline= and TimeMin= are read, and the advice says the limit was cut to the deadline, not that a
     * command line overrode it (F6).
     */
    @Test
    void aLimitCutToFitTheDeadlineIsSaidSoNotAnOverride() {
        LabCluster.Scenario s = lab.scenario("deadline_cut");
        JobRecord r = backend.job(JobId.parse(s.jobId())).orElseThrow();
        assertThat(r.state()).isEqualTo(JobState.TIMEOUT);
        assertThat(r.timeLimit().limit()).contains(Duration.ofMinutes(1));
        assertThat(backend.batchScript(r).orElseThrow()).contains("#SBATCH --time=00:10:00").contains("#SBATCH --time-min=00:01:00");
        Diagnosis.Failed f = (Diagnosis.Failed) sw.diagnose(r.id());
        assertThat(f.finding().kindId()).isEqualTo("time_limit");
        assertThat(f.patch().advice()).as("never an override").noneMatch(a -> a.contains("the sbatch command line"));
        if (controllerRemembers(r).orElse(true) && r.exitCodeView() != null) {
            assertThat(r.timeMin()).isEqualTo(Duration.ofMinutes(1));
            assertThat(r.deadline()).isAfter(r.start().plusMinutes(1)).isBefore(r.start().plusMinutes(2));
            assertThat(r.timeLimitCutToDeadline(Duration.ofMinutes(10))).isTrue();
            assertThat(f.patch().advice().get(0)).startsWith("Job " + s.jobId() + " ran with --time 00:01:00, not its"
                    + " script's 00:10:00, because slurmctld cut the limit to the time left before its --deadline "
                    + io.slurmwise.job.SlurmTime.iso(r.deadline()));
        }
        // the job a command line really overrode has no deadline: its advice stays the override's
        JobRecord override = backend.job(JobId.parse(lab.scenario("time_override").jobId())).orElseThrow();
        assertThat(override.deadline()).isNull();
    }

    @Test
    void bothExitCodeViewsOfTheSegfaultInAChild() {
        JobRecord segv = backend.job(JobId.parse(lab.scenario("segfault").jobId())).orElseThrow();
        assertThat(segv.exitCode()).isEqualTo(ExitCode.parse("11:0"));
        assertThat(segv.exitCode().sacctWrappedSignal()).contains(11);
        if (controllerRemembers(segv).orElse(false)) {
            assertThat(segv.exitCodeView()).isEqualTo(ExitCode.parse("139:0"));
            assertThat(segv.exitCodeView().shellSignal()).contains(11);
        }
        JobRecord self = backend.job(JobId.parse(lab.scenario("segfault_signal").jobId())).orElseThrow();
        assertThat(self.exitCode()).isEqualTo(ExitCode.parse("0:11"));
    }

    @Test
    void theVersionProbeAndTheFieldListMatchTheCluster() {
        SlurmVersion v = backend.version();
        assertThat(v.toString()).isEqualTo(lab.fact("SLURM_VERSION").replaceAll("^(\\d+)\\.(\\d)\\.", "$1.0$2."));
        assertThat(v.toString()).startsWith(lab.fact("SLURM_VERSION").substring(0, 2));
        // on 22.05 the field list must not name StdOut: the whole call would fail
        assertThat(v.hasSacctStdio()).isEqualTo(v.compareTo(SlurmVersion.SACCT_STDIO) >= 0);
    }

    @Test
    void windowsFilterByStateUserAndPartitionAndFoldSteps() {
        JobQuery all = JobQuery.window(LocalDateTime.now().minusDays(1), LocalDateTime.now().plusMinutes(1));
        Map<String, JobRecord> listed = backend.jobs(all).collect(Collectors.toMap(j -> j.id().toString(), j -> j, (a, b) -> a));
        for (LabCluster.Scenario s : lab.scenarios()) {
            JobRecord r = listed.values().stream().filter(j -> s.names(j.id().toString())).findFirst()
                    .orElseThrow(() -> new AssertionError("the window does not list " + s.name()));
            if (s.pending()) {
                assertThat(r.optPendingReason()).contains(s.observedReason());
            }
        }
        JobRecord completes = listed.get(lab.scenario("completes").jobId());
        assertThat(completes.maxRss()).as("MaxRSS from the steps (the completes job holds 100 MB)").isNotNull();
        assertThat(completes.maxRss().bytes()).isGreaterThan(50L << 20);
        List<JobRecord> failed = backend.jobs(all.withStates(Set.of(JobState.FAILED)).withUser(lab.fact("TEST_USER"))).toList();
        assertThat(failed).isNotEmpty().allMatch(j -> j.state() == JobState.FAILED);
        assertThat(failed).extracting(j -> j.id().toString()).contains(lab.scenario("import_error").jobId(),
                lab.scenario("array_task_fail").jobId(), lab.scenario("rejected_mem").jobId());
        List<JobRecord> gpu = backend.jobs(all.withPartition("gpuA100x4")).toList();
        assertThat(gpu).isNotEmpty().allMatch(j -> j.partition().equals("gpuA100x4"));
        assertThat(gpu).extracting(j -> j.id().toString()).contains(lab.scenario("gpu_completes").jobId());
        assertThat(gpu.stream().filter(j -> j.id().toString().equals(lab.scenario("gpu_completes").jobId()))
                .findFirst().orElseThrow().gpus()).isEqualTo(2);
        // the job that waits for ever (PartitionTimeLimit) has no allocation: its GPUs are the ones it asked for,
        // from ReqTRES (--gres=gpu:a100:1; the lab accounts gres/gpu untyped: billing=1,cpu=1,gres/gpu=1,mem=100M,node=1),
        // so its advice is a GPU job's, not a CPU job's
        JobRecord waiting = listed.get(lab.scenario("partition_time_limit").jobId());
        assertThat(waiting.allocTres().values()).isEmpty();
        assertThat(waiting.gpus()).isEqualTo(1);
    }

    @Test
    void partitionsAndTheirLimits() {
        List<Partition> parts = backend.partitions();
        assertThat(parts).extracting(Partition::name).containsExactly("cpu", "gpuA100x4");
        assertThat(parts.get(0).isDefault()).isTrue();
        assertThat(parts.get(0).maxTime().limit()).contains(Duration.ofHours(2));
        assertThat(parts.get(1).maxTime().limit()).contains(Duration.ofMinutes(30));
        assertThat(parts.get(1).gres()).contains("gpu:a100:4");
        // cpu's own QOS (setup.sh's QOS=labcpu), which sinfo does not show: read from scontrol show partition
        assertThat(parts).extracting(Partition::qos).containsExactly("labcpu", "");
        // and the QOSes they admit: the lab sets no AllowQos, so scontrol prints AllowQos=ALL for both
        assertThat(parts).extracting(p -> p.qosAccess().describe()).containsExactly("AllowQos=ALL", "AllowQos=ALL");
        // and DefaultTime=NONE: no default time of their own (a job without --time gets the MaxTime)
        assertThat(parts).allMatch(p -> p.defaultTime().limit().isEmpty());
    }

    /** scenarios.sh's maintenance window, 30 days ahead, read back from {@code scontrol show reservation}. */
    @Test
    void aMaintenanceWindowIsReadBack() {
        java.time.LocalDateTime now = java.time.LocalDateTime.now();
        assertThat(backend.reservations()).anySatisfy(r -> {
            assertThat(r.name()).isEqualTo("slurmwise_maint");
            assertThat(r.maintenance()).isTrue();
            assertThat(r.start()).isAfter(now.plusDays(29)).isBefore(now.plusDays(31));
            assertThat(Duration.between(r.start(), r.end())).isEqualTo(Duration.ofHours(2));
            assertThat(r.nodes()).isNotEmpty();
        });
    }

    /** setup.sh adds QOS short (MaxWall 00:10:00); slurmdbd makes normal, without a MaxWall, with the cluster. */
    @Test
    void qosAndTheirMaxWall() {
        List<io.slurmwise.job.Qos> qos = backend.qos();
        assertThat(io.slurmwise.job.Qos.named(qos, "short")).hasValueSatisfying(q ->
                assertThat(q.maxWallLimit()).contains(Duration.ofMinutes(10)));
        assertThat(io.slurmwise.job.Qos.named(qos, "normal")).hasValueSatisfying(q ->
                assertThat(q.maxWallLimit()).isEmpty());
    }

    /**
     * setup.sh's account exhausted has GrpTRESMins=cpu=0 (its job pends with AssocGrpCPUMinutesLimit): read from sshare
     * as spent; the lab's own account has no limit, and an account without a row is unknown.
     */
    @Test
    void anAccountsAllocationAndItsUse() {
        io.slurmwise.job.AccountUsage spent = backend.accountUsage("exhausted").orElseThrow();
        assertThat(spent.limits()).containsEntry("cpu", 0L);
        assertThat(spent.spent()).contains("cpu");
        assertThat(spent.pendingReason()).contains("AssocGrpCPUMinutesLimit");
        assertThat(backend.accountUsage("research")).hasValueSatisfying(u -> assertThat(u.spent()).isEmpty());
        assertThat(backend.accountUsage("no-such-account")).isEmpty();
    }

    /**
     * setup.sh grants the lab's user QOS short besides normal with its account research: read back from sacctmgr's
     * associations, as advice naming a QOS is checked against them; a user without associations has none.
     */
    @Test
    void aUsersAssociationsAndTheirQoses() {
        String user = lab.fact("TEST_USER");
        List<io.slurmwise.job.Association> rows = backend.associations(user);
        assertThat(io.slurmwise.job.Association.allowedQos(rows, user, "research", "cpu"))
                .hasValueSatisfying(q -> assertThat(q).contains("normal", "short").doesNotContain("labcpu"));
        assertThat(rows).extracting(io.slurmwise.job.Association::account).contains("research", "exhausted");
        assertThat(backend.associations("nosuchuser")).isEmpty();
    }

    @Test
    void unknownJobsAreNotFound() {
        assertThat(backend.job(JobId.parse("999999"))).isEmpty();
        assertThat(sw.diagnose("999999")).isInstanceOf(Diagnosis.NotFound.class);
    }

    @Test
    void batchScriptsComeFromTheCluster() {
        LabCluster.Scenario s = lab.scenario("import_error");
        String script = backend.batchScript(backend.job(JobId.parse(s.jobId())).orElseThrow()).orElseThrow();
        assertThat(script).startsWith("#!/bin/bash").contains("#SBATCH --job-name=import_error").contains("python3 train.py");
        assertThat(script).isEqualTo(Files.exists(s.workDir().resolve("import_error.sbatch"))
                ? readQuietly(s.workDir().resolve("import_error.sbatch")) : script);
    }

    static String readQuietly(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
