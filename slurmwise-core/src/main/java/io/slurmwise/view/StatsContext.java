package io.slurmwise.view;

import io.slurmwise.backend.JobQuery;
import io.slurmwise.stats.ExportStats;
import io.slurmwise.stats.FleetReport;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Taxonomy;

import java.time.Duration;

/** A report and what produced it: the query, the slicing, where the kinds came from, the backend. */
public record StatsContext(FleetReport report, JobQuery query, Duration sliceLength, int slices, boolean logsRead,
                    String backend, Taxonomy taxonomy) {

    /**
     * The window's two ends as a reader names them: the query's, or where it left an end open (an export read
     * whole, or from --since on) the day of the jobs' earliest or latest moment ({@link FleetReport#coveredFrom}, the
     * instant --prometheus and --json give); null for an end neither gives.
     */
    public String[] windowEnds(java.util.function.Function<java.time.LocalDateTime, String> format) {
        String from = report.since() != null ? format.apply(report.since())
                : report.dataFrom() == null ? null : report.dataFrom().toLocalDate().toString();
        String to = report.until() != null ? format.apply(report.until())
                : report.dataUntil() == null ? null : report.dataUntil().toLocalDate().toString();
        return new String[] {from, to};
    }

    /**
     * A kind's title; {@code unknown} without the logs read says so, for most failures' cause is in their log, not
     * their record (the mock's 34 failures read 21 unknown by record, 0 with their logs).
     */
    public String kindTitle(String id) {
        if (!logsRead && FailureKind.UNKNOWN.equals(id)) {
            // what matters first, as a narrow panel cuts the title
            return "Logs not read: the accounting record alone does not say";
        }
        return taxonomy.find(id).map(FailureKind::title).orElse(id);
    }

    public String scope() {
        String who = query.user() != null ? "user " + query.user() : query.allUsers() ? "all users" : "jobs visible to you";
        return query.partition() == null ? who : who + " · partition " + query.partition();
    }

    /**
     * What {@code backend} says of figures read from sacct exports (the CLI's {@code --input}, slurmwise-spark):
     * the file, or how many, then the records read (a requeued run, a het component, an array range row each) and
     * the malformed rows skipped.
     *
     * @param firstFile the first export's name, as given
     */
    public static String exportOrigin(String firstFile, ExportStats.Counts c) {
        return "sacct export" + (c.files() == 1 ? " " + firstFile : "s: " + c.files() + " files")
                + " (" + c.jobs() + " records read" + (c.malformed() > 0 ? ", " + c.malformed() + " malformed rows skipped" : "")
                + (c.repeated() > 0 ? ", " + c.repeated() + " repeated rows counted once" : "")
                + ")";
    }

    /**
     * Where the figures came from, for a footer or a subtitle: {@link #backend}, then the records left out as
     * implausible when there were any ({@link FleetReport#implausibleNote}).
     */
    public String origin() {
        String note = report.implausibleNote();
        return note == null ? backend : backend + " · " + note;
    }

    public String kindsFrom() {
        return logsRead ? "records and log tails" : "accounting records only";
    }
}
