package io.slurmwise.job;

import java.util.Optional;

/**
 * SLURM's {@code code:signal} exit status.
 *
 * <p>Two conventions meet here: scontrol prints a shell's {@code exit 139} as {@code 139:0}, while sacct
 * prints codes of 128 and above minus 128, so the same job shows {@code 11:0}. {@link #signal()} is the
 * signal SLURM saw; {@link #shellSignal()} decodes {@code 128+N}; {@link #sacctWrappedSignal()} is the
 * signal a sacct code might stand for.
 * <pre>{@code
 * ExitCode.parse("0:125").signal();               // 125, what cgroup OOM kills report
 * ExitCode.parse("139:0").shellSignal();          // Optional[11] (SIGSEGV)
 * }</pre>
 */
public record ExitCode(int code, int signal) {

    public static final ExitCode SUCCESS = new ExitCode(0, 0);

    public ExitCode {
        if (code < 0 || code > 255 || signal < 0 || signal > 255) {
            throw new IllegalArgumentException("exit code out of range: " + code + ":" + signal);
        }
    }

    /** Parses {@code 1:0}, {@code 0:125}, or a bare {@code 139}. Empty for blank or malformed text. */
    public static Optional<ExitCode> tryParse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String t = text.strip();
        if (t.isEmpty() || t.length() > 12) {
            return Optional.empty();
        }
        try {
            int colon = t.indexOf(':');
            if (colon < 0) {
                return Optional.of(new ExitCode(Integer.parseInt(t), 0));
            }
            return Optional.of(new ExitCode(Integer.parseInt(t.substring(0, colon)), Integer.parseInt(t.substring(colon + 1))));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    public static ExitCode parse(String text) {
        return tryParse(text).orElseThrow(() -> new IllegalArgumentException(
                "'" + text + "' is not an exit code; use code:signal such as 1:0 or 0:9"));
    }

    public boolean isSuccess() {
        return code == 0 && signal == 0;
    }

    /** The signal that ended the job: SLURM's signal field, else a shell's 128+N exit code. */
    public Optional<Integer> killSignal() {
        if (signal > 0 && signal < 65) {
            return Optional.of(signal);
        }
        return shellSignal();
    }

    /** {@code 128+N} exit codes as the shell reports a child killed by signal N. */
    public Optional<Integer> shellSignal() {
        return code > 128 && code < 128 + 65 ? Optional.of(code - 128) : Optional.empty();
    }

    /**
     * sacct prints exit codes of 128 and more minus 128: {@code 11:0} may be exit 139 (SIGSEGV).
     * This is the signal such a code may stand for, for the crash signals only (4, 6, 7, 8, 9, 11).
     */
    public Optional<Integer> sacctWrappedSignal() {
        if (signal == 0 && (code == 4 || code == 6 || code == 7 || code == 8 || code == 9 || code == 11)) {
            return Optional.of(code);
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return code + ":" + signal;
    }
}
