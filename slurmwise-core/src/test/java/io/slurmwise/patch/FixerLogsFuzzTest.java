package io.slurmwise.patch;

import io.slurmwise.backend.LogStream;
import io.slurmwise.backend.LogTail;
import io.slurmwise.classify.Finding;
import io.slurmwise.classify.JobFacts;
import io.slurmwise.job.JobRecord;
import io.slurmwise.testing.Fuzz;
import io.slurmwise.testing.Hostile;
import io.slurmwise.testing.Lines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;

/**
 * Fuzzes the fixers that read a job's log (the user's program's text): the missing path and the files a log lists,
 * bash's Permission denied with its line number, faulthandler's and native stacks, PyTorch's list of GPU
 * architectures, a step count with its rate. Real lines damaged and hostile values (numbers too long for any type,
 * rates of zero or a billion, NULs, 5,000-character paths): a patch is always made, nothing throws.
 */
@Tag("fuzz")
class FixerLogsFuzzTest {

    private static final List<String> LOGS = List.of("""
            -rw-r--r-- 1 bob genomics 2914021330 Nov 13 22:10 raw/S03_L001_R1.fastq.gz
            gzip: raw/S03_R1.fastq.gz: No such file or directory
            FileNotFoundError: [Errno 2] No such file or directory: 'checkpoints/sft-v3/step_4000/optimizer.pt'
            ValueError: path '/data/x/y.h5' does not exist
            """, """
            -rw-r--r-- 1 chen cfd-sim 2211 Oct 29 17:42 tools/decompose.sh
            /var/spool/slurmd/job01030/slurm_script: line 15: ./tools/decompose.sh: Permission denied
            """, """
            Fatal Python error: Segmentation fault

            Current thread 0x00007f2b5e7fc740 (most recent call first):
              File "/home/bob/venvs/p/lib/python3.11/site-packages/pysam/libcalignmentfile.pyx", line 1363 in pysam.x.pileup
              File "/scratch/bob/scripts/allele_counts.py", line 74 in count_region
            [137] #0  Foam::error::printStack(Foam::Ostream&) at ??:?
            [137] #3  Foam::LESModels::cubeRootVolDelta::calcDelta() at ??:?
            [node12:48213] [ 0] /lib64/libpthread.so.0(+0xf630)[0x2b1c2d3e4630]
            [node12:48213] [ 2] /opt/app/lib/libsolver.so(_ZNK4Foam9LESModels6Solver4stepEv+0x1c)[0x2b3c4d5e6f70]
            Image              PC                Routine            Line        Source
            mymodel            0000000000401234  solver_mp_step_           123  solver.f90
            """, """
            NVIDIA H100 80GB HBM3 with CUDA capability sm_90 is not compatible with the current PyTorch installation.
            The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70 sm_75 sm_80 sm_86.
            [2026-11-10 13:16:20] iter  1050/160000 | loss 2.3 | 0.49s/it
            step 150/200000 | 1.91s/step | 12.5it/s
            [12:21:30 d2.utils.events]:  eta: 1 day, 8:43:00  iter: 9000
            """);

    private static final List<String> KINDS = List.of("file_not_found", "permission", "segfault", "no_kernel_image",
            "shm_bus_error", "nccl", "time_limit", "disk_quota", "qos_limit", "resources_unavailable");

    @AfterAll
    static void record() {
        Fuzz.record();
    }

    static Function<Random, String> logs() {
        Function<Random, String> hostile = Hostile.pick("line 99999999999999999999", "sm_99999999999", "sm_0",
                "0s/it", "0.0000000001it/s", "99999999999999999999s/step", "iter 1/99999999999999999999",
                "step 0/0", "eta: 99999999999 days, 99:99:99", "File \"", "#999", "'" + "a/".repeat(2500) + "'",
                ": No such file or directory", "slurm_script: line 0: x: Permission denied", "\u0000", "Current thread 0x1 (most recent call first):",
                "(_ZN99999999999999999999x+0x1)[0x1]", "(_ZN0E+0x1)[0x1]", "(_ZNC1D2E+0x1)[0x1]", "[ 999999]");
        return Fuzz.oneOf(Lines.damaged(LOGS, hostile, "\n"), Lines.damaged(LOGS, hostile, "\r\n"), Hostile.pick());
    }

    /**
     * Inputs at most, in the fuzz profile too: each one runs the classifier and eight kinds' fixers (a millisecond),
     * where the profile's million per parser would add half an hour to CI.
     */
    static final long MOST = 20_000;

    @Test
    void fixersReadingLogs() {
        JobRecord job = PatchSuggesterTest.CLUSTER.get("1038");
        String script = "#!/bin/bash\n#SBATCH -p gpuH100x8\n#SBATCH --gres=gpu:h100:1\n#SBATCH -t 08:00:00\ncd /scratch/bob/trim\n"
                + "./tools/decompose.sh -n 512\n";
        PatchSuggester suggester = new PatchSuggester(PatchSuggesterTest.TAXONOMY);
        for (String log : Fuzz.inputs(logs(), MOST)) {
            List<LogTail> tails = List.of(LogTail.of(LogStream.STDERR, "job.err", log));
            Fuzz.neverThrows("fixers reading logs", log, () -> {
                Finding classified = PatchSuggesterTest.SW.classifier().classify(JobFacts.of(job), tails);
                for (String kind : KINDS) {
                    Finding f = new Finding(PatchSuggesterTest.TAXONOMY.kind(kind), 0.9, classified.evidence(), List.of());
                    suggester.suggest(job, f, tails, Optional.of(script), PatchSuggesterTest.CLUSTER.partitions(),
                            PatchSuggesterTest.CLUSTER::qos);
                }
            });
        }
    }
}
