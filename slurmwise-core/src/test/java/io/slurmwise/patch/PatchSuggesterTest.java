package io.slurmwise.patch;

import io.slurmwise.job.SlurmTime;
import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import io.slurmwise.Slurmwise;
import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.JobStatus;
import io.slurmwise.job.TimeLimit;
import io.slurmwise.taxonomy.Taxonomy;
import io.slurmwise.testing.FixtureCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Patches on the mock cluster's real-looking batch scripts, logs and accounting: each mechanical fix, the forms of
 * directives, CRLF, a missing script, and for every failed job: the patched script still parses (for sbatch and for
 * bash) and the diff turns the original into it.
 */
class PatchSuggesterTest {

    static final FixtureCluster CLUSTER = new FixtureCluster();
    static final Slurmwise SW = Slurmwise.builder().backend(CLUSTER).build();
    static final Taxonomy TAXONOMY = SW.taxonomy();

    @AfterAll
    static void close() {
        SW.close();
    }

    static Diagnosis.Failed failed(String id) {
        return (Diagnosis.Failed) SW.diagnose(id);
    }

    static Patch.Suggested suggested(String id) {
        Patch p = failed(id).patch();
        assertThat(p).as("patch of " + id + ": " + p).isInstanceOf(Patch.Suggested.class);
        return (Patch.Suggested) p;
    }

    @Test
    void oomRaisesMemFromThePeakWithHeadroom() {
        Patch.Suggested p = suggested("1001");
        assertThat(p.diff()).contains("-#SBATCH --mem=32G\n+#SBATCH --mem=48G\n").startsWith("--- a/1001.sh\n+++ b/1001.sh\n");
        assertThat(BatchScript.parse(p.patched()).option("mem").orElseThrow().value()).isEqualTo("48G");
        assertThat(p.changes().get(0).why()).contains("31.8G").contains("1.5x");
    }

    /**
     * A value the job had that its script does not set came from sbatch's command line, an SBATCH_* variable or a
     * default, which overrides #SBATCH lines: the advice says so with the record's value, read from the record and the
     * two scripts (no fixer's wording); a value the script sets, or a flag, gets no such line.
     */
    @Test
    void aValueTheScriptDoesNotSetIsSaidToComeFromTheCommandLine() {
        JobRecord job = CLUSTER.get("1011"); // largemem, its --mem from the command line: the script has none
        Patch p = suggest(job, "oom", "Killed", "#!/bin/bash\n#SBATCH -p largemem\nvelvetg asm\n");
        String mem = ((Patch.Suggested) p).patched().lines().filter(l -> l.startsWith("#SBATCH --mem=")).findFirst()
                .orElseThrow().substring("#SBATCH --mem=".length());
        assertThat(p.advice()).anyMatch(a -> a.startsWith("Job 1011's --mem " + job.memoryPerNode().orElseThrow() + " is not in its"
                + " script: it came from the sbatch command line") && a.endsWith("(`sbatch --mem=" + mem + " ...`)."));
        assertThat(p.advice()).noneMatch(a -> a.contains("--partition") && a.contains("is not in its script"));
        // the script sets it: the patch edits its own line, nothing to say
        Patch own = suggest(job, "oom", "Killed", "#!/bin/bash\n#SBATCH -p largemem\n#SBATCH --mem=64G\nvelvetg asm\n");
        assertThat(own.advice()).noneMatch(a -> a.contains("is not in its script"));
        assertThat(PatchSuggester.recorded(job, "time")).contains(job.timeLimit().human());
        assertThat(PatchSuggester.recorded(job, "requeue")).isEmpty();
    }

    /**
     * A missing Python module: a dotted name means Python found its package and not the module in it (the real lab's
     * 'proj.utils' was told to activate an environment that has `proj`); a plain one is installed where the script's
     * environment is, by the name pip knows, which may differ from the import name (never `pip install cv2`).
     */
    @Test
    void aMissingPythonModuleIsToldWhereItIsAndByWhatName() {
        JobRecord job = CLUSTER.get("1007");
        Patch dotted = suggest(job, "import_error", "ModuleNotFoundError: No module named 'proj.utils'",
                "#!/bin/bash\n#SBATCH -p cpu\npython run.py\n");
        assertThat(dotted.advice()).anySatisfy(a -> assertThat(a).startsWith("Python found `proj` but not `proj.utils`"
                + " in it: the `proj` it imported is not the one that has it").doesNotContain("activate"));
        Patch plain = suggest(job, "import_error", "ModuleNotFoundError: No module named 'cv2'",
                "#!/bin/bash\n#SBATCH -p cpu\nconda activate vision\npython run.py\n");
        assertThat(plain.advice()).anySatisfy(a -> assertThat(a).startsWith("Python cannot import `cv2` in the"
                + " environment the script activates (`conda activate vision`)").contains("`python -m pip install"
                + " <package>`").contains("`cv2` is opencv-python").doesNotContain("pip install cv2"));
        Patch none = suggest(job, "import_error", "ModuleNotFoundError: No module named 'scanpy'",
                "#!/bin/bash\n#SBATCH -p cpu\npython run.py\n");
        assertThat(none.advice()).anySatisfy(a -> assertThat(a).startsWith("Python cannot import `scanpy` and the"
                + " script activates no environment"));
    }

    /**
     * The script sets it, but the job ran with another value (the real lab's 219: `sbatch --time=00:01:00` of a script
     * that says 00:10:00): the command line overrode the line the patch edits, and the advice says so first; a record
     * that agrees with the script, in another spelling, gets no such line.
     */
    @Test
    void aValueTheCommandLineOverrodeIsSaid() {
        JobRecord job = CLUSTER.get("1018"); // ran 08:00:27 of an 8-hour limit
        Patch p = suggest(job, "time_limit", "slurmstepd: error: *** JOB 1018 ON cn001 CANCELLED AT 2026-11-08T20:01:03"
                + " DUE TO TIME LIMIT ***", "#!/bin/bash\n#SBATCH -p cpu\n#SBATCH --time=02:00:00\n./wrf.exe\n");
        String time = BatchScript.parse(((Patch.Suggested) p).patched()).option("time").orElseThrow().value();
        assertThat(p.advice().get(0)).isEqualTo("Job 1018 ran with --time 08:00:00, not its script's 02:00:00: the"
                + " sbatch command line, an SBATCH_* variable or an admin's `scontrol update` set it, and a command line"
                + " value overrides #SBATCH lines: if you gave it there, give the new one there too (`sbatch --time="
                + time + " ...`).");
        Patch agreeing = suggest(job, "time_limit", "slurmstepd: error: *** JOB 1018 ON cn001 CANCELLED AT"
                + " 2026-11-08T20:01:03 DUE TO TIME LIMIT ***", "#!/bin/bash\n#SBATCH -p cpu\n#SBATCH --time=480\n./wrf.exe\n");
        assertThat(agreeing.advice()).noneMatch(a -> a.contains("not its script's"));
    }

    /**
     * CPUs no node of the partition has, asked on sbatch's command line (-c 16 on the real lab's 2-CPU node): no line of
     * the script to edit, so the advice says where they came from and what to ask instead (it said only "no mechanical
     * change"; an outside audit).
     */
    @Test
    void cpusNoNodeHasAskedOnTheCommandLineAreSaidSo() {
        JobRecord job = CLUSTER.get("1056").toBuilder().allocCpus(0)
                .reqTres(io.slurmwise.job.Tres.parse("billing=256,cpu=256,mem=200G,node=1")).build();
        Patch p = suggest(job, "resources_unavailable", "", "#!/bin/bash\n#SBATCH --partition=cpu\n./cesm\n");
        assertThat(p.advice()).anyMatch(a -> a.startsWith("Job 1056 asks 256 CPUs per node (a cpu node has 128); its"
                + " script sets no --cpus-per-task, --ntasks or --ntasks-per-node") && a.contains("`sbatch -c 128 ...`"));
        // a script that sets them is edited instead, as before
        assertThat(((Diagnosis.StatusOnly) SW.diagnose("1056")).pending().patch().advice())
                .noneMatch(a -> a.contains("its script sets no --cpus-per-task"));
    }

    @Test
    void oomKeepsMemPerCpuAndDropsTheOldValuesComment() {
        // "# same as the coarse run (1003)" spoke of the 1G the coarse run had, not of the new value
        Patch.Suggested p = suggested("1024");
        assertThat(p.diff()).contains("+#SBATCH --mem-per-cpu=1536M\n").doesNotContain("+#SBATCH --mem-per-cpu=1536M ");
        assertThat(BatchScript.parse(p.patched()).has("mem")).isFalse();
    }

    @Test
    void oomDoublesWhenNoPeakWasMeasuredAndWritesTheSpaceForm() {
        JobRecord job = CLUSTER.get("1001").toBuilder().maxRss(null).build();
        String script = "#!/bin/bash\n#SBATCH --mem 16G\n#SBATCH -c 4\n\npython x.py\n";
        Patch p = suggest(job, "oom", "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=1.batch.", script);
        assertThat(((Patch.Suggested) p).patched()).contains("#SBATCH --mem 32G\n");
        assertThat(p.changes().get(0).why()).contains("doubled");
    }

    /** A per-node peak reckoned from the largest task's MaxRSS is said as a reckoning, not as the measured peak. */
    @Test
    void aPeakScaledFromTheLargestTaskIsSaidAsOne() {
        JobRecord job = CLUSTER.get("1001").toBuilder().maxRss(io.slurmwise.job.DataSize.ofGibibytes(2)).build();
        String script = "#!/bin/bash\n#SBATCH --nodes=4\n#SBATCH --ntasks-per-node=64\n#SBATCH --mem=128G\nsrun ./solver\n";
        Patch p = suggest(job, "oom", "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=1.0.", script);
        assertThat(p.changes().get(0).why()).startsWith("the peak (the largest task's MaxRSS 2G × 64 tasks per node)"
                + " 128G per node reached the 128G limit").doesNotContain("measured peak (MaxRSS)");
    }

    @Test
    void oomAddsMemWhenTheScriptHasNone() {
        JobRecord job = CLUSTER.get("1011");
        Patch p = suggest(job, "oom", "Killed", "#!/bin/bash\n#SBATCH -p largemem\nvelvetg asm\n");
        assertThat(((Patch.Suggested) p).patched()).isEqualTo("#!/bin/bash\n#SBATCH -p largemem\n#SBATCH --mem=768G\nvelvetg asm\n");
    }

    /**
     * 22542799 asked its partition's 12 hours and needs about 22 (epoch 7's step 1000 was 11:44:50 into the run by the
     * log's timestamps, then the log was silent till the limit): the patch moves it to the partition that allows
     * that, with its GPU type (an outside audit: it was given --requeue, which SLURM never applies to a time limit,
     * and the move was left to prose).
     */
    @Test
    void timeLimitAboveThePartitionsMaximumMovesToThePartitionThatAllowsIt() {
        Patch.Suggested p = suggested("22542799");
        assertThat(p.diff()).contains("+#SBATCH --time=22:00:00").contains("+#SBATCH --partition=gpuH100x8")
                .contains("gpu:h100:").doesNotContain("--requeue").doesNotContain("--signal").doesNotContain("slurmwise:");
        assertThat(p.changes()).extracting(Patch.Change::why).anyMatch(w -> w.contains("64%") && w.contains("epoch 7/10")
                && w.contains("gpuA100x4 allows at most 12:00:00") && w.contains("gpuH100x8 allows 2-00:00:00"));
        assertThat(String.join(" ", p.advice())).contains("To stay on gpuA100x4, ask for at most 12:00:00");
        BatchScript s = BatchScript.parse(p.patched());
        assertThat(s.option("time").orElseThrow().value()).isEqualTo("22:00:00");
        assertThat(s.option("partition").orElseThrow().value()).isEqualTo("gpuH100x8");
    }

    @Test
    void timeLimitRaisesShortFormFromProgressWithinThePartition() {
        JobRecord job = CLUSTER.get("1030").toBuilder().status(JobStatus.of(JobState.TIMEOUT))
                .elapsed(Duration.ofMinutes(60).plusSeconds(5)).timeLimit(TimeLimit.of(Duration.ofHours(1))).build();
        String script = FixtureCluster.script("1030").orElseThrow();
        assertThat(script).contains("#SBATCH -t 1:00:00");
        Patch p = suggest(job, "time_limit", "step 300/1000 loss 0.1\nslurmstepd: error: *** JOB 1030 ON cn001 CANCELLED AT"
                + " 2026-11-12T10:00:00 DUE TO TIME LIMIT ***", script);
        String patched = ((Patch.Suggested) p).patched();
        // 1h for 30% of the work: 3h20m, +20% = 4h
        assertThat(patched).contains("#SBATCH -t 04:00:00\n").doesNotContain("slurmwise:");
        assertThat(BatchScript.parse(patched).option("time").flatMap(o -> SlurmTime.parseDuration(o.value()))).contains(Duration.ofHours(4));
    }

    /**
     * 1016's GATK HaplotypeCaller reached chr7:79500000 of a whole genome in its 2 days (an outside audit: its time
     * was doubled "since no progress could be read"): 42% done, so the run needs 5-16:00:00, more than the partition
     * allows, and the advice names the one that does.
     */
    @Test
    void timeLimitReadsAWholeGenomeRunsPositionAndIsCapped() {
        Patch.Suggested p = suggested("1016");
        // its QOS normal allows 2 days on every partition (QOSMaxWallDurationPerJobLimit refused 1020's 3 days on
        // long): the move takes the QOS named like the partition, which has no MaxWall (an outside audit)
        assertThat(p.changes()).extracting(Patch.Change::what)
                .containsExactly("--partition=long (was cpu), --time=5-16:00:00 (was 2-00:00:00), --qos=long (was normal)");
        assertThat(p.changes().get(0).why()).contains("about 42% of the work")
                .contains("\"chr7:79500000\" along the human genome").contains("long allows 7-00:00:00")
                .contains("its QOS normal allows at most 2-00:00:00 (MaxWall) on every partition, QOS long has no MaxWall")
                .doesNotContain("doubled");
        // bob's association (genomics) lists long: nothing left to check about it
        assertThat(String.join(" ", p.advice())).doesNotContain("must be open to your account")
                .doesNotContain("must admit").doesNotContain(TimeFixer.QOS_TOO);
        assertThat(p.patched()).contains("#SBATCH --qos=long\n");
        assertThat(BatchScript.parse(p.patched()).option("time").orElseThrow().value()).isEqualTo("5-16:00:00");
        // another organism's reference, or one region asked for, is no whole human genome: no estimate from it
        JobRecord job = CLUSTER.get("1030").toBuilder().status(JobStatus.of(JobState.TIMEOUT))
                .elapsed(Duration.ofHours(1)).timeLimit(TimeLimit.of(Duration.ofHours(1))).build();
        String script = FixtureCluster.script("1030").orElseThrow();
        String meter = "10:00:00.000 INFO  ProgressMeter -        chr7:79500000           60.0   1000   16.6\n";
        String end = "slurmstepd: error: *** JOB 1030 ON cn001 CANCELLED AT 2026-11-12T10:00:00 DUE TO TIME LIMIT ***";
        assertThat(((Patch.Suggested) suggest(job, "time_limit", meter + end, script)).patched()).contains("#SBATCH -t 03:00:00\n");
        for (String other : List.of("Running: gatk HaplotypeCaller -R GRCm39.fa -I a.bam\n",
                "Running: gatk HaplotypeCaller -R ref.fa -L chr2 -I a.bam\n")) {
            assertThat(((Patch.Suggested) suggest(job, "time_limit", other + meter + end, script)).patched())
                    .contains("#SBATCH -t 02:00:00\n");
        }
    }

    /**
     * A job's QOS caps its time on every partition: 1057 pends for ever with QOSMaxWallDurationPerJobLimit (36 h asked,
     * QOS gpu allows 1 day, the partition 2). Its user's association (chen, cfd-sim) lists normal, which allows the
     * whole run, and the partition admits it (AllowQos): the patch moves it there. Without the associations the
     * nearest request that starts is 1 day, and the QOSes that would allow the whole run are named for the user to
     * check, never one that others preempt (scavenger).
     */
    @Test
    void aQosMaxWallCapsTheTimeOnEveryPartition() {
        Patch.Suggested p = (Patch.Suggested) ((Diagnosis.StatusOnly) SW.diagnose("1057")).pending().patch();
        assertThat(p.changes()).extracting(Patch.Change::what).containsExactly("--qos=normal (was gpu)");
        assertThat(p.changes().get(0).why()).contains("QOS normal allows 2-00:00:00 and is one your account may use");
        assertThat(p.patched()).contains("#SBATCH --qos=normal\n").contains("#SBATCH --time=36:00:00\n");
        // the fixture's scontrol says gpuH100x8 admits gpu, normal and scavenger: nothing left to check; a partition
        // whose AllowQos was not read is named to check
        assertThat(String.join(" ", p.advice())).doesNotContain("must admit QOS")
                .doesNotContain("must be open to your account");
        List<io.slurmwise.job.Partition> unread = CLUSTER.partitions().stream()
                .map(x -> x.withQosAccess(io.slurmwise.job.Partition.QosAccess.UNKNOWN)).toList();
        Patch unchecked = new PatchSuggester(TAXONOMY).suggest(CLUSTER.get("1057"), new Finding(TAXONOMY.kind("qos_limit"),
                0.9, List.of(), List.of()), List.of(), FixtureCluster.script("1057"), unread, CLUSTER::qos,
                () -> Optional.of(java.util.Set.of("gpu", "long", "normal")));
        assertThat(String.join(" ", unchecked.advice())).contains("Partition gpuH100x8 must admit QOS normal");
        JobRecord j = CLUSTER.get("1057");
        Patch unknown = new PatchSuggester(TAXONOMY).suggest(j, new Finding(TAXONOMY.kind("qos_limit"), 0.9, List.of(),
                List.of()), List.of(), FixtureCluster.script("1057"), CLUSTER.partitions(), CLUSTER::qos);
        assertThat(unknown.changes()).extracting(Patch.Change::what)
                .containsExactly("--time=1-00:00:00 (was 1-12:00:00), capped by QOS gpu");
        assertThat(String.join(" ", unknown.advice())).contains("QOS gpu allows at most 1-00:00:00 on every partition")
                .contains("normal (MaxWall 2-00:00:00), long (no MaxWall)").doesNotContain("scavenger");
        // the associations known and listing neither: the cap, and no QOS of theirs allows the run
        Patch none = new PatchSuggester(TAXONOMY).suggest(j, new Finding(TAXONOMY.kind("qos_limit"), 0.9, List.of(),
                List.of()), List.of(), FixtureCluster.script("1057"), CLUSTER.partitions(), CLUSTER::qos,
                () -> java.util.Optional.of(java.util.Set.of("gpu", "scavenger")));
        assertThat(none.changes()).extracting(Patch.Change::what)
                .containsExactly("--time=1-00:00:00 (was 1-12:00:00), capped by QOS gpu");
        assertThat(String.join(" ", none.advice())).contains("since no other QOS your account may use allows the whole run");
        // a run that needs more than its QOS allows, within the partition's MaxTime: capped by the QOS, as no QOS is
        // named like the partition
        JobRecord job = CLUSTER.get("1030").toBuilder().status(JobStatus.of(JobState.TIMEOUT)).partition("largemem")
                .qos("normal").elapsed(Duration.ofHours(40)).timeLimit(TimeLimit.of(Duration.ofHours(40))).build();
        String script = FixtureCluster.script("1030").orElseThrow();
        String end = "slurmstepd: error: *** JOB 1030 ON lm01 CANCELLED AT 2026-11-12T10:00:00 DUE TO TIME LIMIT ***";
        Patch capped = suggestWithQos(job, "time_limit", end, script);
        assertThat(capped.changes()).extracting(Patch.Change::what)
                .containsExactly("--time=2-00:00:00 (was 1-16:00:00), capped by QOS normal");
        assertThat(String.join(" ", capped.advice())).contains("QOS normal allows at most 2-00:00:00 on every partition")
                .contains("long (no MaxWall)").doesNotContain(TimeFixer.QOS_TOO);
        // 1016 where no QOS is named like partition long: moving there would not help under QOS normal, so no move
        // is advised; the QOS's cap is, with the QOSes that would allow the run
        JobRecord gatk = CLUSTER.get("1016");
        List<LogTail> gatkLogs = List.of(CLUSTER.logTail(gatk, LogStream.STDERR, 300));
        Finding gatkFinding = SW.classifier().classify(JobFacts.of(gatk), gatkLogs);
        Patch noLong = new PatchSuggester(TAXONOMY).suggest(gatk, gatkFinding, gatkLogs, FixtureCluster.script("1016"),
                CLUSTER.partitions(), () -> io.slurmwise.job.Qos.parse("normal|2-00:00:00|\nlongrun||\n"));
        assertThat(noLong.changes()).extracting(Patch.Change::what).noneMatch(w -> w.contains("--partition"));
        assertThat(String.join(" ", noLong.advice())).contains("QOS normal allows at most 2-00:00:00 on every partition,"
                + " which the job already asked for (so --time stays)").contains("longrun (no MaxWall)")
                .doesNotContain("move it to a partition");
        // a QOS that allows the run is not mentioned; an unknown QOS table leaves the advice to check it
        JobRecord fits = job.toBuilder().elapsed(Duration.ofHours(10)).timeLimit(TimeLimit.of(Duration.ofHours(10))).build();
        assertThat(String.join(" ", suggestWithQos(fits, "time_limit", end, script).advice())).doesNotContain("QOS");
        assertThat(String.join(" ", suggest(job, "time_limit", end, script).advice())).contains(TimeFixer.QOS_TOO);
    }

    /**
     * A QOS table that cannot be read (sacctmgr refused, slurmdbd down) is a notice, and the time fix says to check the
     * QOS as before the table was read; the diagnosis itself goes on.
     */
    @Test
    void aQosTableThatCannotBeReadIsANoticeAndTheAdviceToCheckIt() {
        io.slurmwise.backend.SlurmBackend refusing = new io.slurmwise.backend.SlurmBackend() {
            @Override
            public String name() {
                return CLUSTER.name();
            }

            @Override
            public io.slurmwise.backend.JobLookup lookup(io.slurmwise.job.JobId id) {
                return CLUSTER.lookup(id);
            }

            @Override
            public java.util.stream.Stream<JobRecord> jobs(io.slurmwise.backend.JobQuery query) {
                return CLUSTER.jobs(query);
            }

            @Override
            public LogTail logTail(JobRecord job, LogStream stream, int maxLines) {
                return CLUSTER.logTail(job, stream, maxLines);
            }

            @Override
            public Optional<String> batchScript(JobRecord job) {
                return CLUSTER.batchScript(job);
            }

            @Override
            public List<io.slurmwise.job.Partition> partitions() {
                return CLUSTER.partitions();
            }

            @Override
            public List<io.slurmwise.job.Qos> qos() {
                throw new io.slurmwise.backend.BackendException("`sacctmgr -n -P show qos` failed with exit code 1");
            }
        };
        try (Slurmwise sw = Slurmwise.builder().backend(refusing).build()) {
            Diagnosis.Failed d = (Diagnosis.Failed) sw.diagnose("1016");
            assertThat(d.notices()).filteredOn(n -> n.startsWith("QOS limits: ")).singleElement().asString()
                    .contains("failed with exit code 1").contains("not checked against the QOS MaxWall");
            assertThat(d.patch().changes()).extracting(Patch.Change::what)
                    .containsExactly("--partition=long (was cpu), --time=5-16:00:00 (was 2-00:00:00)");
            assertThat(String.join(" ", d.patch().advice())).contains(TimeFixer.QOS_TOO);
        }
    }

    /**
     * A pending job over its partition's MaxTime moves to the partition that allows it, and with it to the QOS named
     * like that partition when its own QOS's MaxWall would refuse it there too (1020's 3 days with QOS normal on long
     * were refused with QOSMaxWallDurationPerJobLimit); without such a QOS the longest run it can have stays put.
     */
    @Test
    void aMoveForTimeTakesTheQosItNeedsOnTheNewPartition() {
        String script = FixtureCluster.script("1030").orElseThrow();
        JobRecord threeDays = CLUSTER.get("1030").toBuilder().status(JobStatus.of(JobState.PENDING)).qos("normal")
                .timeLimit(TimeLimit.of(Duration.ofDays(3))).elapsed(Duration.ZERO).build();
        Patch moved = suggestWithQos(threeDays, "resources_unavailable", "", script);
        assertThat(moved.changes()).extracting(Patch.Change::what)
                .containsExactly("--partition=long (was cpu), --qos=long (was normal)");
        assertThat(moved.changes().get(0).why()).contains("its QOS normal allows at most 2-00:00:00 (MaxWall) on every"
                + " partition, QOS long has no MaxWall");
        assertThat(String.join(" ", moved.advice())).contains("QOS long must be open to your account");
        // a QOS that allows it moves the partition alone (its QOS has no MaxWall)
        Patch alone = suggestWithQos(threeDays.toBuilder().qos("long").build(), "resources_unavailable", "", script);
        assertThat(alone.changes()).extracting(Patch.Change::what).containsExactly("--partition=long (was cpu)");
        // 8 days: no partition allows it; the QOS is said, not partitions that could not help
        Patch none = suggestWithQos(threeDays.toBuilder().timeLimit(TimeLimit.of(Duration.ofDays(8))).build(),
                "resources_unavailable", "", script);
        assertThat(none.changes()).extracting(Patch.Change::what).containsExactly("--time=2-00:00:00 (was 8-00:00:00)");
        assertThat(String.join(" ", none.advice())).contains("As its QOS normal allows at most 2-00:00:00 (MaxWall) on every partition, no partition gives it 8-00:00:00");
    }

    /**
     * A partition admits only the job QOSes its AllowQos lists (or all but its DenyQos): slurmctld refuses any other
     * ("Job's QOS not permitted to use this partition"). 1016 moving to a long that admits only QOS long moves its QOS
     * too; to a long that admits neither it goes to the next partition that allows the run (largemem); and a QOS move
     * picks only a QOS the partition admits.
     */
    @Test
    void aPartitionThatDoesNotAdmitTheJobsQosTakesItOnlyWithOneItAdmits() {
        JobRecord gatk = CLUSTER.get("1016");
        List<LogTail> logs = List.of(CLUSTER.logTail(gatk, LogStream.STDERR, 300));
        Finding f = SW.classifier().classify(JobFacts.of(gatk), logs);
        java.util.function.Function<String, List<io.slurmwise.job.Partition>> longAdmitting = allow -> CLUSTER.partitions()
                .stream().map(p -> p.name().equals("long") ? p.withQosAccess(io.slurmwise.job.Partition.qosAccessOf(
                        "PartitionName=long\n   AllowGroups=ALL AllowAccounts=ALL AllowQos=" + allow).get("long")) : p)
                .toList();
        java.util.function.Supplier<List<io.slurmwise.job.Qos>> unlimited = () -> io.slurmwise.job.Qos.parse(
                "normal||\nlong||\n");
        Patch open = new PatchSuggester(TAXONOMY).suggest(gatk, f, logs, FixtureCluster.script("1016"),
                longAdmitting.apply("ALL"), unlimited);
        assertThat(open.changes()).extracting(Patch.Change::what)
                .containsExactly("--partition=long (was cpu), --time=5-16:00:00 (was 2-00:00:00)");
        Patch onlyLong = new PatchSuggester(TAXONOMY).suggest(gatk, f, logs, FixtureCluster.script("1016"),
                longAdmitting.apply("long"), unlimited);
        assertThat(onlyLong.changes()).extracting(Patch.Change::what)
                .containsExactly("--partition=long (was cpu), --time=5-16:00:00 (was 2-00:00:00), --qos=long (was normal)");
        assertThat(onlyLong.changes().get(0).why()).contains("partition long admits AllowQos=long, not QOS normal");
        assertThat(onlyLong.changes().get(0).sets()).containsEntry("qos", "long");
        // read, so no line says to check it
        assertThat(String.join(" ", onlyLong.advice())).doesNotContain("must admit QOS");
        Patch neither = new PatchSuggester(TAXONOMY).suggest(gatk, f, logs, FixtureCluster.script("1016"),
                longAdmitting.apply("premium"), unlimited);
        // long, the best, admits no QOS of the job's: the next partition that allows the run takes it
        assertThat(neither.changes()).extracting(Patch.Change::what)
                .containsExactly("--partition=largemem (was cpu), --time=5-16:00:00 (was 2-00:00:00)");
        // a QOS move on the job's own partition takes only a QOS that partition admits: 1057 (QOS gpu's MaxWall
        // 1-00:00:00 under its 1-12:00:00) goes to normal where gpuH100x8 admits it, and is cut where it admits only gpu
        JobRecord amgx = CLUSTER.get("1057");
        Finding qf = new Finding(TAXONOMY.kind("qos_limit"), 0.9, List.of(), List.of());
        java.util.function.Supplier<Optional<java.util.Set<String>>> chens = () -> Optional.of(java.util.Set.of("gpu",
                "long", "normal"));
        Patch toNormal = new PatchSuggester(TAXONOMY).suggest(amgx, qf, List.of(), FixtureCluster.script("1057"),
                CLUSTER.partitions(), CLUSTER::qos, chens);
        assertThat(toNormal.changes()).extracting(Patch.Change::what).containsExactly("--qos=normal (was gpu)");
        assertThat(String.join(" ", toNormal.advice())).doesNotContain("must admit QOS");
        List<io.slurmwise.job.Partition> gpuOnly = CLUSTER.partitions().stream().map(p -> p.name().equals("gpuH100x8")
                ? p.withQosAccess(new io.slurmwise.job.Partition.QosAccess(true, java.util.Set.of("gpu"), java.util.Set.of()))
                : p).toList();
        Patch cut = new PatchSuggester(TAXONOMY).suggest(amgx, qf, List.of(), FixtureCluster.script("1057"), gpuOnly,
                CLUSTER::qos, chens);
        assertThat(cut.changes()).extracting(Patch.Change::what).noneMatch(w -> w.contains("--qos"))
                .anyMatch(w -> w.startsWith("--time=1-00:00:00"));
    }

    /**
     * A partition's own QOS comes before the job's (slurmctld takes the first QOS that sets a limit, the partition's
     * first): 1016 moving to a long whose own QOS allows its 5-16:00:00 needs no --qos (naming the QOS named like the
     * partition could be refused as a job QOS the account lacks); a long whose own QOS caps at 3 days is no move; a job
     * on such a partition is capped by it, and another --qos is not offered.
     */
    @Test
    void aPartitionsOwnQosComesBeforeTheJobs() {
        JobRecord gatk = CLUSTER.get("1016");
        List<LogTail> logs = List.of(CLUSTER.logTail(gatk, LogStream.STDERR, 300));
        Finding f = SW.classifier().classify(JobFacts.of(gatk), logs);
        java.util.function.Function<String, List<io.slurmwise.job.Partition>> longWith = q -> CLUSTER.partitions().stream()
                .map(p -> p.name().equals("long") ? p.withQos("plong") : p).toList();
        String table = "normal|2-00:00:00|\nlong||\n";
        Patch moved = new PatchSuggester(TAXONOMY).suggest(gatk, f, logs, FixtureCluster.script("1016"),
                longWith.apply("plong"), () -> io.slurmwise.job.Qos.parse(table + "plong|7-00:00:00|\n"));
        assertThat(moved.changes()).extracting(Patch.Change::what)
                .containsExactly("--partition=long (was cpu), --time=5-16:00:00 (was 2-00:00:00)");
        assertThat(moved.changes().get(0).why()).contains("its own QOS plong allows 7-00:00:00 (it comes before the job's"
                + " QOS there)");
        assertThat(String.join(" ", moved.advice())).doesNotContain("--qos").doesNotContain("must be open to your account");
        // its own QOS allows 3 days: no move there, whatever the job's QOS
        Patch stays = new PatchSuggester(TAXONOMY).suggest(gatk, f, logs, FixtureCluster.script("1016"),
                longWith.apply("plong"), () -> io.slurmwise.job.Qos.parse(table + "plong|3-00:00:00|\n"));
        assertThat(stays.changes()).extracting(Patch.Change::what).noneMatch(w -> w.contains("--partition=long"));
        // a job on long under its own QOS's 3 days, which it asked for: capped by the partition's QOS, no other --qos
        JobRecord onLong = gatk.toBuilder().partition("long").qos("normal").timeLimit(TimeLimit.of(Duration.ofDays(3)))
                .elapsed(Duration.ofDays(3)).build();
        Patch capped = new PatchSuggester(TAXONOMY).suggest(onLong, f, logs, FixtureCluster.script("1016"),
                longWith.apply("plong"), () -> io.slurmwise.job.Qos.parse(table + "plong|3-00:00:00|\n"));
        assertThat(capped.changes()).extracting(Patch.Change::what).noneMatch(w -> w.contains("--qos"));
        assertThat(String.join(" ", capped.advice())).contains("Partition long's own QOS plong allows at most 3-00:00:00,"
                + " which the job already asked for (so --time stays)").doesNotContain("on every partition");
    }

    /** A run of units counts as progress: 1018's ensemble announced 5 members and finished 3 (an outside audit). */
    @Test
    void timeLimitReadsProgressFromARunOfUnits() {
        Patch.Suggested p = suggested("1018");
        String why = p.changes().stream().filter(c -> c.what().contains("time")).findFirst().orElseThrow().why();
        assertThat(why).contains("about 60% of the work").contains("\"member 03 done").contains("of 5 members")
                .doesNotContain("doubled");
        // dated by the log's own timestamps: member 03 was done 5:57 into the run, then member 04 ran on till the cut
        assertThat(why).contains("in its first 05:56:58 (\"member 03 done (1:59:19)\" of 5 members, by the log's"
                + " timestamps), so the whole run needs about 12:00:00");
        assertThat(p.patched()).contains("#SBATCH -t 12:00:00\n");
        // "sample 3 of 10" is the third begun: two done in an hour, so ten need 5h, 6h with headroom
        JobRecord job = CLUSTER.get("1030").toBuilder().status(JobStatus.of(JobState.TIMEOUT))
                .elapsed(Duration.ofHours(1)).timeLimit(TimeLimit.of(Duration.ofHours(1))).build();
        Patch started = suggest(job, "time_limit", "processing sample 3 of 10 (NA12878)\nslurmstepd: error: *** JOB 1030 ON"
                + " cn001 CANCELLED AT 2026-11-12T10:00:00 DUE TO TIME LIMIT ***", FixtureCluster.script("1030").orElseThrow());
        assertThat(((Patch.Suggested) started).patched()).contains("#SBATCH -t 06:00:00\n");
    }

    /**
     * Time-limit failures more --time would not fix are said, not patched (an outside audit): a job ended 2 minutes
     * into its 2 hours by its step's `srun --time=2` (patched "the 00:02:05 it ran is doubled: 03:00:00"), a run whose
     * log says the work was done and that hung to the limit, and one whose rate would have fit the limit but whose
     * progress stops hours before the end (told "the whole run needs about 18:00:00" of a rate that needed 7.6 hours).
     */
    @Test
    void aTimeLimitMoreTimeWouldNotFixIsSaidNotPatched() {
        String script = "#!/bin/bash\n#SBATCH --time=02:00:00\n#SBATCH -c 8\nmodule load solver\nsrun --time=2 ./solver in.dat\n";
        JobRecord stepped = CLUSTER.get("1030").toBuilder().status(JobStatus.of(JobState.FAILED))
                .elapsed(Duration.ofSeconds(125)).timeLimit(TimeLimit.of(Duration.ofHours(2))).build();
        Patch step = suggest(stepped, "time_limit", "slurmstepd: error: *** STEP 1030.0 ON cn001 CANCELLED AT"
                + " 2026-11-12T10:02:05 DUE TO TIME LIMIT ***", script);
        assertThat(step.changes()).isEmpty();
        assertThat(String.join(" ", step.advice())).contains("It ran 00:02:05 of its 02:00:00 limit, so the job's own"
                + " limit did not end it; a step's own limit did: `srun --time=2 ./solver in.dat` in the script")
                .contains("More `#SBATCH --time` would not help").doesNotContain("doubled");
        assertThat(String.join(" ", suggest(stepped, "time_limit", "", script.replace("srun --time=2 ", "timeout 90s "))
                .advice())).contains("the `timeout 90s` in the script did");
        // the work was done at 00:30, then the job ran on to its limit
        JobRecord hung = CLUSTER.get("1030").toBuilder().status(JobStatus.of(JobState.TIMEOUT))
                .elapsed(Duration.ofHours(12).plusSeconds(4)).timeLimit(TimeLimit.of(Duration.ofHours(12))).build();
        String twelve = script.replace("02:00:00", "12:00:00").replace("srun --time=2 ", "srun ");
        Patch done = suggest(hung, "time_limit", "2026-11-12 00:00:10 starting\n2026-11-12 00:30:02 epoch 3/3 step 1000/1000"
                + " loss 1.1\n2026-11-12 00:30:05 training finished, saving final model\nslurmstepd: error: *** JOB 1030 ON"
                + " cn001 CANCELLED AT 2026-11-12T12:00:14 DUE TO TIME LIMIT ***", twelve);
        assertThat(done.changes()).isEmpty();
        assertThat(String.join(" ", done.advice())).contains("The log says the work was done (\"epoch 3/3 step"
                + " 1000/1000 loss 1.1\", 00:29:52 into the run), yet the job ran on to its 12:00:00 limit");
        // 5% in the first 19 minutes, then 11:41 of nothing: a stall, not a run that needs 18 hours
        Patch stalled = suggest(hung, "time_limit", "2026-11-12 00:00:10 starting\n2026-11-12 00:19:10 epoch 1/1 step"
                + " 500/10000 loss 1.8\n2026-11-12 01:02:00 dataloader worker 3 stalled; retrying read of shard_0413.tar\n"
                + "slurmstepd: error: *** JOB 1030 ON cn001 CANCELLED AT 2026-11-12T12:00:14 DUE TO TIME LIMIT ***", twelve);
        assertThat(stalled.changes()).isEmpty();
        assertThat(String.join(" ", stalled.advice())).contains("00:19:00 into the run: about 5% of the work, a rate at"
                + " which the whole run needed about 06:20:00, less than the 12:00:00 it had. It made no progress the log"
                + " shows in its last 11:41:04");
        // a timestep count is progress too
        Patch steps = suggest(hung, "time_limit", "2026-11-12 00:00:10 starting\n2026-11-12 11:59:00 timestep 8800/10000\n",
                twelve);
        assertThat(steps.changes()).extracting(Patch.Change::why).anySatisfy(w -> assertThat(w).contains("about 88% of"
                + " the work").contains("timestep 8800/10000"));
    }

    @Test
    void nodeFailureExcludesTheFailedNodeAndRequeues() {
        Patch.Suggested p = suggested("1005");
        assertThat(p.diff()).contains("+#SBATCH --exclude=cn043").contains("+#SBATCH --requeue");
        Patch.Suggested two = suggested("1015");
        assertThat(two.diff()).contains("+#SBATCH --exclude=gpua023");
    }

    @Test
    void gpuHardwareErrorExcludesTheNodeButAProgramBugDoesNot() {
        assertThat(suggested("1036").diff()).contains("+#SBATCH --exclude=gpua033");
        Patch bug = failed("1028").patch();
        assertThat(bug).isInstanceOf(Patch.NotSuggested.class);
        assertThat(bug.changes()).isEmpty();
    }

    /**
     * A job preempted under a QOS that others preempt (the mock's scavenger, preempted by gpu) moves to a QOS no other
     * preempts, that its partition admits and its association lists (an outside audit: 1039 got only --requeue, which
     * under PreemptMode=CANCEL does nothing and otherwise brings it back to be preempted again); the QOS line's comment
     * about the old QOS goes with it.
     */
    @Test
    void preemptionUnderAPreemptedQosMovesToOneNonePreempts() {
        Patch.Suggested p = suggested("1039");
        assertThat(p.changes()).extracting(Patch.Change::what).containsExactly("--qos=gpu (was scavenger)", "--requeue");
        assertThat(p.changes().get(0).why()).isEqualTo("its QOS scavenger is preempted by the jobs of QOS gpu (sacctmgr"
                + " show qos format=Name,Preempt); no QOS preempts gpu, which allows 1-00:00:00 and is open to your"
                + " account (sacctmgr show assoc)");
        assertThat(p.changes().get(0).sets()).containsEntry("qos", "gpu");
        assertThat(p.diff()).contains("-#SBATCH --qos=scavenger      # cheap, but can be preempted\n+#SBATCH --qos=gpu\n");
        assertThat(String.join(" ", p.advice())).doesNotContain("PreemptMode=CANCEL").doesNotContain("trap");
    }

    /**
     * Without the QOSes' Preempt column (or under a QOS no other preempts) a preempted job is requeued only where the
     * preemption mode is REQUEUE: --requeue is said as conditional and the way to tell is named (an outside audit).
     */
    @Test
    void preemptionWithoutAPreemptedQosAddsRequeueOnly() {
        JobRecord job = CLUSTER.get("1039");
        String script = FixtureCluster.script("1039").orElseThrow();
        Patch p = suggest(job, "preempted", "slurmstepd: error: *** JOB 1039 CANCELLED DUE TO PREEMPTION ***", script);
        assertThat(p.changes()).extracting(Patch.Change::what).containsExactly("--requeue");
        assertThat(p.changes().get(0).why()).startsWith("Where preempted jobs are requeued (PreemptMode=REQUEUE)");
        assertThat(String.join(" ", p.advice())).contains("Under PreemptMode=CANCEL a preempted job ends whatever it asks")
                .contains("scontrol show config | grep -i PreemptMode").contains("A preemption sends SIGTERM");
        JobRecord normal = job.toBuilder().qos("normal").build();
        Patch q = suggestWithQos(normal, "preempted", "", script.replace("--qos=scavenger", "--qos=normal"));
        assertThat(q.changes()).extracting(Patch.Change::what).containsExactly("--requeue");
    }

    /**
     * NCCL's variables only where the job's facts call for them: 1022 failed 7 minutes into 12 hours (the collective's
     * error ended it: no hang to end) with NCCL_DEBUG set in its script, so nothing is exported; the same job run until
     * its limit gets the async error handling, said as this job's hang.
     */
    @Test
    void ncclAndCudaOomSetTheirEnvironmentNextToTheOtherExports() {
        Patch early = failed("1022").patch();
        assertThat(early.changes()).extracting(Patch.Change::what).noneMatch(w -> w.contains("NCCL"));
        assertThat(String.join(" ", early.advice())).contains("NCCL_IB_DISABLE=1");
        JobRecord hung = CLUSTER.get("1022").toBuilder().status(JobStatus.of(JobState.TIMEOUT))
                .elapsed(Duration.ofHours(12).plusSeconds(20)).build();
        String log = "[rank3]:[E ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation timeout:"
                + " WorkNCCL(SeqNum=4201, OpType=ALLREDUCE) ran for 600023 milliseconds before timing out.";
        Patch.Suggested nccl = (Patch.Suggested) suggest(hung, "nccl", log, FixtureCluster.script("1022").orElseThrow());
        assertThat(nccl.diff()).contains("+export TORCH_NCCL_ASYNC_ERROR_HANDLING=1").doesNotContain("+export NCCL_DEBUG");
        assertThat(nccl.changes().get(0).why()).contains("as this one ran until its limit").doesNotContain("NCCL then logs");
        // a script without NCCL_DEBUG whose log shows no NCCL INFO lines gets the debug log, said without the hang
        Patch.Suggested bare = (Patch.Suggested) suggest(CLUSTER.get("1022"), "nccl", log, "#!/bin/bash\n#SBATCH -N 2\n"
                + "srun python train.py\n");
        assertThat(bare.diff()).contains("+export NCCL_DEBUG=INFO").doesNotContain("TORCH_NCCL_ASYNC_ERROR_HANDLING");
        assertThat(bare.changes().get(0).why()).isEqualTo("NCCL then logs which rank, device and network path failed");
        Patch.Suggested oom = suggested("1008");
        assertThat(oom.diff()).contains(" export TORCH_NCCL_ASYNC_ERROR_HANDLING=1\n+export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n");
        assertThat(String.join(" ", oom.advice())).contains("--micro_bs 2");
    }

    /**
     * 1026's HDF5 write failed on the node's /tmp (the file it names before the message): TMPDIR moves to scratch,
     * said as that write; the home caches, unrelated to it, stay as they are. A line that names no path moves them.
     */
    @Test
    void diskQuotaMovesCachesAndTmpToScratch() {
        Patch.Suggested p = suggested("1026");
        assertThat(p.diff()).contains("-export TMPDIR=/tmp/${USER}_${SLURM_JOB_ID}\n+export TMPDIR=/scratch/$USER/tmp/$SLURM_JOB_ID")
                .doesNotContain("HF_HOME").doesNotContain("PIP_CACHE_DIR").doesNotContain("TORCH_HOME");
        assertThat(p.changes().get(0).why()).startsWith("the write failed on the node's /tmp, small and shared by the jobs on"
                + " the node (/tmp/erik_1026/tas_day_EC-Earth3_ssp585_r1i1p1f1_gr_regrid_2071.nc)");
        assertThat(String.join(" ", p.advice())).contains("The node's /tmp filled up on cn058").contains("--tmp=<size>")
                .doesNotContain("du -sh ~/.cache");
        JobRecord job = CLUSTER.get("1026");
        Patch.Suggested unnamed = (Patch.Suggested) suggest(job, "disk_quota", "OSError: [Errno 122] Disk quota exceeded",
                FixtureCluster.script("1026").orElseThrow());
        assertThat(unnamed.diff()).contains("+export HF_HOME=/scratch/$USER/.cache/huggingface").contains("+export PIP_CACHE_DIR=")
                .contains("+export XDG_CACHE_HOME=").contains("+export TORCH_HOME=");
        assertThat(String.join(" ", unnamed.advice())).contains("du -sh ~/.cache");
        // coreutils name the path before the message: dd's write to a small disk is no cache of the home (the real lab)
        Patch dd = suggest(job, "disk_quota", "dd: error writing '/var/tmp/lab/diskfull/checkpoint-276.bin': No space"
                + " left on device", "#!/bin/bash\ndd if=/dev/zero of=/var/tmp/lab/diskfull/checkpoint.bin bs=256K count=16\n");
        assertThat(String.join(" ", dd.changes().stream().map(Patch.Change::what).toList())).doesNotContain("HF_HOME")
                .doesNotContain("XDG_CACHE_HOME");
        // nothing changed: the advice names the directory that filled and never speaks of a patch that does nothing
        assertThat(dd.changes()).isEmpty();
        assertThat(String.join(" ", dd.advice())).contains("The node's /var/tmp filled up")
                .doesNotContain("as the patch does").doesNotContain("The patch uses");
        assertThat(CachesFixer.failedPath(new io.slurmwise.classify.Finding(TAXONOMY.kind("disk_quota"), 0.9, List.of(
                new io.slurmwise.classify.Evidence(io.slurmwise.classify.Evidence.Source.STDERR, 3, true,
                        "cp: cannot create regular file '/home/ann/out/x.h5': Disk quota exceeded", "disk_quota", 0.9)),
                List.of()))).contains("/home/ann/out/x.h5");
    }

    /**
     * 1030's line 15 could not be executed (exit 126) and its own `ls -l` shows the script without its execute bit: the
     * line runs through bash; a file with the bit set is on a noexec mount, said so; a non-shell file is advice only.
     */
    @Test
    void aScriptBashCouldNotExecuteRunsThroughBash() {
        Patch.Suggested p = suggested("1030");
        assertThat(p.diff()).contains("-./tools/decompose.sh -n 512 -method scotch\n+bash ./tools/decompose.sh -n 512 -method scotch\n");
        assertThat(p.changes().get(0).why()).contains("its own `ls -l` shows -rw-r--r--, no execute permission")
                .contains("`chmod u+x tools/decompose.sh`");
        JobRecord job = CLUSTER.get("1030");
        String script = "#!/bin/bash\n#SBATCH -p cpu\n\ncd /tmp/run\n./go.sh 4\n";
        Patch noexec = suggest(job, "permission", "-rwxr-xr-x 1 chen cfd-sim 2211 Oct 29 17:42 go.sh\n"
                + "/var/spool/slurmd/job01030/slurm_script: line 5: ./go.sh: Permission denied", script);
        assertThat(((Patch.Suggested) noexec).diff()).contains("+bash ./go.sh 4");
        assertThat(noexec.changes().get(0).why()).contains("executable, so its filesystem is mounted noexec")
                .doesNotContain("chmod");
        Patch python = suggest(job, "permission", "/var/spool/slurmd/job01030/slurm_script: line 5: ./fit.py: Permission"
                + " denied", "#!/bin/bash\n#SBATCH -p cpu\n\ncd /tmp/run\n./fit.py 4\n");
        assertThat(python.changes()).isEmpty();
        assertThat(String.join(" ", python.advice())).contains("`chmod u+x fit.py`");
        // the listing before the denial is the run's; a chmod and listing after it say nothing of that run
        Patch later = suggest(job, "permission", "-rw-r--r-- 1 chen cfd-sim 2211 Oct 29 17:42 go.sh\n"
                + "/var/spool/slurmd/job01030/slurm_script: line 5: ./go.sh: Permission denied\n"
                + "-rwxr--r-- 1 chen cfd-sim 2211 Oct 29 17:43 go.sh", script);
        assertThat(later.changes().get(0).why()).contains("shows -rw-r--r--, no execute permission");
    }

    /**
     * 1038's PyTorch has kernels for sm_37 ... sm_86 and the job ran on an H100 (sm_90): it moves to the A100s (sm_80)
     * with its GPU type, said as the way to run now; its --qos is named as something to check. A job whose own GPU is
     * in the list, or a log without the list, moves nowhere.
     */
    @Test
    void aFrameworkWithoutKernelsForTheGpuMovesToAGpuItWasBuiltFor() {
        Patch.Suggested p = suggested("1038");
        assertThat(p.diff()).contains("-#SBATCH --partition=gpuH100x8\n+#SBATCH --partition=gpuA100x4\n")
                .contains("-#SBATCH --gres=gpu:h100:1\n+#SBATCH --gres=gpu:a100:1\n");
        assertThat(p.changes().get(0).why()).isEqualTo("no kernels for the h100's sm_90; gpuA100x4's a100 (sm_80) is among"
                + " the GPUs the framework was built for (sm_37 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86), so it runs there now;"
                + " the lasting fix is a build for the h100 (the first fix)");
        // the fixture's scontrol says gpuA100x4 admits gpu: nothing to check; unread, the check; refused, a warning
        assertThat(String.join(" ", p.advice())).doesNotContain("must be allowed on").doesNotContain("admits");
        JobRecord job = CLUSTER.get("1038");
        List<LogTail> logs = List.of(CLUSTER.logTail(job, LogStream.STDERR, 300));
        Finding f = SW.classifier().classify(JobFacts.of(job), logs);
        java.util.function.Function<io.slurmwise.job.Partition.QosAccess, Patch> with = a -> new PatchSuggester(TAXONOMY)
                .suggest(job, f, logs, FixtureCluster.script("1038"), CLUSTER.partitions().stream()
                        .map(x -> x.name().equals("gpuA100x4") ? x.withQosAccess(a) : x).toList());
        assertThat(String.join(" ", with.apply(io.slurmwise.job.Partition.QosAccess.UNKNOWN).advice()))
                .contains("--qos=gpu must be allowed on gpuA100x4 too: `scontrol show partition gpuA100x4`");
        assertThat(String.join(" ", with.apply(new io.slurmwise.job.Partition.QosAccess(true, java.util.Set.of("normal"),
                java.util.Set.of())).advice())).startsWith("Partition gpuA100x4 admits AllowQos=normal, not the script's"
                + " --qos=gpu");
        String script = FixtureCluster.script("1038").orElseThrow();
        Patch withSm90 = suggest(job, "no_kernel_image", "The current PyTorch install supports CUDA capabilities sm_80 sm_90.",
                script);
        assertThat(withSm90.changes()).noneMatch(c -> c.what().contains("--partition"));
        Patch noList = suggest(job, "no_kernel_image", "RuntimeError: CUDA error: no kernel image is available for execution"
                + " on the device", script);
        assertThat(noList.changes()).noneMatch(c -> c.what().contains("--partition"));
        assertThat(SupportedGpuFixer.capability("a100_sxm4")).hasValue(80);
        assertThat(SupportedGpuFixer.capability("rtx6000")).isEmpty(); // two boards of two capabilities share the name
    }

    /** A relative path written with ./ is joined to the directory the job ran in without it. */
    @Test
    void aDotSlashPathIsJoinedToTheWorkingDirectory() {
        Patch p = suggest(CLUSTER.get("1019"), "file_not_found", "cat: ./data/in.csv: No such file or directory",
                "#!/bin/bash\n#SBATCH -p cpu\n\ncd /scratch/u/run\ncat ./data/in.csv\n");
        assertThat(String.join(" ", p.advice())).contains("(/scratch/u/run, the script's `cd`): /scratch/u/run/data/in.csv.")
                .contains("`ls -l /scratch/u/run/data/`");
    }

    @Test
    void moduleSystemAndUnknownModules() {
        assertThat(suggested("1012").diff()).contains("-#!/bin/sh\n+#!/bin/bash -l\n");
        String diff = suggested("1031").diff();
        assertThat(diff).contains("+# slurmwise: 'pytorch/2.3.0' is unknown to the module system here;\n"
                + "+# find its current name with: module spider pytorch\n+module load cuda/12.1 pytorch/2.3.0 || exit 1\n");
        assertThat(diff.lines().filter(l -> l.startsWith("+")).mapToInt(String::length).max().orElse(0))
                .as("added lines fit 80 columns").isLessThanOrEqualTo(80);
        // the || exit 1 is a guard, said as one, and the patch says first that the job still needs the module's name
        Patch.Suggested p = suggested("1031");
        assertThat(p.changes().get(0).what()).startsWith("guard: module load ... || exit 1");
        assertThat(p.advice().get(0)).startsWith("This guard alone does not fix the job")
                .contains("`module spider pytorch`");
    }

    @Test
    void missingLibrariesLoadTheirModuleOrUseTheEnvironmentsLibDir() {
        assertThat(suggested("1009").diff()).contains(" module load gcc/12.2.0 openmpi/4.1.6\n+module load fftw/3.3.10\n");
        assertThat(suggested("1037").diff()).contains("+export LD_LIBRARY_PATH=/home/erik/.conda/envs/regrid2/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}");
        Patch py = failed("1007").patch();
        assertThat(py).isInstanceOf(Patch.NotSuggested.class);
        assertThat(String.join(" ", py.advice())).contains("scanpy").contains("~/venvs/sc/bin/activate");
    }

    @Test
    void condaActivateWithoutInitGetsTheHook() {
        JobRecord job = CLUSTER.get("1007");
        String script = "#!/bin/bash\n#SBATCH -p cpu\n\nconda activate sc\npython cluster.py\n";
        Patch p = suggest(job, "import_error", "CommandNotFoundError: Your shell has not been properly configured to use"
                + " 'conda activate'.\nModuleNotFoundError: No module named 'scanpy'", script);
        assertThat(((Patch.Suggested) p).patched()).contains("\neval \"$(conda shell.bash hook)\"\nconda activate sc\n");
    }

    @Test
    void crlfScriptsKeepTheirLineEndingsAndSayWhatSbatchThinksOfThem() {
        JobRecord job = CLUSTER.get("1054").toBuilder().status(JobStatus.of(JobState.OUT_OF_MEMORY))
                .maxRss(DataSize.tryParse("219G").orElseThrow()).elapsed(Duration.ofHours(1)).build();
        String script = FixtureCluster.script("1054").orElseThrow();
        assertThat(script).contains("\r\n");
        Patch.Suggested p = (Patch.Suggested) suggest(job, "oom", "Detected 1 oom-kill event(s)", script);
        // 1.5x the 219G peak does not fit a 250G gpuA100x4 node: capped, with the bigger partition named
        assertThat(p.patched()).contains("#SBATCH --mem=240G\r\n#SBATCH --time=12:00:00\r\n");
        assertThat(p.patched().replace("\r\n", "")).doesNotContain("\n");
        assertThat(String.join(" ", p.advice())).contains("CRLF").contains("dos2unix").contains("gpuH100x8");
    }

    @Test
    void aRefusedRequestAboveANodesMemoryMovesToThePartitionThatHoldsIt() {
        // 1034 asked 2000G on cpu (250G nodes): cutting it to 240G would only fail later; largemem's nodes hold it,
        // and a CPU job is not sent to the GPU partition whose nodes are as large (an outside audit)
        JobRecord job = CLUSTER.get("1034");
        String script = "#!/bin/bash\n#SBATCH -p cpu\n#SBATCH --mem=2000G\n#SBATCH --time=1-00:00:00\nkraken2-build --db db\n";
        Patch.Suggested p = (Patch.Suggested) suggest(job, "resources_unavailable",
                "sbatch: error: Memory specification can not be satisfied", script);
        assertThat(p.patched()).contains("#SBATCH --mem=2000G").contains("largemem").doesNotContain("--mem=240G")
                .doesNotContain("gpuH100x8");
        assertThat(p.changes()).extracting(Patch.Change::why).anyMatch(w -> w.contains("a largemem node has"));
    }

    @Test
    void oomOverANodesMemoryWithManyTasksPerNodeSaysHowToSpreadThem() {
        // 8 ranks per node on 2 nodes, the largest at 30G: 240G per node, 384G with headroom, over a 250G node
        JobRecord job = CLUSTER.get("1054").toBuilder().status(JobStatus.of(JobState.OUT_OF_MEMORY)).allocNodes(2)
                .maxRss(DataSize.tryParse("30G").orElseThrow()).elapsed(Duration.ofHours(1)).build();
        String script = "#!/bin/bash\n#SBATCH -p gpuA100x4\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=8\n"
                + "#SBATCH --mem=200G\nsrun ./prog\n";
        Patch.Suggested p = (Patch.Suggested) suggest(job, "oom", "Detected 1 oom-kill event(s)", script);
        assertThat(p.patched()).contains("#SBATCH --mem=240G\n");
        // 48G per task: 5 fit a 250G node, and 16 tasks need 4 such nodes
        assertThat(String.join(" ", p.advice())).contains("spread the 16 tasks (about 48G each) over more nodes: "
                + "`#SBATCH --ntasks-per-node=5` (was 8) with `#SBATCH --nodes=4` (was 2)");
        // one task per node cannot be spread: the words, no numbers
        String single = "#!/bin/bash\n#SBATCH -p gpuA100x4\n#SBATCH --mem=200G\n./prog\n";
        JobRecord one = job.toBuilder().allocNodes(1).maxRss(DataSize.tryParse("219G").orElseThrow()).build();
        Patch.Suggested q = (Patch.Suggested) suggest(one, "oom", "Detected 1 oom-kill event(s)", single);
        assertThat(String.join(" ", q.advice())).contains("or spread the work over more nodes.")
                .doesNotContain("--ntasks-per-node");
    }

    @Test
    void aMissingScriptIsSaidAndTheChangesAreListedWithoutADiff() {
        Patch p = failed("1004").patch();
        assertThat(p).isInstanceOf(Patch.NotSuggested.class);
        assertThat(((Patch.NotSuggested) p).reason()).contains("batch script of job 1004 is not available");
        assertThat(p.changes()).extracting(Patch.Change::what).anyMatch(w -> w.contains("PYTORCH_CUDA_ALLOC_CONF"));
    }

    @Test
    void kindsWithoutAMechanicalFixSaySo() {
        Patch p = failed("1003").patch();
        assertThat(p).isInstanceOf(Patch.NotSuggested.class);
        assertThat(((Patch.NotSuggested) p).reason()).contains("no mechanical change").contains("segfault");
    }

    @Test
    void everyPatchedScriptStillParsesAndTheDiffReproducesIt(@TempDir Path tmp) throws Exception {
        int suggested = 0;
        for (JobRecord j : CLUSTER.all()) {
            if (!(SW.diagnose(j.id()) instanceof Diagnosis.Failed f) || !(f.patch() instanceof Patch.Suggested p)) {
                continue;
            }
            suggested++;
            BatchScript before = BatchScript.parse(p.original());
            BatchScript after = BatchScript.parse(p.patched());
            // sbatch still reads every option it read before (values may change, none disappears)
            for (BatchScript.Option o : before.options()) {
                assertThat(after.has(o.name())).as(j.id() + " keeps --" + o.name()).isTrue();
            }
            assertThat(after.options().size()).isGreaterThanOrEqualTo(before.options().size());
            // the unified diff turns the original into the patched script
            List<String> diff = Arrays.asList(p.diff().split("\n"));
            List<String> applied = DiffUtils.patch(before.lines(), UnifiedDiffUtils.parseUnifiedDiff(diff));
            assertThat(applied).as(j.id() + " diff applies").isEqualTo(after.lines());
            // and bash still parses it
            Path file = tmp.resolve(p.scriptName());
            Files.writeString(file, p.patched().replace("\r\n", "\n"));
            assertThat(bashSyntax(file)).as(j.id() + ": bash -n " + p.patched()).isEmpty();
        }
        assertThat(suggested).isGreaterThanOrEqualTo(18);
    }

    private static String bashSyntax(Path file) throws IOException, InterruptedException {
        Process proc = new ProcessBuilder("bash", "-n", file.toString()).redirectErrorStream(true).start();
        String out = new String(proc.getInputStream().readAllBytes());
        assertThat(proc.waitFor(20, TimeUnit.SECONDS)).isTrue();
        return proc.exitValue() == 0 ? "" : out;
    }

    /**
     * FAILED 0:53 is slurmstepd failing to open the job's output file (ESLURMD_IO_ERROR): the advice names the directory
     * SLURM did not create, from sacct's StdOut (patterns filled in), else the script's --output under its WorkDir.
     */
    @Test
    void aJobWhoseOutputFileCouldNotBeOpenedIsToldWhichDirectoryToCreate() {
        JobRecord job = CLUSTER.get("1043").toBuilder().exitCodeView(io.slurmwise.job.ExitCode.parse("0:53"))
                .exitCode(io.slurmwise.job.ExitCode.parse("0:53")).stdoutPath("/scratch/alice/llama/logs/run/resume-1043.out")
                .stderrPath("/scratch/alice/llama/logs/run/resume-1043.out").build();
        String script = "#!/bin/bash\n#SBATCH -o logs/run/%x-%j.out\n#SBATCH -t 1:00:00\npython train.py\n";
        Patch p = suggest(job, "file_not_found", "", script);
        assertThat(String.join(" ", p.advice())).contains("SLURM could not open the job's output file")
                .contains("if /scratch/alice/llama/logs/run/ does not exist, create it before sbatch (`mkdir -p"
                        + " /scratch/alice/llama/logs/run/`); if it does, check that you can write there (`ls -ld"
                        + " /scratch/alice/llama/logs/run/`: one another user or root owns refuses your job)")
                .doesNotContain("The job looked for");
        assertThat(p.changes()).isEmpty();
        // without sacct's paths: the script's --output under the WorkDir, its %-patterns not put into a mkdir
        JobRecord bare = job.toBuilder().stdoutPath(null).stderrPath(null).build();
        assertThat(String.join(" ", suggest(bare, "file_not_found", "", "#!/bin/bash\n#SBATCH -o logs/%u/%j.out\nx\n")
                .advice())).contains("create it before sbatch, with SLURM's %-patterns filled in");
        // a program's own "could not open output file" is about its output, not the job's
        assertThat(String.join(" ", suggest(CLUSTER.get("1043"), "file_not_found",
                "ERROR: could not open output file results/out.csv", script).advice()))
                .doesNotContain("could not open the job's output file");
        // another file_not_found (a path in the log) gets no such advice
        assertThat(String.join(" ", suggest(CLUSTER.get("1043"), "file_not_found",
                "FileNotFoundError: [Errno 2] No such file or directory: 'ckpt/a.pt'", script).advice()))
                .doesNotContain("could not open the job's output file");
    }

    /**
     * A workflow's head job whose rule's sbatch was refused asked for nothing wrong itself: no patch of its script (it
     * would have moved the head job to largemem for the refused child's 2000G).
     */
    @Test
    void aRequestAWorkflowSubmittedIsNotPatchedIntoTheHeadJobsScript() {
        JobRecord head = CLUSTER.get("1034");
        String script = "#!/bin/bash\n#SBATCH --partition=cpu\n#SBATCH --mem=2000G\nsnakemake --executor slurm\n";
        Patch own = suggest(head, "resources_unavailable", "sbatch: error: Batch job submission failed: Requested node"
                + " configuration is not available", script);
        assertThat(own).isInstanceOf(Patch.Suggested.class);
        Patch child = suggest(head, "resources_unavailable", "WorkflowError:\nSLURM sbatch failed. The error message was"
                + " sbatch: error: Batch job submission failed: Requested node configuration is not available", script);
        assertThat(child).isInstanceOf(Patch.NotSuggested.class);
        assertThat(((Patch.NotSuggested) child).reason()).contains("a job the workflow submitted, not job 1034")
                .contains("change it in the workflow");
        assertThat(child.changes()).isEmpty();
    }

    /**
     * bash says "<path>: Permission denied" also when a redirection cannot create its file: the real lab's array task
     * writing into a root-owned results/ was told to `chmod u+x` the CSV. A write is not an execute.
     */
    @Test
    void aRedirectionThatCannotWriteIsNotAnExecutePermission() {
        String script = "#!/bin/bash\n#SBATCH --array=1-3\necho \"task 2 writes to results/\"\n"
                + "echo \"id,score\" > results/task_2.csv\n";
        Patch p = suggest(CLUSTER.get("1030"), "permission", "/var/spool/slurmd/job00277/slurm_script: line 4:"
                + " results/task_2.csv: Permission denied", script);
        String advice = String.join(" ", p.advice());
        assertThat(advice).contains("bash could not write results/task_2.csv: line 4 of the script")
                .contains("ls -ld results").doesNotContain("chmod u+x");
        assertThat(p.changes()).isEmpty();
    }

    /**
     * The real lab's deadline_cut: the script asks --time=00:10:00 --time-min=00:01:00 and slurmctld cut the limit to the
     * minute left before its --deadline; it ended TIMEOUT. A longer --time is cut the same way: the patch proposes none
     * (it raised it to 00:15:00 beside advice saying so), and says what gives the run its time.
     */
    @Test
    void aTimeLimitCutToTheDeadlineIsNotRaised() {
        java.time.LocalDateTime start = java.time.LocalDateTime.of(2026, 12, 7, 14, 54, 36);
        JobRecord job = CLUSTER.get("1018").toBuilder().start(start).end(start.plusSeconds(87))
                .elapsed(java.time.Duration.ofSeconds(87)).timeLimit(io.slurmwise.job.TimeLimit.of(java.time.Duration.ofMinutes(1)))
                .deadline(start.plusSeconds(107)).timeMin(java.time.Duration.ofMinutes(1)).build();
        String script = "#!/bin/bash\n#SBATCH --time=00:10:00\n#SBATCH --time-min=00:01:00\n./steps 600\n";
        String log = "step 87/600\nstep 88/600\nslurmstepd: error: *** JOB 1018 ON c001 CANCELLED AT 2026-12-07T14:56:03"
                + " DUE TO TIME LIMIT ***\n";
        Patch p = suggest(job, "time_limit", log, script);
        assertThat(p).isInstanceOf(Patch.NotSuggested.class);
        assertThat(p.changes()).isEmpty();
        assertThat(p.advice().get(0)).startsWith("Job 1018 ran with --time 00:01:00, not its script's 00:10:00, because"
                + " slurmctld cut the limit to the time left before its --deadline 2026-12-07T14:56:23 (its --time-min"
                + " 00:01:00 lets it start with less than its --time); no command line overrode it. A longer --time is"
                + " cut the same way, so none is proposed");
        assertThat(String.join(" ", p.advice())).doesNotContain("the sbatch command line");
        // without the deadline the same run gets more time: the cut, not the TIMEOUT, decides
        Patch plain = suggest(job.toBuilder().deadline(null).build(), "time_limit", log, script);
        assertThat(plain.changes()).anyMatch(c -> c.sets().containsKey("time"));
    }

    private static Patch suggest(JobRecord job, String kind, String log, String script) {
        List<LogTail> logs = new ArrayList<>(List.of(LogTail.of(LogStream.STDERR, "job.err", log)));
        Finding classified = SW.classifier().classify(JobFacts.of(job), logs);
        Finding f = classified.kindId().equals(kind) ? classified
                : new Finding(TAXONOMY.kind(kind), 0.9, classified.evidence(), List.of());
        return new PatchSuggester(TAXONOMY).suggest(job, f, logs, Optional.of(script), CLUSTER.partitions());
    }

    /** The same with the fixture cluster's QOSes known. */
    private static Patch suggestWithQos(JobRecord job, String kind, String log, String script) {
        List<LogTail> logs = new ArrayList<>(List.of(LogTail.of(LogStream.STDERR, "job.err", log)));
        Finding classified = SW.classifier().classify(JobFacts.of(job), logs);
        Finding f = classified.kindId().equals(kind) ? classified
                : new Finding(TAXONOMY.kind(kind), 0.9, classified.evidence(), List.of());
        return new PatchSuggester(TAXONOMY).suggest(job, f, logs, Optional.of(script), CLUSTER.partitions(), CLUSTER::qos);
    }
}
