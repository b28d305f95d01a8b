package io.slurmwise.job;

import java.time.Duration;
import java.util.Optional;

/**
 * A job's or partition's time limit: a duration, {@code UNLIMITED}, or {@code Partition_Limit} (the job set
 * none and inherits its partition's MaxTime).
 */
public record TimeLimit(Kind kind, Duration duration) {

    public enum Kind { LIMITED, UNLIMITED, PARTITION_LIMIT, UNKNOWN }

    public static final TimeLimit UNKNOWN = new TimeLimit(Kind.UNKNOWN, null);

    public static TimeLimit of(Duration d) {
        return new TimeLimit(Kind.LIMITED, d);
    }

    public static TimeLimit parse(String text) {
        if (text == null || text.isBlank()) {
            return UNKNOWN;
        }
        String t = text.strip();
        if (t.equalsIgnoreCase("UNLIMITED") || t.equalsIgnoreCase("infinite")) {
            return new TimeLimit(Kind.UNLIMITED, null);
        }
        if (t.equalsIgnoreCase("Partition_Limit")) {
            return new TimeLimit(Kind.PARTITION_LIMIT, null);
        }
        return SlurmTime.parseDuration(t).map(TimeLimit::of).orElse(UNKNOWN);
    }

    public Optional<Duration> limit() {
        return Optional.ofNullable(duration);
    }

    /**
     * The form a person reads: a duration, {@code UNLIMITED}, or {@code partition default} for a job that set none
     * (it gets the partition's DefaultTime, else its MaxTime, when it starts; sacct's {@code Partition_Limit} read raw
     * in 1042's headline, an outside audit).
     */
    public String human() {
        return kind == Kind.PARTITION_LIMIT ? "partition default" : toString();
    }

    /** SLURM's own form, as sacct prints it (JSON and machine output). */
    @Override
    public String toString() {
        return switch (kind) {
            case LIMITED -> SlurmTime.format(duration);
            case UNLIMITED -> "UNLIMITED";
            case PARTITION_LIMIT -> "Partition_Limit";
            case UNKNOWN -> "?";
        };
    }
}
