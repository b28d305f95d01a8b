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

    /**
     * The command as a user would type it, for messages: {@code scontrol show job 1001}. An argument holding a
     * control character (sacct's delimiter) is shown in bash's {@code $'...'} quoting, so it can be pasted.
     */
    public String display() {
        StringBuilder b = new StringBuilder();
        for (String a : commandLine()) {
            if (!b.isEmpty()) {
                b.append(' ');
            }
            b.append(a.chars().anyMatch(Character::isISOControl) ? ansiC(a) : a);
        }
        return b.toString();
    }

    private static String ansiC(String a) {
        StringBuilder b = new StringBuilder("$'");
        for (char c : a.toCharArray()) {
            if (Character.isISOControl(c)) {
                b.append(String.format(java.util.Locale.ROOT, "\\x%02x", (int) c));
            } else if (c == '\'' || c == '\\') {
                b.append('\\').append(c);
            } else {
                b.append(c);
            }
        }
        return b.append('\'').toString();
    }

    /** Program name first, then the arguments. */
    public List<String> commandLine() {
        List<String> all = new ArrayList<>(args.size() + 1);
        all.add(tool.executable());
        all.addAll(args);
        return all;
    }
}
