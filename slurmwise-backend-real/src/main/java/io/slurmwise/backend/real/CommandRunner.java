package io.slurmwise.backend.real;

import io.slurmwise.backend.real.SlurmCommandException.Failure;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The only class of slurmwise that starts processes. Every invocation passes the {@link Allowlist} first; the
 * program is looked up on the PATH of the given environment and run directly with its argument array (no shell,
 * stdin from /dev/null), with a watchdog that kills it and every process it started at its time limit
 * ({@link RunningCommand}). Short answers are read whole and bounded ({@link #run}); sacct's windows are read as
 * they are printed, unbounded in size ({@link #start}).
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
     * Runs one command to completion, keeping at most {@link Invocation#maxStdoutBytes()} of its stdout (for the
     * short answers of scontrol, squeue, sinfo and one job's sacct; windows of sacct are read with {@link #start}).
     *
     * @return the result, whatever the exit code; callers decide what a non-zero exit means
     * @throws ForbiddenCommandException when the command is outside the allowlist (nothing was started)
     * @throws SlurmCommandException     when the program is missing, timed out, or printed too much
     */
    public CommandResult run(Invocation inv) {
        try (RunningCommand c = start(inv)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] b = new byte[8192];
            InputStream in = c.stdout();
            try {
                int n;
                while ((n = in.read(b)) >= 0) {
                    if (out.size() + (long) n > inv.maxStdoutBytes()) {
                        c.kill();
                        throw new SlurmCommandException(Failure.OUTPUT_TOO_LARGE, inv.commandLine(), "`"
                                + inv.display() + "` printed more than " + human(inv.maxStdoutBytes())
                                + " and was stopped: " + (inv.tool() == SlurmTool.SACCT
                                ? "narrow it (one job id, or --since/--until) and report it: one job's answer is small"
                                : "the cluster answered with far more than expected"));
                    }
                    out.write(b, 0, n);
                }
            } catch (IOException e) {
                // a killed command's pipe: finish() says why it ended
            }
            CommandResult r = c.finish();
            return new CommandResult(inv, r.exitCode(), out.toByteArray(), r.stderr(), r.took());
        }
    }

    /**
     * Starts one command whose stdout is read as it comes ({@link RunningCommand#stdout()}): no bound on its size,
     * a time limit on the waiting; close it to kill the command and its children.
     *
     * @throws ForbiddenCommandException when the command is outside the allowlist (nothing was started)
     * @throws SlurmCommandException     when the program is missing or cannot be started
     */
    public RunningCommand start(Invocation inv) {
        Allowlist.check(inv.tool(), inv.args());
        Path exe = locate(inv.tool()).orElseThrow(() -> new SlurmCommandException(Failure.MISSING,
                inv.commandLine(), inv.tool().executable() + " is not on PATH " + describePath()
                + ": run slurmwise on a login node of the cluster (where the SLURM commands are), or use"
                + " SLURMWISE_BACKEND=mock to try it without one"));
        List<String> command = new ArrayList<>(inv.args().size() + 1);
        command.add(exe.toString());
        command.addAll(inv.args()); // verbatim: no shell, no quoting, no splitting, no variable expansion
        ProcessBuilder pb = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(DEV_NULL));
        pb.environment().clear();
        pb.environment().putAll(childEnvironment);
        try {
            return new RunningCommand(inv, pb.start());
        } catch (IOException e) {
            throw new SlurmCommandException(Failure.MISSING, inv.commandLine(), "cannot run " + exe + ": "
                    + e.getMessage() + " (check that it is an executable SLURM client)");
        }
    }

    private static final File DEV_NULL = new File("/dev/null");

    static String timeoutMessage(Invocation inv) {
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
}
