package io.slurmwise.job;

import java.util.Locale;
import java.util.Map;

/**
 * The base state of a SLURM job, as sacct, squeue and scontrol print it (long or short form).
 * A suffix such as {@code CANCELLED by 1001} is kept apart in {@link JobStatus}.
 */
public enum JobState {
    PENDING("PD"), RUNNING("R"), SUSPENDED("S"), COMPLETING("CG"), CONFIGURING("CF"),
    COMPLETED("CD"), CANCELLED("CA"), FAILED("F"), TIMEOUT("TO"), NODE_FAIL("NF"),
    PREEMPTED("PR"), BOOT_FAIL("BF"), DEADLINE("DL"), OUT_OF_MEMORY("OOM"),
    REQUEUED("RQ"), REQUEUE_HOLD("RH"), REQUEUE_FED("RF"), RESIZING("RS"), REVOKED("RV"),
    SIGNALING("SI"), SPECIAL_EXIT("SE"), STAGE_OUT("SO"), STOPPED("ST"), RESV_DEL_HOLD("RD"),
    UNKNOWN("?");

    private static final Map<String, JobState> BY_NAME = new java.util.HashMap<>();

    static {
        for (JobState s : values()) {
            BY_NAME.put(s.name(), s);
            BY_NAME.put(s.shortCode, s);
        }
    }

    private final String shortCode;

    JobState(String shortCode) {
        this.shortCode = shortCode;
    }

    public String shortCode() {
        return shortCode;
    }

    /**
     * Parses the first word of a state ({@code "CANCELLED by 1001"} -> CANCELLED); unknown words give UNKNOWN.
     * A trailing {@code +} is sacct's mark for a value cut at its column width (10 by default): {@code CANCELLED+}
     * ({@code CANCELLED by 1001}) and {@code OUT_OF_ME+} (OUT_OF_MEMORY), as pasted from sacct's default table;
     * the cut word names the one state it begins.
     */
    public static JobState parse(String text) {
        if (text == null || text.isBlank()) {
            return UNKNOWN;
        }
        String word = text.strip().split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
        if (!word.endsWith("+")) {
            return BY_NAME.getOrDefault(word, UNKNOWN);
        }
        String cut = word.substring(0, word.length() - 1);
        JobState exact = BY_NAME.get(cut);
        if (exact != null) {
            return exact;
        }
        JobState found = UNKNOWN;
        for (JobState s : values()) {
            if (s != UNKNOWN && cut.length() >= 3 && s.name().startsWith(cut)) {
                if (found != UNKNOWN) {
                    return UNKNOWN; // ambiguous
                }
                found = s;
            }
        }
        return found;
    }

    /**
     * Parses a list of states as users type them ({@code FAILED,TIMEOUT}, {@code F TO OOM}, each item may itself
     * hold commas): the one state-list parser of {@code jobs --state} and the {@code list_jobs} tool.
     *
     * @throws IllegalArgumentException naming the word that is not a state and the common ones
     */
    public static java.util.Set<JobState> parseList(Iterable<String> items) {
        java.util.Set<JobState> out = java.util.EnumSet.noneOf(JobState.class);
        if (items == null) {
            return out;
        }
        for (String item : items) {
            for (String word : item == null ? new String[0] : item.split("[,\\s]+")) {
                if (word.isBlank()) {
                    continue;
                }
                JobState s = parse(word);
                if (s == UNKNOWN) {
                    throw new IllegalArgumentException("'" + word.strip() + "' is not a SLURM job state; use e.g. FAILED,"
                            + " TIMEOUT, OUT_OF_MEMORY, CANCELLED, NODE_FAIL, PREEMPTED, COMPLETED, RUNNING, PENDING"
                            + " (short forms F, TO, OOM, CA, PD, R work)");
                }
                out.add(s);
            }
        }
        return out;
    }

    /** Still queued or running: no final outcome yet. */
    public boolean isActive() {
        return switch (this) {
            case PENDING, RUNNING, SUSPENDED, COMPLETING, CONFIGURING, REQUEUED, REQUEUE_HOLD, REQUEUE_FED,
                    RESIZING, SIGNALING, STAGE_OUT, STOPPED, RESV_DEL_HOLD -> true;
            default -> false;
        };
    }

    /** Ended without success (cancelled and preempted included; callers that count failures set those apart). */
    public boolean isUnsuccessful() {
        return switch (this) {
            case FAILED, TIMEOUT, NODE_FAIL, PREEMPTED, BOOT_FAIL, DEADLINE, OUT_OF_MEMORY, CANCELLED -> true;
            default -> false;
        };
    }
}
