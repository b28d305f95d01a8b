package io.slurmwise.view;

import io.slurmwise.backend.JobQuery;
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

    public String kindsFrom() {
        return logsRead ? "records and log tails" : "accounting records only";
    }
}
