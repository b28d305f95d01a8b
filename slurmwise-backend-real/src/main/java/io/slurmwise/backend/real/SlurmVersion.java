package io.slurmwise.backend.real;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A SLURM release as {@code sacct --version} prints it ({@code slurm-wlm 22.05.8}, {@code slurm 23.02.7}), and
 * what slurmwise does differently per release.
 *
 * <pre>{@code
 * SlurmVersion v = SlurmVersion.parse("slurm-wlm 22.05.8").orElseThrow();
 * v.hasSacctStdio();   // false: asking 22.05's sacct for StdOut fails the whole call
 * }</pre>
 */
public record SlurmVersion(int major, int minor, int patch) implements Comparable<SlurmVersion> {

    /** The first release whose sacct has StdOut, StdErr and SubmitLine. */
    public static final SlurmVersion SACCT_STDIO = new SlurmVersion(23, 2, 0);
    /** The oldest release slurmwise was tested against (the lab cluster). */
    public static final SlurmVersion OLDEST_TESTED = new SlurmVersion(22, 5, 0);

    private static final Pattern FORM = Pattern.compile("(\\d{2})\\.(\\d{1,2})(?:\\.(\\d{1,3}))?");

    public static Optional<SlurmVersion> parse(String versionOutput) {
        if (versionOutput == null) {
            return Optional.empty();
        }
        Matcher m = FORM.matcher(versionOutput);
        if (!m.find()) {
            return Optional.empty();
        }
        return Optional.of(new SlurmVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                m.group(3) == null ? 0 : Integer.parseInt(m.group(3))));
    }

    /** sacct knows StdOut, StdErr and SubmitLine (23.02+); on older releases asking for them fails the call. */
    public boolean hasSacctStdio() {
        return compareTo(SACCT_STDIO) >= 0;
    }

    /**
     * {@code %b} (array task id modulo 10) is a filename pattern. 22.05 leaves it literally in the file name
     * (seen on the lab cluster); SLURM's changelog adds it in 23.02.
     */
    public boolean expandsArrayModulo() {
        return compareTo(SACCT_STDIO) >= 0;
    }

    @Override
    public int compareTo(SlurmVersion o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) {
            c = Integer.compare(minor, o.minor);
        }
        return c != 0 ? c : Integer.compare(patch, o.patch);
    }

    @Override
    public String toString() {
        return String.format("%d.%02d.%d", major, minor, patch);
    }
}
