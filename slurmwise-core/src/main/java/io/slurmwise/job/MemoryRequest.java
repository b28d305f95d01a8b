package io.slurmwise.job;

import java.util.Optional;

/**
 * Requested memory as sacct's ReqMem prints it: per node ({@code 32G}, legacy {@code 4000Mn}), per CPU
 * (legacy {@code 4000Mc}) or per GPU.
 */
public record MemoryRequest(DataSize size, Per per) {

    public enum Per { NODE, CPU, GPU }

    public static Optional<MemoryRequest> tryParse(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        String t = text.strip();
        Per per = Per.NODE;
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
            case NODE -> Math.max(1, nodes);
            case CPU -> Math.max(1, cpus);
            case GPU -> Math.max(1, gpus);
        };
        long bytes = size.bytes();
        // saturate: a request times a huge count is "more than any node has", not a negative size
        return new DataSize(bytes > Long.MAX_VALUE / factor ? Long.MAX_VALUE : bytes * factor);
    }

    @Override
    public String toString() {
        return size + switch (per) {
            case NODE -> "";
            case CPU -> " per CPU";
            case GPU -> " per GPU";
        };
    }
}
