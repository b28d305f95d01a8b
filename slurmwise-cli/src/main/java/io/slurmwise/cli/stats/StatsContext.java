package io.slurmwise.cli.stats;

import io.slurmwise.backend.JobQuery;
import io.slurmwise.stats.FleetReport;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Taxonomy;

import java.time.Duration;

/** A report and what produced it: the query, the slicing, where the kinds came from, the backend. */
record StatsContext(FleetReport report, JobQuery query, Duration sliceLength, int slices, boolean logsRead,
                    String backend, Taxonomy taxonomy) {

    String kindTitle(String id) {
        return taxonomy.find(id).map(FailureKind::title).orElse(id);
    }

    String scope() {
        String who = query.user() != null ? "user " + query.user() : query.allUsers() ? "all users" : "jobs visible to you";
        return query.partition() == null ? who : who + " · partition " + query.partition();
    }

    String kindsFrom() {
        return logsRead ? "records and log tails" : "accounting records only";
    }
}
