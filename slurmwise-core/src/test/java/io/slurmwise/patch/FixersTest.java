package io.slurmwise.patch;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.classify.Classifier;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.Partition;
import io.slurmwise.job.JobState;
import io.slurmwise.job.JobStatus;
import io.slurmwise.job.TimeLimit;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Taxonomy;
import io.slurmwise.taxonomy.TaxonomyException;
import io.slurmwise.testing.FixtureCluster;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Fixers are named by the notes: no kind id in the patch code, site notes reuse fixers, typos are caught. */
class FixersTest {

    static final Path SITE = Path.of("src", "test", "resources", "io", "slurmwise", "patch");
    static final FixtureCluster CLUSTER = PatchSuggesterTest.CLUSTER;

    @Test
    void thePatchPackageNamesNoFailureKind() throws IOException {
        Path dir = Path.of("src", "main", "java", "io", "slurmwise", "patch");
        // sbatch's own --dependency option (BatchScript's short-option table) shares a word with the dependency kind,
        // and its --deadline option with the deadline kind (the later_deadline fixer reads the option)
        List<String> ids = Taxonomy.load(null).kinds().stream().map(FailureKind::id)
                .filter(id -> !BatchScript.parse("#SBATCH -d x\n").has(id) && !id.equals("deadline")).toList();
        assertThat(ids).contains("oom", "time_limit", "nccl", "cuda_oom");
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                String src = Files.readString(f);
                for (String id : ids) {
                    assertThat(src).as(f + " names kind " + id).doesNotContain("\"" + id + "\"");
                }
            }
        }
    }

    @Test
    void everyFixerIsNamedByABundledNoteAndEveryNameExists() {
        Taxonomy t = Taxonomy.load(null);
        Fixers fixers = Fixers.bundled();
        fixers.check(t);
        List<String> used = t.kinds().stream().flatMap(k -> k.fixers().stream()).distinct().toList();
        assertThat(used).containsExactlyInAnyOrderElementsOf(fixers.names());
        // SLURM requeues after a node failure or a preemption, never after a time limit
        assertThat(t.kind("time_limit").fixers()).containsExactly("time");
        assertThat(t.kind("node_fail").fixers()).contains("requeue");
    }

    @Test
    void aSiteNoteReusesFixersWithoutJavaCode() {
        Taxonomy t = Taxonomy.load(SITE.resolve("site-notes"));
        assertThat(t.kind("site_walltime").fixers()).containsExactly("time", "requeue");
        JobRecord job = CLUSTER.get("1030").toBuilder().status(JobStatus.of(JobState.FAILED))
                .elapsed(Duration.ofHours(1)).timeLimit(TimeLimit.of(Duration.ofHours(1))).build();
        List<LogTail> logs = List.of(LogTail.of(LogStream.STDERR, "job.err",
                "step 500/1000 loss 0.2\nWALLTIME WATCHDOG: job 1030 stopped at its time limit\n"));
        Finding f = new Classifier(t).classify(JobFacts.of(job), logs);
        assertThat(f.kindId()).isEqualTo("site_walltime");
        Patch p = new PatchSuggester(t).suggest(job, f, logs, FixtureCluster.script("1030"), CLUSTER.partitions());
        assertThat(p).isInstanceOf(Patch.Suggested.class);
        // half the work in 1h: 2h, +20%: 2h24m, rounded to the hour above 2h
        assertThat(((Patch.Suggested) p).patched()).contains("03:00:00").contains("#SBATCH --requeue")
                .doesNotContain("#SBATCH --signal");
        assertThat(p.changes()).extracting(Patch.Change::what).anyMatch(w -> w.startsWith("--time="))
                .anyMatch(w -> w.contains("--requeue"));
    }

    @Test
    void aNoteNamingAnUnknownFixerIsAConfigurationError() {
        Taxonomy t = Taxonomy.load(SITE.resolve("bad-fixer"));
        assertThatThrownBy(() -> new PatchSuggester(t)).isInstanceOf(TaxonomyException.class)
                .hasMessageContaining("site_typo.md").hasMessageContaining("unknown fixer 'memroy'")
                .hasMessageContaining("memory");
    }

    @Test
    void stepsAreImmutableAndChainInOrder() {
        BatchScript s = BatchScript.parse("#!/bin/bash\n#SBATCH --mem=4G\nsrun x\n");
        Step a = Step.none(s).change(s.withOption("mem", "8G"), "--mem=8G", "more").advise("tip");
        Step b = Step.none(a.script()).change(a.script().insertDirective("#SBATCH --requeue"), "--requeue", "back")
                .advise("tip");
        Step both = a.then(b);
        assertThat(a.changes()).hasSize(1);
        assertThat(both.changes()).extracting(Patch.Change::what).containsExactly("--mem=8G", "--requeue");
        assertThat(both.advice()).containsExactly("tip");
        assertThat(both.script().text()).contains("--mem=8G").contains("--requeue");
        assertThat(s.text()).contains("--mem=4G").doesNotContain("requeue");
    }

    @Test
    void aPendingJobThatCanNeverStartGetsTheNearestValidRequest() {
        var sw = PatchSuggesterTest.SW;
        Diagnosis d = sw.diagnose("1055");
        assertThat(d).isInstanceOf(Diagnosis.StatusOnly.class);
        var pending = ((Diagnosis.StatusOnly) d).optPending().orElseThrow();
        Patch p = pending.optPatch().orElseThrow();
        assertThat(p).isInstanceOf(Patch.Suggested.class);
        Patch.Suggested s = (Patch.Suggested) p;
        // it asked for 24 hours ("22542799 needed more than 12h"): the partition that allows them, with its GPU type,
        // not a cut to gpuA100x4's 12 hours that would time out (an outside audit)
        assertThat(s.diff()).contains("-#SBATCH --partition=gpuA100x4").contains("+#SBATCH --partition=gpuH100x8")
                .contains("+#SBATCH --gres=gpu:h100:1").doesNotContain("+#SBATCH --time=");
        assertThat(s.changes().get(0).what()).isEqualTo("--partition=gpuH100x8 (was gpuA100x4), --gres=gpu:h100:1 (was gpu:a100:1)");
        assertThat(s.changes().get(0).why()).contains("allows at most 12:00:00").contains("gpuH100x8 allows 2-00:00:00");
        assertThat(String.join(" ", s.advice())).contains("To stay on gpuA100x4, ask for at most 12:00:00");
        // a pending job that will start on its own gets no patch
        var waiting = ((Diagnosis.StatusOnly) sw.diagnose("1060")).optPending().orElseThrow();
        assertThat(waiting.optPatch()).isEmpty();
    }

    /** 1027 wrote its 15 shards to OUT=$HOME/ckpt_export/...: the output moves to scratch, not only the caches. */
    @Test
    void theOutputThatFilledTheHomeQuotaMovesToScratch() {
        Patch p = PatchSuggesterTest.failed("1027").patch();
        assertThat(p).isInstanceOf(Patch.Suggested.class);
        Patch.Suggested s = (Patch.Suggested) p;
        assertThat(s.diff()).contains("-OUT=$HOME/ckpt_export/llama-7b-sft-v2").contains("+OUT=/scratch/$USER/ckpt_export/llama-7b-sft-v2");
        assertThat(s.changes().get(0).why()).contains("/home/alice/ckpt_export/llama-7b-sft-v2/model-00004-of-00015.safetensors")
                .contains("this job's own output under the home directory");
        // the caches still move, said as what they are (not the quota's cause)
        assertThat(s.changes()).anySatisfy(c -> assertThat(c.why()).contains("on the home quota too"));
    }

    /** A position on the human genome is the share of its bases before it, in either naming. */
    @Test
    void aGenomePositionIsTheShareOfTheGenomeBeforeIt() {
        GenomePosition g = GenomePosition.bundled();
        assertThat(g.fraction("chr1", 0).orElseThrow()).isZero();
        assertThat(g.fraction("chr7", 79_500_000).orElseThrow()).isCloseTo(0.4247, org.assertj.core.data.Offset.offset(0.0005));
        assertThat(g.fraction("7", 79_500_000)).isEqualTo(g.fraction("chr7", 79_500_000));
        assertThat(g.fraction("chrY", 57_227_415).orElseThrow()).isEqualTo(1.0);
        // past a chromosome's end, or a contig the table does not have: no share
        assertThat(g.fraction("chr21", 50_000_000)).isEmpty();
        assertThat(g.fraction("chrUn_KI270302v1", 10)).isEmpty();
    }

    /** Homes are not always /home/<user>: the failed write's own path says where the user's home is. */
    @Test
    void theHomeIsWhereTheFailedPathPutsTheUsersDirectory() {
        assertThat(CachesFixer.homeIn("/u/alice/ckpt/x.pt", "alice")).contains("/u/alice");
        assertThat(CachesFixer.homeIn("/home1/01234/alice/out/x", "alice")).contains("/home1/01234/alice");
        assertThat(CachesFixer.homeIn("/global/homes/a/alice/run/x", "alice")).contains("/global/homes/a/alice");
        assertThat(CachesFixer.homeIn("/home/alice/out/x", "alice")).contains("/home/alice");
        // scratch and project space are not the home, nor a file named like the user
        assertThat(CachesFixer.homeIn("/scratch/alice/out/x", "alice")).isEmpty();
        assertThat(CachesFixer.homeIn("/projects/bio/alice/x", "alice")).isEmpty();
        assertThat(CachesFixer.homeIn("/home/bob/alice", "alice")).isEmpty();
    }

    /**
     * A preemption sends SIGTERM: the advice traps it with the work in the background, and the patch adds no --signal,
     * which a script without a trap dies of at once (an outside audit: seven jobs' patches killed their batch shell 5
     * minutes before the limit). A node failure sends nothing: resume advice only.
     */
    @Test
    void preemptionAdviceTrapsTermAndNoPatchAddsAnUntrappedSignal() {
        // 1039 under a QOS no other preempts (under its own scavenger it moves QOS instead: PatchSuggesterTest)
        JobRecord job = PatchSuggesterTest.failed("1039").job().toBuilder().qos("normal").build();
        Patch p = new PatchSuggester(PatchSuggesterTest.TAXONOMY).suggest(job, PatchSuggesterTest.failed("1039").finding(), List.of(),
                FixtureCluster.script("1039").map(t -> t.replace("--qos=scavenger", "--qos=normal")), CLUSTER.partitions(),
                CLUSTER::qos);
        assertThat(String.join(" ", p.advice())).contains("A preemption sends SIGTERM").contains("' TERM; wait $PID")
                .contains("& PID=$!").contains("SLURM_RESTART_COUNT");
        for (String id : List.of("1039", "1005", "1015", "1016", "1018", "22542799")) {
            Patch q = PatchSuggesterTest.failed(id).patch();
            if (q instanceof Patch.Suggested s) {
                assertThat(s.diff()).as(id).doesNotContain("+#SBATCH --signal");
            }
        }
        String nodeFail = String.join(" ", PatchSuggesterTest.failed("1005").patch().advice());
        assertThat(nodeFail).contains("resume from the newest checkpoint").doesNotContain("SIGTERM");
    }

    /**
     * A rerun that would reach its limit says so: 1015's node failure came after 900 of 2502 steps in 4:51 (limit 10 h,
     * MaxTime 12 h) and 1036's GPU fault after epoch 23 of 100 in 5:12 (an outside audit). More than the partition
     * gives is advice, not a move of the job beside another failure; a job whose logs show no progress (1001) or whose
     * estimate fits its limit gets nothing from it.
     */
    @Test
    void aRerunThatWouldReachItsLimitIsToldAndNotMoved() {
        for (String id : List.of("1015", "1036")) {
            Patch p = PatchSuggesterTest.failed(id).patch();
            assertThat(String.join(" ", p.advice())).as(id).contains("Even with this fixed, the rerun would reach its time"
                    + " limit").contains("MaxTime").contains("--dependency=afterany:<jobid>");
            assertThat(p.changes()).as(id).noneMatch(c -> c.what().contains("--partition") || c.what().contains("--time"));
        }
        // 1015 needs about 1-01:00:00 under QOS gpu (MaxWall 1-00:00:00): gpuH100x8's 2 days would not give it that,
        // so the QOS is named, not a partition to move to
        assertThat(String.join(" ", PatchSuggesterTest.failed("1015").patch().advice())).contains("24% of the work in its first 04:45:40")
                .contains("its QOS gpu allows at most 1-00:00:00 (MaxWall) on every partition").doesNotContain("gpuH100x8");
        Patch oom = PatchSuggesterTest.failed("1001").patch();
        assertThat(oom.changes()).extracting(Patch.Change::what).noneMatch(w -> w.contains("--time"));
        assertThat(String.join(" ", oom.advice())).doesNotContain("rerun would reach");
        assertThat(Taxonomy.load(null).kind("oom").fixers()).endsWith("rerun_time");
    }

    /**
     * Progress a run's logs state in other forms: a step within an epoch that names no total is read against the
     * script's --epochs (1015: epoch 22 of 90, not the 36% of its steps) and read not at all without it; a trainer's
     * own "eta" against the time the job ran (1028's detectron2 line; an outside audit).
     */
    @Test
    void aStepWithinAnEpochIsReadAgainstTheScriptsEpochsAndAnEtaAgainstTheTimeRun() {
        TimeFixer t = new TimeFixer(Patterns.bundled());
        List<String> log = List.of("epoch  21 | train loss 1.1906", "epoch  22 | step  900/2502 | loss 1.6120");
        assertThat(t.progress(log, "srun python train.py --epochs 90\n", null).fraction())
                .isCloseTo((21 + 900 / 2502.0) / 90, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(t.progress(log, "srun python train.py\n", null).fraction()).isZero();
        // a long script's --epochs is read where it is, past the first 2,000 characters (one line at a time)
        String longScript = "#!/bin/bash\n" + "# setting up the environment of the run\n".repeat(80)
                + "srun python train.py --epochs 90\n";
        assertThat(longScript.indexOf("--epochs")).isGreaterThan(2_000);
        assertThat(t.progress(log, longScript, null).fraction())
                .isCloseTo((21 + 900 / 2502.0) / 90, org.assertj.core.data.Offset.offset(1e-9));
        List<String> d2 = List.of("[12:21:30 d2.utils.events]:  eta: 1 day, 8:43:00  iter: 9000  total_loss: 31.40");
        assertThat(t.progress(d2, "", java.time.Duration.ofHours(2)).fraction())
                .isCloseTo(7200.0 / (7200 + 117_780), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(t.progress(d2, "", null).fraction()).isZero();
        assertThat(String.join(" ", PatchSuggesterTest.failed("1028").patch().advice())).contains("eta: 1 day, 8:43:00");
    }

    /**
     * A step count with the program's own rate beside it is a reading of the whole run however little is done: the
     * steps left at that rate are the time the rest takes (1023: 1,050 of 160,000 iterations at 0.49 s each after 10
     * minutes; 1022: 150 of 200,000 steps at 1.91 s/step), where the share done alone (under 1%) is too rough to
     * extrapolate (an outside audit: their rerun check read no progress).
     */
    @Test
    void aStepCountWithItsRateTellsTheTimeTheRestTakes() {
        TimeFixer t = new TimeFixer(Patterns.bundled());
        java.time.Duration ran = java.time.Duration.ofSeconds(611);
        TimeFixer.Progress p = t.progress(List.of("[2026-11-10 13:16:20] iter  1050/160000 | loss 2.3 | 0.49s/it"), "", ran);
        assertThat(p.timed()).isTrue();
        assertThat(p.usable()).isTrue();
        assertThat(p.fraction()).isCloseTo(611 / (611 + 158_950 * 0.49), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(p.line()).isEqualTo("\"iter 1050/160000\" at 0.49 s/it"); // as a reader quotes it, one space
        assertThat(TimeFixer.share(p)).isEqualTo("about 1%");
        // tqdm's rate is per second; a trainer's s/step is per step
        assertThat(t.progress(List.of("step 100/1000 12.5it/s"), "", ran).fraction())
                .isCloseTo(611 / (611 + 900 / 12.5), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(t.progress(List.of("step 150/200000 | 1.91s/step"), "", ran).fraction())
                .isCloseTo(611 / (611 + 199_850 * 1.91), org.assertj.core.data.Offset.offset(1e-9));
        // without the time the job ran, or without a rate, the share done is all there is: too rough under 5%
        assertThat(t.progress(List.of("iter 1050/160000 | 0.49s/it"), "", null).usable()).isFalse();
        assertThat(t.progress(List.of("iter 1050/160000 | loss 2.3"), "", ran).usable()).isFalse();
        assertThat(t.progress(List.of("iter 1050/160000 | 0s/it"), "", ran).usable()).isFalse();
        assertThat(String.join(" ", PatchSuggesterTest.failed("1023").patch().advice()))
                .contains("Even with this fixed, the rerun would reach its time limit: it did about 1% of the work in"
                        + " 00:10:11 (\"iter 1050/160000\" at 0.49 s/it)");
        assertThat(String.join(" ", PatchSuggesterTest.failed("1022").patch().advice()))
                .contains("it did less than 1% of the work in 00:07:31 (\"step 150/200000\" at 1.91 s/step), so the whole"
                        + " run needs about 5-08:00:00");
    }

    /**
     * Where a Python program crashed, from faulthandler's frames of the crashing thread: the innermost frame names the
     * package's compiled code, the first frame of the user's own code the call that reached it (1029; an outside
     * audit: the panel quoted the signal and not where).
     */
    @Test
    void faulthandlersFramesNameTheCrashSiteAndTheCallThatReachedIt() {
        String advice = String.join(" ", PatchSuggesterTest.failed("1029").patch().advice());
        assertThat(advice).contains("Crashed in pysam's `AlignmentFile.pileup` (libcalignmentfile.pyx:1363), called from"
                + " scripts/allele_counts.py:74 (`count_region`), as Python's faulthandler shows. The crash is in pysam's"
                + " compiled code").contains("reinstall or update pysam");
        CrashSiteFixer f = new CrashSiteFixer(Patterns.bundled());
        // another thread's frames are not the crash's; a crash in the user's own code names no package
        List<String> own = List.of("Fatal Python error: Segmentation fault", "",
                "Thread 0x00007f0000000001 (most recent call first):",
                "  File \"/usr/lib/python3.11/threading.py\", line 320 in wait", "",
                "Current thread 0x00007f0000000002 (most recent call first):",
                "  File \"/home/u/run/solver.py\", line 12 in step",
                "  File \"/home/u/run/solver.py\", line 40 in <module>", "", "Extension modules: numpy");
        assertThat(f.crashingThread(own)).extracting(CrashSiteFixer.Frame::function).containsExactly("step", "<module>");
        assertThat(CrashSiteFixer.advice(f.crashingThread(own))).isEqualTo("Crashed in `step` (solver.py:12), as Python's"
                + " faulthandler shows. Run that call alone on the same input to reproduce it under"
                + " `gdb --args python ...`.");
        assertThat(f.crashingThread(List.of("Segmentation fault (core dumped)"))).isEmpty();
        // a native stack: the first frame after the handler, the printer and libc (1003's OpenFOAM stack)
        assertThat(String.join(" ", PatchSuggesterTest.failed("1003").patch().advice())).contains("Crashed in"
                + " `Foam::LESModels::cubeRootVolDelta::calcDelta()`, the first frame after the signal handler");
        assertThat(f.nativeCrash(List.of("#0  0x00007f3a2b in raise () from /lib64/libc.so.6",
                "#1  <signal handler called>", "#2  0x0000000000401136 in solve (n=4) at solver.c:88")))
                .hasValueSatisfying(fr -> assertThat(fr.function() + " " + fr.file()).isEqualTo("solve (n=4) solver.c:88"));
        assertThat(f.nativeCrash(List.of("[137] #2  ? in /lib64/libc.so.6"))).isEmpty();
        assertThat(f.nativeCrash(List.of("#3 loading the mesh in /scratch/u/case"))).isEmpty(); // words, no function
        // Open MPI's handler prints glibc's backtrace_symbols frames: the handler's own frame has no symbol
        assertThat(f.nativeCrash(List.of("[node12:48213] *** Process received signal ***",
                "[node12:48213] Signal: Segmentation fault (11)",
                "[node12:48213] [ 0] /lib64/libpthread.so.0(+0xf630)[0x2b1c2d3e4630]",
                "[node12:48213] [ 1] /lib64/libc.so.6(gsignal+0x37)[0x2b1c2d3e5277]",
                "[node12:48213] [ 2] /opt/app/lib/libsolver.so(_ZN6Solver4stepEv+0x1c)[0x2b3c4d5e6f70]",
                "[node12:48213] [ 3] ./solver(main+0x2a)[0x400b2a]")))
                .hasValueSatisfying(fr -> assertThat(fr.function() + " " + fr.file() + " " + fr.line())
                        .isEqualTo("Solver::step() libsolver.so 2"));
        // Intel Fortran's traceback: the runtime's handler and libc rows, then the program's routine with its line
        assertThat(f.nativeCrash(List.of("forrtl: severe (174): SIGSEGV, segmentation fault occurred",
                "Image              PC                Routine            Line        Source",
                "libifcoremt.so.5   00002B3C4D5E6F70  for__signal_handl     Unknown  Unknown",
                "libpthread-2.17.s  00002AB91A78B5D0  Unknown               Unknown  Unknown",
                "mymodel            0000000000401234  solver_mp_step_           123  solver.f90",
                "mymodel            0000000000400E1E  MAIN__                     40  main.f90")))
                .hasValueSatisfying(fr -> assertThat(fr.function() + " " + fr.file()).isEqualTo("solver_mp_step_ solver.f90:123"));
        // a build without -traceback: every routine Unknown, nothing named
        assertThat(f.nativeCrash(List.of("Image              PC                Routine            Line        Source",
                "vasp_std           00000000004151F0  Unknown               Unknown  Unknown",
                "libc-2.17.so       00002AB91AD5B3D5  __libc_start_main     Unknown  Unknown"))).isEmpty();
        assertThat(CrashSiteFixer.demangle("_ZN4Foam9LESModels16cubeRootVolDelta9calcDeltaEv"))
                .isEqualTo("Foam::LESModels::cubeRootVolDelta::calcDelta()");
        assertThat(CrashSiteFixer.demangle("_ZNK3Mat3getEii")).isEqualTo("Mat::get(...) const");
        assertThat(CrashSiteFixer.demangle("_ZN6SolverD2Ev")).isEqualTo("Solver::~Solver()");
        assertThat(CrashSiteFixer.demangle("_Z5solvei")).isEqualTo("solve(...)");
        assertThat(CrashSiteFixer.demangle("main")).isEqualTo("main");
        // a template or a substitution is left as it is, never guessed
        assertThat(CrashSiteFixer.demangle("_ZN3vecIiE9push_backERKi")).isEqualTo("_ZN3vecIiE9push_backERKi");
        assertThat(CrashSiteFixer.demangle("_ZN99x")).isEqualTo("_ZN99x");
    }

    /**
     * The path a program could not find, read against where the job looked: 4242_3's relative raw/S03_R1.fastq.gz
     * under the script's `cd`, beside the raw/S03_L001_* files its own `ls -l` listed; 1019's absolute path, for
     * which the directory the job ran in is not the cause; 1043's relative checkpoint under sacct's WorkDir (an
     * outside audit: the note's generic fixes while the log held the fact).
     */
    @Test
    void aMissingPathIsReadAgainstWhereTheJobLookedAndTheFilesItsLogLists() {
        assertThat(String.join(" ", PatchSuggesterTest.failed("4242_3").patch().advice())).contains("The job looked for"
                + " raw/S03_R1.fastq.gz; its own log lists raw/S03_L001_R1.fastq.gz (and 1 more) there:"
                + " the name differs. The path is relative, so it was looked for under the directory the job ran in"
                + " (/scratch/bob/trim, the script's `cd`): /scratch/bob/trim/raw/S03_R1.fastq.gz.");
        assertThat(String.join(" ", PatchSuggesterTest.failed("1019").patch().advice())).contains("The job looked for"
                + " /scratch/chen/cavity_les/VTK/cavity_les_0.45.vtm, absolute, so the directory the job ran in is not the"
                + " cause: list what is in /scratch/chen/cavity_les/VTK/");
        assertThat(String.join(" ", PatchSuggesterTest.failed("1043").patch().advice())).contains(
                "checkpoints/sft-v3/step_4000/optimizer.pt, relative, so it was looked for under the directory the job ran"
                        + " in (/scratch/alice/llama, sacct's WorkDir)");
        MissingPathFixer f = new MissingPathFixer(Patterns.bundled());
        assertThat(f.missingPath(List.of("ls: cannot access 'data/in.csv': No such file or directory"))).hasValue("data/in.csv");
        assertThat(f.missingPath(List.of("FileNotFoundError: [Errno 2] No such file or directory: 'ckpt/a.pt'"))).hasValue("ckpt/a.pt");
        assertThat(f.missingPath(List.of("ValueError: path '/data/x/y.h5' does not exist"))).hasValue("/data/x/y.h5");
        // the batch script's own path is where bash speaks from, not what it missed
        assertThat(f.missingPath(List.of("/var/spool/slurmd/job42/slurm_script: line 8: ./run.sh: No such file or directory")))
                .hasValue("./run.sh");
        assertThat(f.missingPath(List.of("bash: line 3: foo: command not found"))).isEmpty();
        // files of the same kind and first name part in the same directory, the missing one left out
        assertThat(MissingPathFixer.similar("raw/S03_R1.fastq.gz", "raw/", List.of("-rw-r--r-- 1 b g 29 raw/S03_L001_R1.fastq.gz",
                "raw/S03_R1.fastq.gz", "raw/S04_R1.fastq.gz", "other/S03_R1.fastq.gz", "raw/S03_notes.txt")))
                .containsExactly("raw/S03_L001_R1.fastq.gz");
    }

    /**
     * A script that changes directory twice looked for a relative path from the `cd` before the line that failed, not
     * from its last one (an audit of the fixer): bash's "slurm_script: line N:" names that line; without it, the first
     * command line that names the path does.
     */
    @Test
    void aRelativePathIsReadFromTheCdBeforeTheLineThatFailed() {
        MissingPathFixer f = new MissingPathFixer(Patterns.bundled());
        BatchScript s = BatchScript.parse("#!/bin/bash\n#SBATCH --time=1:00:00\ncd /scratch/u/prep\n./prepare.sh\n"
                + "python split.py data/in.csv\ncd /scratch/u/run\n./run.sh\n");
        FixContext bashSaid = new FixContext(null, null, List.of(
                "/var/spool/slurmd/job42/slurm_script: line 4: ./prepare.sh: No such file or directory"), List.of(), null);
        assertThat(f.failingLine("./prepare.sh", bashSaid, s)).isEqualTo(3);
        assertThat(f.workingDirectory(bashSaid, s, 3)).hasValue("/scratch/u/prep");
        assertThat(f.apply(bashSaid, s).advice()).anySatisfy(a -> assertThat(a).contains(
                "(/scratch/u/prep, the script's `cd`): /scratch/u/prep/prepare.sh"));
        FixContext pythonSaid = new FixContext(null, null, List.of(
                "FileNotFoundError: [Errno 2] No such file or directory: 'data/in.csv'"), List.of(), null);
        assertThat(f.failingLine("data/in.csv", pythonSaid, s)).isEqualTo(4);
        assertThat(f.apply(pythonSaid, s).advice()).anySatisfy(a -> assertThat(a).contains(
                "/scratch/u/prep/data/in.csv"));
        // a path no script line names was looked for after every `cd`: the last one
        FixContext elsewhere = new FixContext(null, null, List.of(
                "FileNotFoundError: [Errno 2] No such file or directory: 'out/model.pt'"), List.of(), null);
        assertThat(f.apply(elsewhere, s).advice()).anySatisfy(a -> assertThat(a).contains("/scratch/u/run/out/model.pt"));
    }

    /**
     * In a collective timeout every rank that reached the collective reports it; a rank below the highest that did not
     * is the straggler: 1041's fifteen of sixteen ranks reported and rank 11 did not, which the panel's folding of
     * alike lines hid (an outside audit). No gap, one rank, or most ranks silent (one node's log): nothing is said.
     */
    @Test
    void theRanksThatNeverReportedACollectiveTimeoutAreNamed() {
        Patterns p = Patterns.bundled();
        java.util.function.IntFunction<String> line = r -> r + ": [E ProcessGroupNCCL.cpp:475] [Rank " + r
                + "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=88210, OpType=ALLREDUCE)";
        List<String> all = java.util.stream.IntStream.range(0, 16).mapToObj(line).toList();
        List<String> but11 = all.stream().filter(l -> !l.startsWith("11:")).toList();
        assertThat(NcclEnvFixer.silent(but11, p)).isEqualTo(", and rank 11 never reported it in the log (ranks 0-10,"
                + " 12-15 did): it did not reach the collective, so its last lines and node tell why");
        assertThat(NcclEnvFixer.silent(all, p)).isEmpty();
        assertThat(NcclEnvFixer.silent(List.of(line.apply(0), line.apply(7)), p)).as("one node's ranks").isEmpty();
        assertThat(NcclEnvFixer.silent(all.stream().filter(l -> !l.startsWith("3:") && !l.startsWith("9:")).toList(), p))
                .contains("ranks 3, 9 never reported it").contains("(ranks 0-2, 4-8, 10-15 did)");
        assertThat(String.join(" ", PatchSuggesterTest.suggested("1041").advice()))
                .contains("A collective timed out, and rank 11 never reported it in the log (ranks 0-10, 12-15 did)");
    }

    /** 1056 asks for 192 tasks per node of partition cpu, whose nodes have 128 CPUs: PartitionConfig for ever. */
    @Test
    void tasksPerNodeAboveANodesCpusBecomeMoreNodesKeepingTheTasks() {
        var pending = ((Diagnosis.StatusOnly) PatchSuggesterTest.SW.diagnose("1056")).optPending().orElseThrow();
        Patch.Suggested s = (Patch.Suggested) pending.optPatch().orElseThrow();
        assertThat(s.diff()).contains("+#SBATCH --ntasks-per-node=128").contains("+#SBATCH --nodes=12");
        assertThat(s.changes().get(0).what()).isEqualTo("--ntasks-per-node=128 (was 192), --nodes=12 (was 8)");
        assertThat(s.changes().get(0).why()).contains("128 CPUs").contains("1536 tasks");
    }

    /** 1040 asks for gpu:a100:8 on one node of gpuA100x4 (4 per node): said, with the partition that has 8. */
    @Test
    void gpusPerNodeAboveANodesGpusAreSaidWithThePartitionsThatHaveThem() {
        Patch p = PatchSuggesterTest.failed("1040").patch();
        String advice = String.join(" ", p.advice());
        assertThat(advice).contains("A gpuA100x4 node has 4 GPUs (gpu:a100:4), so 8 per node (--gres=gpu:a100:8)")
                .contains("`--nodes=2` with `--gres=gpu:a100:4`").contains("gpuH100x8 (gpu:h100:8; adjust the GPU type)");
        assertThat(p.changes()).isEmpty();
    }

    @Test
    void gpusPerNodeOfASinfoGresColumn() {
        assertThat(Partition.gpus("gpu:a100:4(S:0-1)")).containsEntry("a100", 4).hasSize(1);
        assertThat(Partition.gpus("gpu:4")).containsEntry("", 4);
        assertThat(Partition.gpus("gpu:a100:2,gpu:v100:2,shard:8")).containsEntry("a100", 2)
                .containsEntry("v100", 2).hasSize(2);
        assertThat(Partition.gpus("")).isEmpty();
        assertThat(Partition.gpus("mps:100")).isEmpty();
    }

}
