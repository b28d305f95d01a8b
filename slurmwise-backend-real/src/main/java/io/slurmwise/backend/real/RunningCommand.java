package io.slurmwise.backend.real;

import io.slurmwise.backend.real.SlurmCommandException.Failure;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A started SLURM command whose stdout is read as it is printed ({@link #stdout()}), so an answer of any size
 * flows through in constant memory. Its time limit counts only the time the reader waits for the command (a
 * slow consumer, such as log classification, never makes sacct "time out"); when it runs out, or when the
 * reader closes early, the command and every process it started are killed ({@link ProcessHandle#descendants()},
 * remembered while it runs, so a wrapper script's children die with it).
 *
 * <pre>{@code
 * try (RunningCommand c = runner.start(invocation)) {
 *     consume(c.stdout());
 *     CommandResult r = c.finish(); // exit code and stderr; throws on a timeout
 * }
 * }</pre>
 */
public final class RunningCommand implements AutoCloseable {

    // after the command exited, how long a process it left behind may keep stdout open
    private static final long EXIT_GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final long TICK_MILLIS = 100;

    private final Invocation inv;
    private final Process process;
    private final long t0 = System.nanoTime();
    private final Set<ProcessHandle> family = ConcurrentHashMap.newKeySet();
    private final TimedStdout stdout;
    private final Thread stderrPump;
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final Thread watchdog;
    private volatile boolean killedAtTimeout;
    private volatile boolean done;

    RunningCommand(Invocation inv, Process process) {
        this.inv = inv;
        this.process = process;
        this.stdout = new TimedStdout(process.getInputStream());
        this.stderrPump = new Thread(this::pumpStderr, "slurmwise-stderr-" + inv.tool().executable());
        stderrPump.setDaemon(true);
        stderrPump.start();
        this.watchdog = new Thread(this::watch, "slurmwise-watchdog-" + inv.tool().executable());
        watchdog.setDaemon(true);
        watchdog.start();
    }

    /** What the command prints, as it prints it; ends when it ends (or was killed). */
    public InputStream stdout() {
        return stdout;
    }

    public Invocation invocation() {
        return inv;
    }

    /** Whether the command has exited (its exit code is known). */
    boolean exited() {
        return !process.isAlive();
    }

    /**
     * Waits for the command's end (its stdout need not be read to the end: what is left is discarded) and returns
     * its exit code and stderr.
     *
     * @throws SlurmCommandException (TIMEOUT) when it was killed at its time limit
     */
    public CommandResult finish() {
        stdout.waiting(true);
        try {
            byte[] skip = new byte[8192];
            while (stdout.in.read(skip) >= 0) {
                // drained: a command blocked on a full pipe could never exit
            }
        } catch (IOException e) {
            // the pipe was closed by the kill: the exit code and the timeout flag say what happened
        } finally {
            stdout.waiting(false);
        }
        int rc;
        try {
            stdout.waiting(true);
            rc = process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
            throw new SlurmCommandException(Failure.FAILED, inv.commandLine(), "interrupted while waiting for `"
                    + inv.display() + "`");
        } finally {
            stdout.waiting(false);
        }
        done = true;
        try {
            stderrPump.join(TimeUnit.NANOSECONDS.toMillis(EXIT_GRACE_NANOS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        watchdog.interrupt();
        if (killedAtTimeout) {
            throw new SlurmCommandException(Failure.TIMEOUT, inv.commandLine(), CommandRunner.timeoutMessage(inv));
        }
        String err;
        synchronized (stderr) {
            err = stderr.toString(StandardCharsets.UTF_8);
        }
        return new CommandResult(inv, rc, new byte[0], err, Duration.ofNanos(System.nanoTime() - t0));
    }

    /** Whether the watchdog killed the command at its time limit. */
    public boolean timedOut() {
        return killedAtTimeout;
    }

    /** The first stderr line so far (for messages about output that could not be read). */
    String firstErrorLine() {
        String err;
        synchronized (stderr) {
            err = stderr.toString(StandardCharsets.UTF_8);
        }
        return new CommandResult(inv, 0, new byte[0], err, Duration.ZERO).firstErrorLine();
    }

    /** Kills the command and everything it started, unless it already finished. */
    @Override
    public void close() {
        if (!done) {
            kill();
            done = true;
            watchdog.interrupt();
        }
    }

    /** Kills the command and every process it started that is still alive (descendants remembered while it ran). */
    void kill() {
        remember();
        process.destroyForcibly();
        for (ProcessHandle h : family) {
            h.destroyForcibly();
        }
        try {
            stdout.in.close();
        } catch (IOException e) {
            // closing a pipe of a killed process: nothing left to say
        }
    }

    private void remember() {
        try {
            process.descendants().forEach(family::add);
        } catch (RuntimeException e) {
            // the process table could not be read this time; the next tick tries again
        }
    }

    /** Kills at the time limit, counted while the reader waits; remembers the command's children as it goes. */
    private void watch() {
        long limit = inv.timeout().toNanos();
        long exitedAt = 0;
        while (!done) {
            if (process.isAlive()) {
                remember();
            } else if (exitedAt == 0) {
                exitedAt = System.nanoTime();
            } else if (System.nanoTime() - exitedAt > EXIT_GRACE_NANOS && !family.isEmpty()) {
                // it exited, but a process it left keeps stdout open: that one is not the answer
                family.forEach(ProcessHandle::destroyForcibly);
            }
            if (stdout.waited() >= limit) {
                killedAtTimeout = true;
                kill();
                return;
            }
            try {
                Thread.sleep(Math.max(1, Math.min(TICK_MILLIS, TimeUnit.NANOSECONDS.toMillis(limit - stdout.waited()))));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void pumpStderr() {
        byte[] b = new byte[8192];
        try (InputStream err = process.getErrorStream()) {
            int n;
            while ((n = err.read(b)) >= 0) {
                synchronized (stderr) {
                    int room = CommandRunner.MAX_STDERR_BYTES - stderr.size();
                    if (room > 0) {
                        stderr.write(b, 0, Math.min(room, n));
                    }
                }
            }
        } catch (IOException e) {
            // the command was killed: what it wrote so far is kept
        }
    }

    /** The command's stdout, counting the nanoseconds its reader spends blocked on it. */
    private static final class TimedStdout extends InputStream {
        final InputStream in;
        private long waited;
        private long since;

        TimedStdout(InputStream in) {
            this.in = in;
        }

        synchronized void waiting(boolean on) {
            long now = System.nanoTime();
            if (on) {
                since = now;
            } else if (since != 0) {
                waited += now - since;
                since = 0;
            }
        }

        /** Nanoseconds waited so far, including a wait in progress. */
        synchronized long waited() {
            return waited + (since == 0 ? 0 : System.nanoTime() - since);
        }

        @Override
        public int read() throws IOException {
            waiting(true);
            try {
                return in.read();
            } finally {
                waiting(false);
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            waiting(true);
            try {
                return in.read(b, off, len);
            } catch (IOException e) {
                return -1; // the pipe was closed by a kill: the end of what it printed
            } finally {
                waiting(false);
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
