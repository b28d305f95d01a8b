package io.slurmwise.diagnose;

import com.google.re2j.Pattern;

import io.slurmwise.config.TsvResource;

import java.util.List;

/**
 * What SLURM's pending reasons mean and whether a job waiting for one can ever start; the table is data in
 * {@code pending-reasons.tsv}.
 */
public final class PendingReasons {

    /** Whether a pending job can start without anyone changing anything. */
    public enum Startability {
        /** It will start once other jobs or time pass. */
        WILL,
        /** It may start if the cluster changes (a node comes back). */
        MAY,
        /** It can never start as submitted; it must be changed or resubmitted. */
        NEVER,
        /**
         * It is held: it starts once released ({@code scontrol release}, by its owner or an administrator), with
         * nothing else changed (the real lab's held job read "Can start: never, as submitted" beside "it starts only
         * after scontrol release").
         */
        HELD
    }

    /** One row of the table. */
    public record Meaning(Startability startability, String text) {
    }

    private record Row(Pattern reason, Meaning meaning) {
    }

    private final List<Row> rows;

    private PendingReasons(List<Row> rows) {
        this.rows = rows;
    }

    public static PendingReasons bundled() {
        return new PendingReasons(TsvResource.read(PendingReasons.class, "pending-reasons.tsv",
                "<reason regex><TAB><startability><TAB><meaning>", 3,
                f -> new Row(Pattern.compile(f[0]),
                        new Meaning(Startability.valueOf(f[1].toUpperCase(java.util.Locale.ROOT)), f[2]))));
    }

    /** The meaning of a reason; an unlisted one "may" start, with SLURM's own words. */
    public Meaning explain(String reason) {
        String r = reason == null ? "None" : reason.strip();
        return explicitly(r).orElseGet(() -> new Meaning(Startability.MAY,
                "SLURM gives the reason '" + r + "'; see `scontrol show job <jobid>` for details"));
    }

    /** The table's own row for a reason, if it has one. */
    public java.util.Optional<Meaning> explicitly(String reason) {
        String r = reason == null ? "None" : reason.strip();
        for (Row row : rows) {
            if (row.reason().matcher(r).find()) {
                return java.util.Optional.of(row.meaning());
            }
        }
        return java.util.Optional.empty();
    }
}
