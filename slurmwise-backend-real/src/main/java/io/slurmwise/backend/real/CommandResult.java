package io.slurmwise.backend.real;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * What a finished SLURM command left: its exit code and both streams (stdout bounded by the invocation,
 * stderr by {@link CommandRunner#MAX_STDERR_BYTES}).
 */
public record CommandResult(Invocation invocation, int exitCode, byte[] stdoutBytes, String stderr, Duration took) {

    public String stdout() {
        return new String(stdoutBytes, StandardCharsets.UTF_8);
    }

    public boolean ok() {
        return exitCode == 0;
    }

    /** The first non-blank stderr line, for messages ("" when stderr is empty). */
    public String firstErrorLine() {
        for (String line : stderr.split("\\R")) {
            if (!line.isBlank()) {
                return line.strip();
            }
        }
        return "";
    }
}
