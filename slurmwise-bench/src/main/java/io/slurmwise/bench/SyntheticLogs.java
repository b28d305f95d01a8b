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

    private static final String[] NOISE = {
        "gpua017:1234:1290 [0] NCCL INFO Channel 00/24 :    0   1   2   3",
        "gpua017:1234:1290 [0] NCCL INFO Connected all rings",
        "gpua017:1234:1290 [1] NCCL INFO NET/Plugin: Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory",
        "[rank0]:[W reducer.cpp:1360] Warning: find_unused_parameters=True was specified in DDP constructor",
        "Epoch 3/10:  42%|████▏     | 4200/10000 [12:03<16:40,  5.80it/s, loss=2.314, lr=1.9e-4]",
        "{'loss': 2.3141, 'grad_norm': 0.8812, 'learning_rate': 0.00019, 'epoch': 3.42}",
        "INFO:torch.distributed.elastic:Rendezvous complete for workers. Result: restart_count=0",
        "wandb: Syncing run glorious-sun-42",
        "2026-11-12 03:14:07,123 - trainer - INFO - step 4200: throughput 1843.2 tokens/s/gpu",
        "pmix_psec_munge: munge_decode failed (warning only): Invalid credential",
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
            out.writeBytes(NOISE[r.nextInt(NOISE.length)].getBytes(StandardCharsets.UTF_8));
            out.write('\n');
        }
        for (String e : ENDING) {
            out.writeBytes(e.getBytes(StandardCharsets.UTF_8));
            out.write('\n');
        }
        return out.toByteArray();
    }
}
