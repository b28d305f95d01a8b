package io.slurmwise.backend.real;

import io.slurmwise.job.SacctReader;

import java.util.ArrayList;
import java.util.List;

/**
 * The sacct {@code --format} fields asked of a given SLURM release. On 22.05 asking for StdOut, StdErr or
 * SubmitLine fails the whole call ({@code Invalid field requested}), so they are asked only from 23.02 on.
 */
public final class SacctFields {

    private static final List<String> STDIO = List.of("StdOut", "StdErr");

    private SacctFields() {
    }

    /** For listing a window of jobs: what {@link SacctReader} reads. */
    public static List<String> forWindow(SlurmVersion v) {
        List<String> f = new ArrayList<>(SacctReader.FIELDS);
        if (!v.hasSacctStdio()) {
            f.removeAll(STDIO);
        }
        return f;
    }

    /**
     * For one job: also JobIDRaw (an array task's own id, which {@code %j} in its log name stands for) and, where
     * sacct has it, SubmitLine (last: it is free text and may contain the '|' separator).
     */
    public static List<String> forJob(SlurmVersion v) {
        List<String> f = forWindow(v);
        f.add("JobIDRaw");
        if (v.hasSacctStdio()) {
            f.add("SubmitLine");
        }
        return f;
    }
}
