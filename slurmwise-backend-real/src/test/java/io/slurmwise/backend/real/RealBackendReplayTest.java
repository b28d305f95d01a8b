package io.slurmwise.backend.real;

import io.slurmwise.backend.BackendException;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.JobLookup;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.Partition;
import io.slurmwise.testing.Captures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The whole backend over fake SLURM commands that replay real 22.05 outputs (the lab's work dir is moved into a
 * temporary folder, which holds the job's real log lines). Runs anywhere; the same paths against the real
 * cluster are in RealClusterScenariosTest.
 */
class RealBackendReplayTest {

    static final String LAB_WORK = "/var/tmp/slurmwise-lab/work/run-20261130-014531";

    @TempDir
    Path dir;
    Path work;
    FakeSlurm fake;

    @BeforeEach
    void setUp() throws IOException {
        work = Files.createDirectories(dir.resolve("work"));
        fake = new FakeSlurm(dir);
    }

    /** The user running the tests: the replayed logs are written here by it, so it owns them as the job's user. */
    static final String ME = System.getProperty("user.name");

    String moved(String capture) {
        return RealCaptures.output(capture).replace(LAB_WORK, work.toString()).replace("|slurmtest|", "|" + ME + "|");
    }

    /** sacct answers from captures; slurmctld has forgotten every job (MinJobAge passed). */
    void forgetfulController(String sacctVersion) {
        Path job = fake.file("job-53_2.psv", moved("sacct_job_array_task.txt"));
        Path pending = fake.file("job-46.psv", moved("sacct_job_pending.txt"));
        Path unknown = fake.file("job-unknown.psv", moved("sacct_job_unknown.txt"));
        Path parent = fake.file("job-53.psv", moved("sacct_job_array_parent.txt"));
        Path script = fake.file("script.txt", moved("sacct_batch_script.txt"));
        fake.tool("sacct", """
                case "$*" in
                  --version) echo '%s';;
                  "-j 53_2 --batch-script") /bin/cat '%s';;
                  "-P --delimiter="?"| -j 53_2 -o "*) /bin/cat '%s';;
                  "-P --delimiter="?"| -j 46 -o "*) /bin/cat '%s';;
                  "-P --delimiter="?"| -j 53 -o "*) /bin/cat '%s';;
                  *) /bin/cat '%s';;
                esac""".formatted(sacctVersion, script, job, pending, parent, unknown));
        fake.tool("scontrol", """
                if [ "$1" = write ]; then echo 'job script retrieval failed: Invalid job id specified' >&2; exit 0; fi
                echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1""");
        fake.tool("squeue", "echo '46|DependencyNeverSatisfied'");
    }

    void logs() throws IOException {
        Files.writeString(work.resolve("array-53_2.out"), "task 2 of array job 53 (job 61)\ntask 2 writes to results/ (root rwxr-xr-x)\n");
        Files.writeString(work.resolve("array-53_2.err"), "/var/spool/slurm/d/job00061/slurm_script: line 11: results/task_2.csv: Permission denied\n");
    }

    @Test
    void anArrayTaskWhoseControllerForgotItFindsItsLogsThroughTheBatchScript() throws IOException {
        forgetfulController("slurm-wlm 22.05.8");
        logs();
        RealBackend b = RealBackend.create(fake.config());
        JobRecord job = b.job(JobId.parse("53_2")).orElseThrow();
        assertThat(job.state()).isEqualTo(JobState.FAILED);
        assertThat(job.exitCode()).isEqualTo(ExitCode.parse("1:0"));
        assertThat(job.exitCodeView()).as("the controller forgot it").isNull();
        assertThat(job.maxRss()).as("from the .batch step").isEqualTo(DataSize.tryParse("3324K", DataSize.KIB).orElseThrow());
        assertThat(job.stdoutPath()).isEqualTo(work + "/array-53_2.out");
        assertThat(job.stderrPath()).isEqualTo(work + "/array-53_2.err");
        assertThat(b.logLocation(job).source()).isEqualTo(LogLocation.Source.BATCH_SCRIPT);
        LogTail err = b.logTail(job, LogStream.STDERR, 300);
        assertThat(err.problem()).isNull();
        assertThat(err.lines()).singleElement().asString().endsWith("Permission denied");
        List<String> calls = fake.calls();
        assertThat(calls.get(0)).isEqualTo("sacct --version");
        assertThat(calls.get(1)).startsWith("sacct -P --delimiter=^_| -j 53_2 -o JobID,").endsWith(",JobIDRaw").doesNotContain("StdOut");
        assertThat(calls.subList(2, calls.size())).containsExactly("scontrol show job 53_2",
                "scontrol write batch_script 53_2 -", "sacct -j 53_2 --batch-script");
    }

    /**
     * {@code sacct -j 3000088_50} lists no row while task 50 waits in {@code 3000088_[50-99]} (slurmdbd selects by the
     * task's own id, which the pending row does not have): the lookup asks for the array and finds the row there.
     */
    @Test
    void aTaskInAPendingArrayRangeIsFoundInTheArraysRows() throws IOException {
        String pending = moved("sacct_job_pending.txt");
        Path header = fake.file("header.psv", pending.lines().findFirst().orElseThrow() + "\n");
        Path array = fake.file("array.psv", pending.replace("\n46|dependency|", "\n3000088_[50-99]|sweep|"));
        fake.tool("sacct", """
                case "$*" in
                  --version) echo 'slurm-wlm 22.05.8';;
                  "-P --delimiter="?"| -j 3000088 -o "*) /bin/cat '%s';;
                  *) /bin/cat '%s';;
                esac""".formatted(array, header));
        fake.tool("squeue", "echo '3000088_[50-99]|Resources'");
        RealBackend b = RealBackend.create(fake.config());
        JobLookup lookup = b.lookup(JobId.parse("3000088_50"));
        assertThat(lookup).isInstanceOfSatisfying(JobLookup.Found.class, f -> {
            assertThat(f.job().id().toString()).isEqualTo("3000088_[50-99]");
            assertThat(f.job().state()).isEqualTo(JobState.PENDING);
            assertThat(f.job().optPendingReason()).contains("Resources");
        });
        assertThat(fake.calls()).filteredOn(c -> c.startsWith("sacct -P")).extracting(c -> c.replaceAll(" -o .*", ""))
                .containsExactly("sacct -P --delimiter=^_| -j 3000088_50", "sacct -P --delimiter=^_| -j 3000088");
        // a task the array does not have is still unknown
        assertThat(b.lookup(JobId.parse("3000088_100"))).isInstanceOf(JobLookup.Missing.class);
    }

    @Test
    void logReadsStayOnTheJobsOwnFiles() throws IOException, InterruptedException {
        forgetfulController("slurm-wlm 22.05.8");
        logs();
        RealBackend b = RealBackend.create(fake.config());
        JobRecord job = b.job(JobId.parse("53_2")).orElseThrow();
        LogTail forged = b.logTail(job.toBuilder().stderrPath("/etc/passwd").build(), LogStream.STDERR, 10);
        assertThat(forged.problem()).contains("refusing to read /etc/passwd").contains("not the job's stderr file")
                .contains(work + "/array-53_2.err");
        assertThat(forged.content()).isEmpty();
        // a record made up by a caller still gets the cluster's paths, never its own
        JobRecord bare = JobRecord.builder(JobId.parse("53_2")).user(ME).build();
        assertThat(b.logTail(bare, LogStream.STDOUT, 10).lines()).first().asString().startsWith("task 2 of array");
        // a pipe where the log should be is not read (it could block forever)
        Files.delete(work.resolve("array-53_2.out"));
        Process mkfifo = new ProcessBuilder("mkfifo", work.resolve("array-53_2.out").toString()).start();
        assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();
        LogTail fifo = b.logTail(job, LogStream.STDOUT, 10);
        assertThat(fifo.problem()).contains("is not a regular file").contains("pipe")
                .contains("(path from #SBATCH --output/--error in the batch script)");
        // a log that the job's record points at but that belongs to another account is refused
        Files.delete(work.resolve("array-53_2.err"));
        Files.createSymbolicLink(work.resolve("array-53_2.err"), Path.of("/etc/passwd"));
        JobRecord other = job.toBuilder().user(ME + "-not").build();
        assertThat(b.logTail(other, LogStream.STDERR, 10).problem()).contains("refusing to read")
                .contains("not to the job's user " + ME + "-not");
        assertThat(b.logTail(other, LogStream.STDERR, 10).content()).isEmpty();
        Files.delete(work.resolve("array-53_2.err"));
        assertThat(b.logTail(job, LogStream.STDERR, 10).problem()).contains("does not exist")
                .contains("path from #SBATCH");
    }

    @Test
    void pendingJobsGetTheirReasonFromSqueue() {
        forgetfulController("slurm-wlm 22.05.8");
        RealBackend b = RealBackend.create(fake.config());
        JobRecord job = b.job(JobId.parse("46")).orElseThrow();
        assertThat(job.state()).isEqualTo(JobState.PENDING);
        assertThat(job.optPendingReason()).as("sacct says Dependency; squeue knows better").contains("DependencyNeverSatisfied");
        assertThat(fake.calls()).contains("squeue -h -o %i|%r -j 46").noneMatch(c -> c.startsWith("scontrol"));
        assertThatThrownBy(() -> b.logLocation(job)).hasMessageContaining("is PENDING").hasMessageContaining("no log files yet");
    }

    @Test
    void unknownIdsAreMissingAndArrayIdsListTheirTasksFromOneSacctCall() {
        forgetfulController("slurm-wlm 22.05.8");
        RealBackend b = RealBackend.create(fake.config());
        assertThat(b.lookup(JobId.parse("999999"))).isInstanceOf(JobLookup.Missing.class);
        assertThat(b.job(JobId.parse("53"))).as("the id of a whole array is no single job").isEmpty();
        assertThat(b.lookup(JobId.parse("53"))).isInstanceOfSatisfying(JobLookup.Array.class, a ->
                assertThat(a.tasks()).extracting(j -> j.id() + " " + j.state())
                        .containsExactly("53_1 COMPLETED", "53_2 FAILED", "53_3 COMPLETED"));
        fake.clearCalls();
        try (io.slurmwise.Slurmwise sw = io.slurmwise.Slurmwise.builder().backend(b).build()) {
            assertThat(sw.diagnose("53")).isInstanceOfSatisfying(io.slurmwise.diagnose.Diagnosis.Failed.class, f -> {
                assertThat(f.job().id().toString()).isEqualTo("53_2");
                assertThat(f.notices()).anyMatch(n -> n.startsWith("array job 53 has 3 tasks (2 COMPLETED, 1 FAILED)"));
            });
        }
        // the whole array costs one accounting query; the task is completed by the controller and its script
        assertThat(fake.calls()).filteredOn(c -> c.startsWith("sacct") && c.contains(" -o "))
                .singleElement().asString().startsWith("sacct -P --delimiter=^_| -j 53 -o JobID,");
    }

    @Test
    void theControllersViewAddsTheShellExitCodeAndThePartlyExpandedPaths() throws IOException {
        Path job = fake.file("job.psv", moved("sacct_job_segfault.txt"));
        Path sc = fake.file("sc.txt", moved("scontrol_show_job_segfault.txt"));
        fake.tool("sacct", "case \"$1\" in --version) echo 'slurm-wlm 22.05.8';; *) /bin/cat '" + job + "';; esac");
        fake.tool("scontrol", "/bin/cat '" + sc + "'");
        JobRecord r = RealBackend.create(fake.config()).job(JobId.parse("49")).orElseThrow();
        assertThat(r.exitCode()).isEqualTo(ExitCode.parse("11:0"));
        assertThat(r.exitCodeView()).isEqualTo(ExitCode.parse("139:0"));
        assertThat(r.exitCodeView().killSignal()).contains(11);
        assertThat(r.stderrPath()).isEqualTo(work + "/segfault-49.err");
        assertThat(fake.calls()).doesNotContain("scontrol write batch_script 49 -");
    }

    /**
     * F6, the real lab's deadline_cut (322): its script asks --time=00:10:00 --time-min=00:01:00, sbatch was given a
     * --deadline 110 s ahead, and slurmctld cut TimeLimit to 00:01:00; it ended TIMEOUT. It read "ran with --time
     * 00:01:00, not its script's 00:10:00: the sbatch command line ... set it". scontrol's Deadline= and TimeMin= (sacct
     * has neither) now say the limit was cut to the deadline, and no override is claimed.
     */
    @Test
    void aLimitCutToFitTheDeadlineIsNoCommandLineOverride() throws IOException {
        String run = "/var/tmp/slurmwise-lab/work/run-20261207-145310";
        Path job = fake.file("job-322.psv", RealCaptures.output("sacct_job_deadline_cut.txt").replace(run, work.toString())
                .replace("|slurmtest|", "|" + ME + "|"));
        Path sc = fake.file("sc-322.txt", RealCaptures.output("scontrol_show_job_deadline_cut.txt").replace(run, work.toString()));
        Path script = fake.file("script-322.txt", RealCaptures.output("scontrol_write_batch_script_deadline_cut.txt"));
        fake.tool("sacct", "case \"$1\" in --version) echo 'slurm-wlm 22.05.8';; *) /bin/cat '" + job + "';; esac");
        fake.tool("scontrol", "if [ \"$1\" = write ]; then /bin/cat '" + script + "'; else /bin/cat '" + sc + "'; fi");
        Files.writeString(work.resolve("deadline_cut-322.out"), "job 322: 600 steps of 1 s, at most 10 minutes, at least 1\n"
                + "step 86/600\nstep 87/600\nstep 88/600\n");
        Files.writeString(work.resolve("deadline_cut-322.err"), "slurmstepd-vm: error: *** JOB 322 ON vm CANCELLED AT"
                + " 2026-12-07T14:56:03 DUE TO TIME LIMIT ***\n");
        RealBackend b = RealBackend.create(fake.config());
        JobRecord r = b.job(JobId.parse("322")).orElseThrow();
        assertThat(r.deadline()).isEqualTo(LocalDateTime.of(2026, 12, 7, 14, 56, 23));
        assertThat(r.timeMin()).isEqualTo(java.time.Duration.ofMinutes(1));
        assertThat(r.timeLimitCutToDeadline(java.time.Duration.ofMinutes(10))).isTrue();
        try (io.slurmwise.Slurmwise sw = io.slurmwise.Slurmwise.builder().backend(b).build()) {
            io.slurmwise.diagnose.Diagnosis.Failed f = (io.slurmwise.diagnose.Diagnosis.Failed) sw.diagnose("322");
            assertThat(f.finding().kindId()).isEqualTo("time_limit");
            assertThat(f.patch().advice()).noneMatch(a -> a.contains("the sbatch command line"));
            assertThat(f.patch().advice().get(0)).startsWith("Job 322 ran with --time 00:01:00, not its script's 00:10:00,"
                    + " because slurmctld cut the limit to the time left before its --deadline 2026-12-07T14:56:23 (its"
                    + " --time-min 00:01:00 lets it start with less than its --time); no command line overrode it.");
        }
    }

    /**
     * F13, from the real lab's captures: a job waiting for its own --begin (begin_later, 317) says when it starts at the
     * earliest; a job slurmctld requeued (323, 8 s after scontrol requeue: sacct PENDING with a new Submit, scontrol
     * Reason=BeginTime, Restarts=1, EligibleTime two minutes on) is not said to wait for a --begin its user never gave.
     */
    @Test
    void aBeginTimeIsShownAndARequeuesHoldIsNotCalledTheUsersBegin() {
        String run = "/var/tmp/slurmwise-lab/work/run-20261207-145310";
        Path begin = fake.file("job-317.psv", RealCaptures.output("sacct_job_begin.txt").replace(run, work.toString())
                .replace("|slurmtest|", "|" + ME + "|"));
        Path requeued = fake.file("job-323.psv", RealCaptures.output("sacct_job_requeued.txt").replace("|slurmtest|", "|" + ME + "|"));
        Path scBegin = fake.file("sc-317.txt", RealCaptures.output("scontrol_show_job_begin.txt"));
        Path scRequeued = fake.file("sc-323.txt", RealCaptures.output("scontrol_show_job_requeued.txt"));
        fake.tool("sacct", "case \"$*\" in --version) echo 'slurm-wlm 22.05.8';; *\"-j 317 \"*) /bin/cat '" + begin
                + "';; *) /bin/cat '" + requeued + "';; esac");
        fake.tool("scontrol", "case \"$*\" in *317*) /bin/cat '" + scBegin + "';; *) /bin/cat '" + scRequeued + "';; esac");
        fake.tool("squeue", "case \"$*\" in *317*) echo '317|BeginTime';; *) echo '323|BeginTime';; esac");
        RealBackend b = RealBackend.create(fake.config());
        try (io.slurmwise.Slurmwise sw = io.slurmwise.Slurmwise.builder().backend(b).build()) {
            io.slurmwise.diagnose.Diagnosis.StatusOnly later = (io.slurmwise.diagnose.Diagnosis.StatusOnly) sw.diagnose("317");
            assertThat(later.pending().reason()).isEqualTo("BeginTime");
            assertThat(later.pending().meaning()).isEqualTo("its --begin time has not come yet; it starts no earlier than"
                    + " 2026-12-07T16:53:14");
            io.slurmwise.diagnose.Diagnosis.StatusOnly again = (io.slurmwise.diagnose.Diagnosis.StatusOnly) sw.diagnose("323");
            assertThat(again.pending().reason()).isEqualTo("BeginTime");
            assertThat(again.pending().meaning()).isEqualTo("SLURM requeued it (Restarts=1) and holds a requeued job back"
                    + " a while before it runs again; that is not a --begin of yours: it starts no earlier than"
                    + " 2026-12-07T15:13:32").doesNotContain("its --begin time");
        }
    }

    /** 23.02+: StdOut/StdErr and SubmitLine are asked of sacct; its raw patterns are expanded; '|' in SubmitLine is harmless. */
    @Test
    void newerReleasesAskSacctForTheLogPaths() throws IOException {
        String header = String.join("|", SacctFields.forJob(new SlurmVersion(23, 2, 7)));
        String row = "7|train|" + ME + "|proj|gpu|normal|FAILED|1:0|0:0|2026-11-01T10:00:00|2026-11-01T10:00:05|"
                + "2026-11-01T10:10:00|00:09:55|01:00:00|4G||8|billing=8,cpu=8,mem=4G,node=1|billing=8,cpu=8,mem=4G,node=1|gpu03|"
                + "00:10:00|0|" + work
                + "|" + work + "/logs/%x-%j.out|" + work + "/logs/%x-%j.err|None|7|sbatch --wrap=python a.py | tee x";
        assertThat(header.split("\\|")).hasSize(row.split("\\|").length - 1);
        Path out = fake.file("job.psv", header + "\n" + row + "\n7.batch|batch||proj|||FAILED|1:0||2026-11-01T10:00:05|"
                + "2026-11-01T10:00:05|2026-11-01T10:10:00|00:09:55|||2G|8|cpu=8,mem=4G,node=1||gpu03|00:10:00|0|||||7.batch|\n");
        fake.tool("sacct", "case \"$1\" in --version) echo 'slurm 23.02.7';; *) /bin/cat '" + out + "';; esac");
        fake.tool("scontrol", "echo 'scontrol: error: some unexpected failure' >&2; exit 1");
        Files.createDirectories(work.resolve("logs"));
        Files.writeString(work.resolve("logs/train-7.err"), "Traceback (most recent call last):\nValueError: bad\n");
        RealBackend b = RealBackend.create(fake.config());
        JobRecord r = b.job(JobId.parse("7")).orElseThrow();
        assertThat(fake.calls().get(1)).contains(",StdOut,StdErr,").endsWith(",JobIDRaw,SubmitLine");
        assertThat(r.maxRss()).isEqualTo(DataSize.tryParse("2G", DataSize.KIB).orElseThrow());
        assertThat(r.stdoutPath()).isEqualTo(work + "/logs/train-7.out");
        assertThat(b.logLocation(r).source()).isEqualTo(LogLocation.Source.SACCT);
        assertThat(b.logTail(r, LogStream.STDERR, 5).lines()).containsExactly("Traceback (most recent call last):", "ValueError: bad");
        assertThat(r.exitCodeView()).as("scontrol failed: its view is only an addition").isNull();
        assertThat(fake.calls()).noneMatch(c -> c.contains("batch_script") || c.contains("--batch-script"));
    }

    @Test
    void aDeadControllerStillLetsFailedJobsBeDiagnosedButNotPendingOnes() throws IOException {
        forgetfulController("slurm-wlm 22.05.8");
        logs();
        fake.tool("scontrol", "exec /bin/sleep 30").tool("squeue", "exec /bin/sleep 30");
        RealBackend b = RealBackend.create(fake.config().withTimeouts(Duration.ofSeconds(30), Duration.ofMillis(600)));
        JobRecord failed = b.job(JobId.parse("53_2")).orElseThrow();
        assertThat(failed.stderrPath()).isEqualTo(work + "/array-53_2.err");
        assertThat(fake.calls()).containsSubsequence("scontrol show job 53_2", "sacct -j 53_2 --batch-script")
                .doesNotContain("scontrol write batch_script 53_2 -");
        assertThatThrownBy(() -> b.job(JobId.parse("46")))
                .hasMessageContaining("job 46 is PENDING in accounting, but only slurmctld knows why it waits")
                .hasMessageContaining("did not answer within 600 ms");
    }

    @Test
    void windowsPassBothEndsAndFoldStepsAndReasons() {
        windowsPassBothEndsAndFoldStepsAndReasons0();
    }

    /**
     * Jobs cancelled before they were ever eligible are in no sacct -S/-E window (it selects by eligible time): the
     * real lab's dep_cancelled (314, cancelled by slurmctld when its afterok parent failed, Eligible Unknown) was
     * listed by no window, nor a held job cancelled (291) nor one cancelled while its --begin was ahead (292). sacct -s
     * CANCELLED has them (its real 22.05 answer); the ones eligible in the window (293, 296) came with the window.
     */
    @Test
    void jobsCancelledBeforeTheyWereEligibleAreListed() {
        String header = String.join("|", SacctFields.forWindow(new SlurmVersion(22, 5, 8)));
        Path alloc = fake.file("alloc.psv", header + "\n"
                + "296|cancelled|slurmtest|research|cpu|normal|CANCELLED by 1001|0:0|0:0|2026-12-07T14:53:13|2026-12-07T14:53:14|2026-12-07T14:53:21|00:00:07|00:10:00|100M||1|billing=1,cpu=1,mem=100M,node=1|billing=1,cpu=1,mem=100M,node=1|vm|00:00:00||/w|None\n");
        Path cancelled = fake.file("cancelled.psv", RealCaptures.output("sacct_window_cancelled.txt"));
        fake.tool("sacct", "case \"$*\" in --version) echo 'slurm-wlm 22.05.8';; \"-X -P --delimiter=\"?\"| -s CANCELLED \"*) /bin/cat '"
                + cancelled + "';; *) /bin/cat '" + alloc + "';; esac");
        fake.tool("squeue", "true");
        RealBackend b = RealBackend.create(fake.config());
        LocalDateTime since = LocalDateTime.of(2026, 12, 7, 14, 53);
        LocalDateTime until = LocalDateTime.of(2026, 12, 7, 14, 54);
        List<JobRecord> jobs = b.jobs(JobQuery.window(since, until)).toList();
        assertThat(jobs).extracting(j -> j.id().toString()).containsExactly("296", "291", "292", "314");
        JobRecord dep = jobs.get(3);
        assertThat(dep.state()).isEqualTo(JobState.CANCELLED);
        assertThat(dep.optPendingReason()).contains("Dependency");
        assertThat(dep.noNodeAssigned()).isTrue();
        // a window of other states does not ask
        int asked = fake.calls().size();
        assertThat(b.jobs(JobQuery.window(since, until).withStates(Set.of(JobState.FAILED))).toList()).isEmpty();
        assertThat(fake.calls().subList(asked, fake.calls().size())).noneMatch(c -> c.contains("-s CANCELLED"));
        // nor one asked by state: sacct -s CANCELLED of the window itself selects by state, never-eligible jobs too
        asked = fake.calls().size();
        b.jobs(JobQuery.window(since, until).withStates(Set.of(JobState.CANCELLED))).toList();
        assertThat(fake.calls().subList(asked, fake.calls().size())).noneMatch(c -> c.contains(",Eligible"))
                .anyMatch(c -> c.endsWith("-s CANCELLED"));
    }

    private void windowsPassBothEndsAndFoldStepsAndReasons0() {
        String header = String.join("|", SacctFields.forWindow(new SlurmVersion(22, 5, 8)));
        Path alloc = fake.file("alloc.psv", header + "\n"
                + "45|import_error|slurmtest|research|cpu|normal|FAILED|1:0|0:0|2026-11-30T01:45:36|2026-11-30T01:45:50|2026-11-30T01:45:51|00:00:01|00:05:00|200M||1|billing=1,cpu=1,mem=200M,node=1|billing=1,cpu=1,mem=200M,node=1|vm|00:00.040|0|/w|None\n"
                + step(header, "45.batch", "3412K") + step(header, "45.extern", "592K")
                + "55|partition_time_limit|slurmtest|research|gpuA100x4|normal|PENDING|0:0|0:0|2026-11-30T01:45:36|Unknown|Unknown|00:00:00|01:00:00|100M||1||billing=1,cpu=1,gres/gpu=1,mem=100M,node=1|None assigned|00:00:00|0|/w|PartitionConfig\n");
        // the dependency job was never eligible: sacct's window omits it, sacct -j has it (real 22.05 output)
        Path dependency = fake.file("dep.psv", RealCaptures.output("sacct_job_pending.txt"));
        fake.tool("sacct", "case \"$*\" in --version) echo 'slurm-wlm 22.05.8';; \"-X -P --delimiter=\"?\"| -j 46 \"*) /bin/cat '" + dependency
                + "';; *) /bin/cat '" + alloc + "';; esac");
        fake.tool("squeue", "echo '46|DependencyNeverSatisfied'; echo '55|PartitionTimeLimit'");
        RealBackend b = RealBackend.create(fake.config());
        LocalDateTime since = LocalDateTime.of(2026, 11, 1, 0, 0);
        LocalDateTime until = LocalDateTime.of(2026, 11, 30, 12, 0, 30);
        List<JobRecord> jobs = b.jobs(JobQuery.window(since, until)).toList();
        // in sacct's order, the never-eligible job (known from squeue, asked by id) after the window
        assertThat(jobs).extracting(j -> j.id().toString()).containsExactly("45", "55", "46");
        assertThat(jobs.get(0).maxRss()).isEqualTo(DataSize.tryParse("3412K", DataSize.KIB).orElseThrow());
        assertThat(jobs.get(2).optPendingReason()).contains("DependencyNeverSatisfied");
        assertThat(jobs.get(1).optPendingReason()).as("squeue's reason, not sacct's stale one").contains("PartitionTimeLimit");
        // a pending job has no allocation yet: its GPUs are the ones it asked for (ReqTRES as the lab's 22.05.8
        // prints it for --gres=gpu:a100:1), not 0
        assertThat(jobs.get(1).gpus()).isEqualTo(1);
        assertThat(jobs.get(0).gpus()).isZero();
        List<String> calls = fake.calls();
        // one sacct for the window, steps included (folded for MaxRSS): nothing of the window is held aside
        assertThat(calls.subList(1, calls.size())).containsExactly("squeue -h -o %i|%r -t PENDING",
                "sacct -P --delimiter=^_| -o " + header.replace('|', ',')
                        + " -S 2026-11-01T00:00:00 -E 2026-11-30T12:00:30 -a",
                "sacct -X -P --delimiter=^_| -j 46 -o " + header.replace('|', ','),
                // and the jobs cancelled before they were eligible, which the window omits too
                "sacct -X -P --delimiter=^_| -s CANCELLED -o " + header.replace('|', ',') + ",Eligible"
                        + " -S 2026-11-01T00:00:00 -E 2026-11-30T12:00:30 -a");
        List<JobRecord> failed = b.jobs(JobQuery.window(since, until).withStates(Set.of(JobState.FAILED))
                .withUser(ME).withPartition("cpu")).toList(); // a user this host knows, as the backend checks
        assertThat(failed).extracting(j -> j.id().toString()).containsExactly("45");
        assertThat(fake.calls()).anyMatch(c -> c.startsWith("sacct -P --delimiter=^_|") && c.endsWith("-u " + ME + " -r cpu -s FAILED"));
        List<JobRecord> gpuPending = b.jobs(JobQuery.window(since, until).withPartition("gpuA100x4")
                .withStates(Set.of(JobState.PENDING))).toList();
        assertThat(gpuPending).extracting(j -> j.id().toString()).as("46 is in partition cpu").containsExactly("55");
        // a state sacct cannot filter on is filtered here, without -s
        assertThat(b.jobs(JobQuery.window(since, until).withStates(Set.of(JobState.COMPLETING))).toList()).isEmpty();
    }

    /** A step row of a window's output: its id and MaxRSS, every other field empty. */
    static String step(String header, String id, String maxRss) {
        List<String> names = List.of(header.split("\\|"));
        String[] f = new String[names.size()];
        java.util.Arrays.fill(f, "");
        f[0] = id;
        f[names.indexOf("MaxRSS")] = maxRss;
        return String.join("|", f) + "\n";
    }

    @Test
    void partitionsFromSinfo() {
        fake.printing("sinfo", RealCaptures.output("sinfo_format.txt"), "", 0);
        List<Partition> parts = RealBackend.create(fake.config()).partitions();
        assertThat(parts).extracting(Partition::name).containsExactly("cpu", "gpuA100x4");
        assertThat(parts.get(0).isDefault()).isTrue();
        assertThat(parts.get(1).maxTime().limit()).contains(Duration.ofMinutes(30));
        assertThat(parts.get(1).gres()).isEqualTo("gpu:a100:4");
        // no scontrol to ask (PATH holds only the fake tools): the partitions as sinfo gave them, own QOS unknown
        assertThat(parts).extracting(Partition::qos).containsExactly("", "");
        assertThat(fake.calls()).containsExactly("sinfo -o %P|%l|%D|%c|%m|%G|%a");
    }

    /**
     * sinfo has no field for a partition's own QOS: {@code scontrol show partition}'s {@code QoS=} gives it (the lab's
     * capture, with cpu given a QOS), {@code QoS=N/A} none.
     */
    @Test
    void partitionsOwnQosFromScontrol() {
        fake.printing("sinfo", RealCaptures.output("sinfo_format.txt"), "", 0);
        fake.printing("scontrol", RealCaptures.output("scontrol_partition.txt").replaceFirst("QoS=N/A", "QoS=labcpu")
                .replaceFirst("AllowQos=ALL", "AllowQos=normal,labcpu"), "", 0);
        List<Partition> parts = RealBackend.create(fake.config()).partitions();
        assertThat(parts).extracting(Partition::name, Partition::qos)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("cpu", "labcpu"),
                        org.assertj.core.groups.Tuple.tuple("gpuA100x4", ""));
        // and the QOSes each admits: cpu only normal and labcpu, gpuA100x4 all (the capture's AllowQos=ALL)
        assertThat(parts.get(0).qosAccess().refuses("short")).isTrue();
        assertThat(parts.get(0).qosAccess().admits("normal")).hasValue(true);
        assertThat(parts.get(1).qosAccess().admits("short")).hasValue(true);
        assertThat(fake.calls()).containsExactly("sinfo -o %P|%l|%D|%c|%m|%G|%a", "scontrol show partition");
        // scontrol failing says nothing of the partitions' QOS: they stay as sinfo gave them
        fake.printing("scontrol", "", "slurm_load_partitions: Unexpected message received\n", 1);
        assertThat(RealBackend.create(fake.config()).partitions()).extracting(Partition::qos).containsExactly("", "");
        assertThat(RealBackend.create(fake.config()).partitions()).extracting(p -> p.qosAccess().known())
                .containsExactly(false, false);
    }

    /**
     * {@code scontrol show reservation}: a maintenance window with its times, flags and nodes; "No reservations in
     * the system" is none; an answer that is no reservation list is a garbled-answer error naming it.
     */
    @Test
    void reservationsFromScontrol() {
        fake.printing("scontrol", """
                ReservationName=maint StartTime=2026-12-09T06:00:00 EndTime=2026-12-09T18:00:00 Duration=12:00:00
                   Nodes=vm NodeCnt=1 CoreCnt=8 Features=(null) PartitionName=(null) Flags=MAINT,SPEC_NODES
                   TRES=cpu=8
                   Users=root Groups=(null) Accounts=(null) Licenses=(null) State=INACTIVE BurstBuffer=(null) Watts=n/a
                   MaxStartDelay=(null)

                """, "", 0);
        List<io.slurmwise.job.Reservation> rs = RealBackend.create(fake.config()).reservations();
        assertThat(rs).singleElement().satisfies(r -> {
            assertThat(r.name()).isEqualTo("maint");
            assertThat(r.maintenance()).isTrue();
            assertThat(r.nodes()).isEqualTo("vm");
            assertThat(r.partition()).isEmpty();
            assertThat(r.start()).isEqualTo(java.time.LocalDateTime.of(2026, 12, 9, 6, 0));
        });
        assertThat(fake.calls()).containsExactly("scontrol show reservation");
        fake.printing("scontrol", "No reservations in the system\n", "", 0);
        assertThat(RealBackend.create(fake.config()).reservations()).isEmpty();
        fake.printing("scontrol", "ReservationName=x StartTime=soon EndTime=later\n", "", 0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RealBackend.create(fake.config()).reservations())
                .isInstanceOf(SlurmCommandException.class).hasMessageContaining("scontrol show reservation` printed"
                        + " reservation 'x' has a StartTime or EndTime that is no date");
    }

    /**
     * An account's allocation is read once for a while (a watch over many jobs of the account starts sshare once)
     * and read again after {@link RealBackend#ACCOUNT_READ_AGE}: a long-lived MCP server or watch sees an allocation
     * renewed while it runs. The lab's sshare answer for its account exhausted, then the same account renewed.
     */
    @Test
    void accountAllocationIsReadAgainWhenItsReadIsOld() {
        Path spent = fake.file("spent.txt", "exhausted||cpu=0|cpu=0,mem=0,energy=0,node=0,billing=0|cpu=0\n"
                + "exhausted|slurmtest||cpu=0,mem=0,energy=0,node=0,billing=0|cpu=0\n");
        Path renewed = fake.file("renewed.txt", "exhausted||cpu=600000|cpu=0,mem=0,energy=0,node=0,billing=0|cpu=0\n"
                + "exhausted|slurmtest||cpu=0,mem=0,energy=0,node=0,billing=0|cpu=0\n");
        Path answer = fake.file("answer.txt", "");
        fake.tool("sshare", "/bin/cat '" + answer + "'");
        java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(1_000L);
        RealBackend b = RealBackend.create(fake.config(), null, now::get);
        copy(spent, answer);
        assertThat(b.accountUsage("exhausted")).hasValueSatisfying(u -> assertThat(u.spent()).isPresent());
        copy(renewed, answer);
        now.addAndGet(RealBackend.ACCOUNT_READ_AGE.toNanos() - 1);
        assertThat(b.accountUsage("exhausted")).as("read again within the age: the first answer")
                .hasValueSatisfying(u -> assertThat(u.spent()).isPresent());
        assertThat(fake.calls()).filteredOn(l -> l.startsWith("sshare -n")).hasSize(1);
        now.addAndGet(1);
        assertThat(b.accountUsage("exhausted")).as("the read is old: sshare asked again, the allocation renewed")
                .hasValueSatisfying(u -> assertThat(u.spent()).isEmpty());
        assertThat(fake.calls()).filteredOn(l -> l.startsWith("sshare -n")).hasSize(2);
    }

    /** A dependency given on sbatch's command line is in no script: slurmctld's Dependency= holds it (22.05 capture). */
    @Test
    void aQueuedJobsDependencyIsReadFromSlurmctld() {
        fake.printing("scontrol", RealCaptures.output("scontrol_show_job_pending_array_reason.txt"), "", 0);
        RealBackend b = RealBackend.create(fake.config());
        JobRecord job = JobRecord.builder(JobId.parse("46")).build();
        assertThat(b.dependency(job)).contains("afterok:45(failed)");
        assertThat(fake.calls()).containsExactly("scontrol show job 46");
        // slurmctld has forgotten the job: nothing to say
        fake.printing("scontrol", "", "slurm_load_jobs error: Invalid job id specified\n", 1);
        assertThat(RealBackend.create(fake.config()).dependency(job)).isEmpty();
    }

    /** An answer that is not SLURM's table is an error saying what came and how to look, never a guess. */
    @Test
    void aGarbledAllocationOrAssociationAnswerIsAnErrorThatSaysSo() {
        fake.printing("sshare", "<html>proxy error</html>\n", "", 0);
        fake.printing("sacctmgr", "<html>proxy error</html>\n", "", 0);
        RealBackend b = RealBackend.create(fake.config());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> b.accountUsage("genomics"))
                .isInstanceOf(SlurmCommandException.class)
                .hasMessageContaining("`sshare -n -P -o Account,User,GrpTRESMins,GrpTRESRaw,TRESRunMins -A genomics` printed"
                        + " no share table (line 1 is no sshare row")
                .hasMessageContaining("check that the sshare on PATH is SLURM's (`sshare --version`)");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> b.associations("alice"))
                .isInstanceOf(SlurmCommandException.class)
                .hasMessageContaining("`sacctmgr -n -P show assoc where user=alice format=Account,User,Partition,QOS`"
                        + " printed no association table (line 1 is no association row");
        // a failure is not kept: the next call asks again
        fake.printing("sacctmgr", "lab|alice||normal\n", "", 0);
        assertThat(b.associations("alice")).extracting(io.slurmwise.job.Association::account).containsExactly("lab");
    }

    static void copy(Path from, Path to) {
        try {
            Files.copy(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
