package io.slurmwise.job;

import java.util.Optional;

/**
 * Requested memory as sacct's ReqMem prints it. Since SLURM 21.08 it is the whole job's memory, as in ReqTRES
 * ({@code 192G} for a 3-node job of 64G per node: SchedMD commit 2acdf51e9e, "Changed ReqMem field in sacct to
 * match memory from ReqTRES"); before, it always carried a suffix: {@code 4000Mn} per node, {@code 750Mc} per CPU.
 *
 * <pre>{@code
 * MemoryRequest.tryParse("750Mc").orElseThrow().total(80, 0, 2);   // 60000M: 750M for each of 80 CPUs
 * MemoryRequest.tryParse("192G").orElseThrow().total(24, 0, 3);    // 192G: already the job's total
 * }</pre>
 */
public record MemoryRequest(DataSize size, Per per) {

    /** What {@link #size} is counted per: the whole job (no suffix), a node ({@code n}), a CPU ({@code c}) or a GPU. */
    public enum Per { JOB, NODE, CPU, GPU }

    public static Optional<MemoryRequest> tryParse(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        String t = text.strip();
        Per per = Per.JOB;
        char last = t.charAt(t.length() - 1);
        if (last == 'c' || last == 'n') {
            per = last == 'c' ? Per.CPU : Per.NODE;
            t = t.substring(0, t.length() - 1);
        }
        Per p = per;
        return DataSize.tryParse(t).map(s -> new MemoryRequest(s, p));
    }

    /** The memory the whole job may use, given its CPUs, GPUs and nodes. */
    public DataSize total(int cpus, int gpus, int nodes) {
        long factor = switch (per) {
            case JOB -> 1;
            case NODE -> Math.max(1, nodes);
            case CPU -> Math.max(1, cpus);
            case GPU -> Math.max(1, gpus);
        };
        return new DataSize(multiply(size.bytes(), factor));
    }

    /** The memory one node of the job may use (the cgroup limit a task meets): the total shared by its nodes. */
    public DataSize perNode(int cpus, int gpus, int nodes) {
        return per == Per.NODE ? size : new DataSize(total(cpus, gpus, nodes).bytes() / Math.max(1, nodes));
    }

    private static long multiply(long bytes, long factor) {
        return bytes > Long.MAX_VALUE / factor ? Long.MAX_VALUE : bytes * factor;
    }

    @Override
    public String toString() {
        return size + switch (per) {
            case JOB -> "";
            case NODE -> " per node";
            case CPU -> " per CPU";
            case GPU -> " per GPU";
        };
    }
}
