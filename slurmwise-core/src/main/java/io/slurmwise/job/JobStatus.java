package io.slurmwise.job;

/**
 * A job state with the detail SLURM appends, e.g. {@code CANCELLED by 1001}: state CANCELLED, detail "by 1001".
 */
public record JobStatus(JobState state, String detail) {

    public JobStatus {
        java.util.Objects.requireNonNull(state, "state");
        detail = detail == null ? "" : detail;
    }

    public static JobStatus parse(String text) {
        if (text == null || text.isBlank()) {
            return new JobStatus(JobState.UNKNOWN, "");
        }
        String[] parts = text.strip().split("\\s+", 2);
        return new JobStatus(JobState.parse(parts[0]), parts.length > 1 ? parts[1] : "");
    }

    public static JobStatus of(JobState state) {
        return new JobStatus(state, "");
    }

    @Override
    public String toString() {
        return detail.isEmpty() ? state.name() : state.name() + " " + detail;
    }
}
