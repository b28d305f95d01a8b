package io.slurmwise.cli.stats;

import io.slurmwise.stats.FleetScan;

import java.io.PrintWriter;

/** A one-line progress bar on standard error while accounting is queried slice by slice (terminal only). */
final class ProgressBar implements FleetScan.Progress {

    private static final int WIDTH = 24;
    private final PrintWriter err;
    private final boolean enabled;
    private long jobs;
    private boolean drawn;

    ProgressBar(PrintWriter err, boolean enabled) {
        this.err = err;
        this.enabled = enabled;
    }

    @Override
    public void sliceStarted(FleetScan.Slice s) {
        draw(s, s.index());
    }

    @Override
    public void sliceDone(FleetScan.Slice s, long n) {
        jobs += n;
        draw(s, s.index() + 1);
    }

    private void draw(FleetScan.Slice s, int done) {
        if (!enabled || s.count() < 2) {
            return;
        }
        int filled = done * WIDTH / s.count();
        String when = s.start() == null ? "" : s.start().toLocalDate() + " .. " + s.end().toLocalDate();
        err.print("\r  sacct slice " + done + "/" + s.count() + " [" + "#".repeat(filled) + ".".repeat(WIDTH - filled)
                + "] " + when + " · " + jobs + " jobs ");
        err.flush();
        drawn = true;
    }

    void finish() {
        if (drawn) {
            err.print("\r" + " ".repeat(90) + "\r");
            err.flush();
        }
    }
}
