package io.slurmwise.taxonomy;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** A sanity check over the accounting record that a note can declare in its {@code checks} list. */
public enum Check {
    /** MaxRSS reached at least 90% of the memory limit. */
    RSS_AT_MEM_LIMIT,
    /** Elapsed reached the time limit. */
    ELAPSED_AT_TIME_LIMIT,
    /** The job never got a node (sacct NodeList {@code None assigned}). */
    NO_NODES_ASSIGNED,
    /**
     * slurmctld itself cancelled the job while it waited on its dependency: {@code CANCELLED} naming no canceller,
     * never started, its reason {@code Dependency} ({@code kill_invalid_depend}, {@code --kill-on-invalid-dep=yes}).
     */
    CANCELLED_ON_DEPENDENCY;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Check> of(String id) {
        return Arrays.stream(values()).filter(c -> c.id().equals(id)).findFirst();
    }
}
