package io.slurmwise.backend.real;

import io.slurmwise.backend.real.SlurmCommandException.Failure;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.SacctReader;

import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;

/**
 * The job records of one running {@code sacct -P} (header included), read as sacct prints them: nothing is held
 * but the job at hand. At the end of its output the command's exit is checked (slurmdbd down, a kill at the time
 * limit: a {@link SlurmCommandException} instead of a silently short answer); output that is not sacct's
 * (no JobID header: garbage, another program) is a {@link Failure#GARBLED} error with a printable excerpt.
 * Closing it early kills sacct and its children.
 */
final class SacctStream implements Iterator<JobRecord>, AutoCloseable {

    private final SlurmCommands slurm;
    private final RunningCommand command;
    private final SacctReader reader;
    private boolean finished;
    private long read;

    private SacctStream(SlurmCommands slurm, RunningCommand command, SacctReader reader) {
        this.slurm = slurm;
        this.command = command;
        this.reader = reader;
    }

    /** Starts sacct; {@code keep} names columns read per job ({@link SacctReader#keep}). */
    static SacctStream open(SlurmCommands slurm, RunningCommand command, String... keep) {
        SacctReader reader;
        try {
            reader = SacctReader.open(command.stdout());
        } catch (IllegalArgumentException e) {
            throw garbled(slurm, command, e.getMessage());
        } catch (RuntimeException e) {
            command.close();
            throw e;
        }
        if (keep.length > 0) {
            reader.keep(keep);
        }
        return new SacctStream(slurm, command, reader);
    }

    /** Output that is not sacct -P's: sacct's own error when it failed, else what it printed, made printable. */
    private static SlurmCommandException garbled(SlurmCommands slurm, RunningCommand command, String problem) {
        try {
            // a sacct that failed says why on stderr and exits: that is the better message
            for (int i = 0; i < 10 && !command.exited(); i++) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
            if (command.exited()) {
                CommandResult r = command.finish();
                if (!r.ok()) {
                    return SlurmCommands.failure(r);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SlurmCommandException e) {
            return e;
        } finally {
            command.close();
        }
        Invocation inv = command.invocation();
        String err = command.firstErrorLine();
        return new SlurmCommandException(Failure.GARBLED, inv.commandLine(), "`" + inv.display() + "` printed"
                + " something that is not sacct -P output (" + problem + ")"
                + (err.isEmpty() ? "" : "; stderr: " + io.slurmwise.job.Excerpt.of(err, 160))
                + ". Check that the sacct on PATH is SLURM's (`sacct --version`) and that it works when you run it;"
                + " report it with that output if it does");
    }

    @Override
    public boolean hasNext() {
        if (finished) {
            return false;
        }
        if (reader.hasNext()) {
            return true;
        }
        finished = true;
        slurm.finishSacct(command);
        return false;
    }

    @Override
    public JobRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        read++;
        return reader.next();
    }

    /** The kept columns of the job {@link #next()} returned last. */
    Map<String, String> kept() {
        return reader.kept();
    }

    /** Jobs returned so far. */
    long jobsRead() {
        return read;
    }

    /** Rows sacct printed that could not be read (cut, or mangled). */
    long unreadRows() {
        return reader.malformedRows();
    }

    /**
     * What was left out, in one line, or null when nothing was: how many rows, the first of them, what to do.
     *
     * @param what the answer the rows were part of ("job 4711", "the window")
     */
    String unreadMessage(String what) {
        if (reader.malformedRows() == 0) {
            return null;
        }
        long n = reader.malformedRows();
        return "`" + command.invocation().display() + "` printed " + n + " row" + (n == 1 ? "" : "s") + " of "
                + what + " that slurmwise could not read (" + reader.firstMalformedRow() + "): "
                + (read == 0 ? "nothing else came" : "they are left out of this answer") + ". Rows cut short or"
                + " mangled on their way; rerun, and if it happens again run that sacct yourself and report its"
                + " output with `sacct --version`";
    }

    @Override
    public void close() {
        command.close();
        reader.close();
    }
}
