package io.slurmwise.bench;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Deterministic, realistic job logs for benchmarks: PyTorch training progress, NCCL INFO chatter and warnings
 * (the benign noise every signature must skip), ending in a CUDA OOM on one rank and NCCL watchdog timeouts
 * on the others.
 */
public final class SyntheticLogs {

    // %d is the line number, %s a random float: lines vary like real logs, so no two are alike
    private static final String[] NOISE = {
        "gpua017:1234:%d [0] NCCL INFO Channel 00/24 :    0   1   2   3",
        "gpua017:1234:%d [0] NCCL INFO Connected all rings %s",
        "gpua017:1234:%d [1] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory",
        "[rank0]:[W reducer.cpp:%d] Warning: find_unused_parameters=True was specified in DDP constructor",
        "Epoch 3/10:  42%%|████▏     | %d/10000000 [12:03<16:40,  5.80it/s, loss=%s, lr=1.9e-4]",
        "{'loss': %s, 'grad_norm': 0.8812, 'learning_rate': 0.00019, 'step': %d}",
        "INFO:torch.distributed.elastic:Rendezvous complete for workers. Result: restart_count=0 (%d)",
        "wandb: Syncing run glorious-sun-%d",
        "2026-11-12 03:14:07,123 - trainer - INFO - step %d: throughput %s tokens/s/gpu",
        "pmix_psec_munge: munge_decode failed (warning only): Invalid credential %d",
    };
    private static final String[] ENDING = {
        "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a total capacity of 79.15 GiB of which 1.12 GiB is free.",
        "[rank0]:[E ProcessGroupNCCL.cpp:616] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4201, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600023 milliseconds before timing out.",
        "srun: error: gpua017: task 3: Exited with exit code 1",
    };

    private SyntheticLogs() {
    }

    public static byte[] tail(int lines) {
        return build(lines, Long.MAX_VALUE);
    }

    public static byte[] ofSize(long bytes) {
        return build(Integer.MAX_VALUE, bytes);
    }

    private static byte[] build(int lines, long bytes) {
        Random r = new Random(42);
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(bytes + 4096, 1 << 27));
        int noiseLines = lines - ENDING.length;
        long noiseBytes = bytes - 1024;
        for (int i = 0; i < noiseLines && out.size() < noiseBytes; i++) {
            String template = NOISE[r.nextInt(NOISE.length)];
            String value = String.format(java.util.Locale.ROOT, "%.4f", r.nextDouble() * 10);
            String line = String.format(java.util.Locale.ROOT,
                    template.replace("%d", "%2$d").replace("%s", "%1$s"), value, i);
            out.writeBytes(line.getBytes(StandardCharsets.UTF_8));
            out.write('\n');
        }
        for (String e : ENDING) {
            out.writeBytes(e.getBytes(StandardCharsets.UTF_8));
            out.write('\n');
        }
        return out.toByteArray();
    }
}
