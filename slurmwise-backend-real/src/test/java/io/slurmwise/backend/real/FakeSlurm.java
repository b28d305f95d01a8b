package io.slurmwise.backend.real;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

/**
 * A bin directory of small bash scripts standing in for SLURM commands, for tests that need real processes
 * (timeouts, output bounds, exit codes, replayed real outputs) without a cluster. Every script first appends
 * its name and arguments to {@link #calls()}. PATH holds only this directory, so a real sacct on the machine
 * is never reached by accident; scripts call other programs by absolute path.
 */
final class FakeSlurm {

    private final Path bin;
    private final Path log;

    FakeSlurm(Path dir) {
        try {
            this.bin = Files.createDirectories(dir.resolve("bin"));
            this.log = dir.resolve("calls.log");
            Files.writeString(log, "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Installs {@code name} running {@code body} (bash); "$@" are its arguments. */
    FakeSlurm tool(String name, String body) {
        Path p = bin.resolve(name);
        // the call log shows the ASCII unit separator (sacct --delimiter) as ^_, like cat -A
        String script = "#!/bin/bash\nUS=$'\\x1f'\nprintf '%s\\n' \"" + name + " ${*//$US/^_}\" >> '" + log + "'\n" + body + "\n";
        try {
            Files.writeString(p, script, StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A tool that prints {@code stdout} (verbatim, from a file so any byte is fine) and exits with {@code rc}. */
    FakeSlurm printing(String name, String stdout, String stderr, int rc) {
        Path out = bin.resolve("." + name + ".out");
        Path err = bin.resolve("." + name + ".err");
        try {
            Files.writeString(out, stdout);
            Files.writeString(err, stderr);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tool(name, "/bin/cat '" + out + "'\n/bin/cat '" + err + "' >&2\nexit " + rc);
    }

    /** Writes {@code content} to a file beside the tools (for {@code /bin/cat} in a tool body); returns its path. */
    Path file(String name, String content) {
        Path p = bin.getParent().resolve("data").resolve(name);
        try {
            Files.createDirectories(p.getParent());
            Files.writeString(p, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    Map<String, String> env() {
        return Map.of("PATH", bin.toString());
    }

    RealBackendConfig config() {
        return new RealBackendConfig(env(), RealBackendConfig.DEFAULT_SACCT_TIMEOUT,
                RealBackendConfig.DEFAULT_CONTROLLER_TIMEOUT, 1 << 20, 1 << 20);
    }

    Path bin() {
        return bin;
    }

    /** Forgets the calls so far. */
    void clearCalls() {
        try {
            Files.writeString(log, "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every call so far, one "name args..." line each. */
    List<String> calls() {
        try {
            return Files.readAllLines(log).stream().filter(l -> !l.isBlank()).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
