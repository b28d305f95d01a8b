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
    NO_NODES_ASSIGNED;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Check> of(String id) {
        return Arrays.stream(values()).filter(c -> c.id().equals(id)).findFirst();
    }
}
