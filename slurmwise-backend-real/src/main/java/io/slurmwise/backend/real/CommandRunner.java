package io.slurmwise.backend.real;

import io.slurmwise.backend.real.SlurmCommandException.Failure;
import org.apache.commons.exec.CommandLine;
import org.apache.commons.exec.DefaultExecutor;
import org.apache.commons.exec.ExecuteException;
import org.apache.commons.exec.ExecuteWatchdog;
import org.apache.commons.exec.PumpStreamHandler;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The only class of slurmwise that starts processes. Every invocation passes the {@link Allowlist} first; the
 * program is looked up on the PATH of the given environment and run directly with its argument array (no shell),
 * with a watchdog that kills it at its timeout and a stdout buffer that kills it when it prints too much.
 *
 * <pre>{@code
 * CommandRunner runner = new CommandRunner(System.getenv());
 * CommandResult r = runner.run(new Invocation(SlurmTool.SACCT, List.of("--version"), Duration.ofSeconds(10), 4096));
 * }</pre>
 */
public final class CommandRunner {

    /** stderr kept per command; SLURM's error messages are a few lines. */
    public static final int MAX_STDERR_BYTES = 64 << 10;
    // SLURM reads these to change its output format; slurmwise always passes its own format and needs ISO times
    private static final List<String> FORMAT_VARIABLES = List.of("SACCT_FORMAT", "SQUEUE_FORMAT", "SQUEUE_FORMAT2",
            "SQUEUE_SORT", "SINFO_FORMAT", "SINFO_SORT", "SLURM_TIME_FORMAT");

    private final Map<String, String> childEnvironment;
    private final List<Path> searchPath;

    /** @param environment the environment the commands see; its PATH is where they are looked up */
    public CommandRunner(Map<String, String> environment) {
        Map<String, String> env = new HashMap<>(environment);
        FORMAT_VARIABLES.forEach(env::remove);
        env.put("SLURM_TIME_FORMAT", "standard");
        this.childEnvironment = Map.copyOf(env);
        this.searchPath = parsePath(environment.get("PATH"));
    }

    private static List<Path> parsePath(String path) {
        List<Path> dirs = new ArrayList<>();
        if (path == null) {
            return dirs;
        }
        for (String d : path.split(File.pathSeparator)) {
            // an empty PATH entry means the current directory: never look for cluster tools there
            if (d.isBlank()) {
                continue;
            }
            try {
                Path p = Path.of(d);
                if (p.isAbsolute()) {
                    dirs.add(p);
                }
            } catch (InvalidPathException e) {
                // an unusable PATH entry is skipped, as a shell would
            }
        }
        return dirs;
    }

    /** Where {@code tool} is on PATH, if it is there and executable. */
    public Optional<Path> locate(SlurmTool tool) {
        for (Path dir : searchPath) {
            Path p = dir.resolve(tool.executable());
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The PATH commands are looked up on, for messages. */
    public String describePath() {
        return searchPath.isEmpty() ? "(PATH is empty or not set)" : searchPath.toString();
    }

    /**
     * Runs one command to completion.
     *
     * @return the result, whatever the exit code; callers decide what a non-zero exit means
     * @throws ForbiddenCommandException when the command is outside the allowlist (nothing was started)
     * @throws SlurmCommandException     when the program is missing, timed out, or printed too much
     */
    public CommandResult run(Invocation inv) {
        Allowlist.check(inv.tool(), inv.args());
        Path exe = locate(inv.tool()).orElseThrow(() -> new SlurmCommandException(Failure.MISSING,
                inv.commandLine(), inv.tool().executable() + " is not on PATH " + describePath()
                + ": run slurmwise on a login node of the cluster (where the SLURM commands are), or use"
                + " SLURMWISE_BACKEND=mock to try it without one"));
        CommandLine cl = new CommandLine(exe.toString());
        for (String a : inv.args()) {
            cl.addArgument(a, false); // verbatim: no quoting, no splitting, no variable expansion
        }
        ExecuteWatchdog watchdog = ExecuteWatchdog.builder().setTimeout(inv.timeout()).get();
        Bounded out = new Bounded(inv.maxStdoutBytes(), watchdog);
        Bounded err = new Bounded(MAX_STDERR_BYTES, null);
        PumpStreamHandler streams = new PumpStreamHandler(out, err);
        // a grandchild that keeps a pipe open must not keep us waiting after the kill
        streams.setStopTimeout(Duration.ofSeconds(2));
        DefaultExecutor executor = DefaultExecutor.builder().setExecuteStreamHandler(streams).get();
        executor.setWatchdog(watchdog);
        executor.setExitValues(null); // every exit code is a result; callers read it
        long t0 = System.nanoTime();
        int rc;
        try {
            rc = executor.execute(cl, childEnvironment);
        } catch (ExecuteException e) {
            rc = e.getExitValue();
        } catch (IOException e) {
            throw new SlurmCommandException(Failure.MISSING, inv.commandLine(), "cannot run " + exe + ": "
                    + e.getMessage() + " (check that it is an executable SLURM client)");
        }
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        if (out.overflowed()) {
            throw new SlurmCommandException(Failure.OUTPUT_TOO_LARGE, inv.commandLine(), "`" + inv.display()
                    + "` printed more than " + human(inv.maxStdoutBytes()) + " and was stopped: "
                    + (inv.tool() == SlurmTool.SACCT
                    ? "narrow the window (--since/--until) or filter it (--state, --user, --partition)"
                    : "the cluster answered with far more than expected"));
        }
        if (watchdog.killedProcess()) {
            throw new SlurmCommandException(Failure.TIMEOUT, inv.commandLine(), timeoutMessage(inv));
        }
        return new CommandResult(inv, rc, out.bytes(), new String(err.bytes(), StandardCharsets.UTF_8), took);
    }

    private static String timeoutMessage(Invocation inv) {
        long s = inv.timeout().toSeconds();
        String limit = s > 0 ? s + " s" : inv.timeout().toMillis() + " ms";
        if (inv.tool() == SlurmTool.SACCT) {
            return "`" + inv.display() + "` did not answer within " + limit + ": slurmdbd (the accounting daemon) is"
                    + " slow or unreachable. Narrow the window, or raise " + RealBackendConfig.SACCT_TIMEOUT_VARIABLE
                    + " if your accounting is just slow";
        }
        return "`" + inv.display() + "` did not answer within " + limit + ": slurmctld (the controller) is down or"
                + " overloaded; `scontrol ping` tells which. Raise " + RealBackendConfig.CONTROLLER_TIMEOUT_VARIABLE
                + " if it is only slow";
    }

    static String human(long bytes) {
        return bytes >= 1 << 20 ? (bytes >> 20) + " MiB" : bytes >= 1 << 10 ? (bytes >> 10) + " KiB" : bytes + " bytes";
    }

    /** Keeps up to a limit; past it, remembers the overflow and (for stdout) kills the process. */
    private static final class Bounded extends OutputStream {
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
        private final long limit;
        private final ExecuteWatchdog killer;
        private volatile boolean overflowed;

        Bounded(long limit, ExecuteWatchdog killer) {
            this.limit = limit;
            this.killer = killer;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            long room = limit - buf.size();
            if (len <= room) {
                buf.write(b, off, len);
                return;
            }
            if (room > 0) {
                buf.write(b, off, (int) room);
            }
            if (!overflowed) {
                overflowed = true;
                if (killer != null) {
                    killer.destroyProcess();
                }
            }
        }

        boolean overflowed() {
            return overflowed && killer != null;
        }

        synchronized byte[] bytes() {
            return buf.toByteArray();
        }
    }
}
