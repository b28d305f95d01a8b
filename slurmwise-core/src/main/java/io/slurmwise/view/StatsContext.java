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

    public String kindTitle(String id) {
        return taxonomy.find(id).map(FailureKind::title).orElse(id);
    }

    public String scope() {
        String who = query.user() != null ? "user " + query.user() : query.allUsers() ? "all users" : "jobs visible to you";
        return query.partition() == null ? who : who + " · partition " + query.partition();
    }

    /**
     * What {@code backend} says of figures read from sacct exports (the CLI's {@code --input}, slurmwise-spark):
     * the file, or how many, then the jobs read and the malformed rows skipped.
     *
     * @param firstFile the first export's name, as given
     */
    public static String exportOrigin(String firstFile, ExportStats.Counts c) {
        return "sacct export" + (c.files() == 1 ? " " + firstFile : "s: " + c.files() + " files")
                + " (" + c.jobs() + " jobs read" + (c.malformed() > 0 ? ", " + c.malformed() + " malformed rows skipped" : "")
                + ")";
    }

    public String kindsFrom() {
        return logsRead ? "records and log tails" : "accounting records only";
    }
}
