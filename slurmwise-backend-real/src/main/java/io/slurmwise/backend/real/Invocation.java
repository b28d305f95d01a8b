package io.slurmwise.backend.real;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One SLURM command to run: a program of the allowlist, its arguments as an array (never a shell line), how
 * long it may take and how much it may print.
 *
 * <pre>{@code
 * new Invocation(SlurmTool.SCONTROL, List.of("show", "job", "1001"), Duration.ofSeconds(15), 1 << 20)
 * }</pre>
 */
public record Invocation(SlurmTool tool, List<String> args, Duration timeout, long maxStdoutBytes) {

    public Invocation {
        Objects.requireNonNull(tool, "tool");
        args = List.copyOf(args);
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        if (maxStdoutBytes <= 0) {
            throw new IllegalArgumentException("maxStdoutBytes must be positive, got " + maxStdoutBytes);
        }
    }

    /** The command as a user would type it, for messages: {@code scontrol show job 1001}. */
    public String display() {
        return String.join(" ", commandLine());
    }

    /** Program name first, then the arguments. */
    public List<String> commandLine() {
        List<String> all = new ArrayList<>(args.size() + 1);
        all.add(tool.executable());
        all.addAll(args);
        return all;
    }
}
