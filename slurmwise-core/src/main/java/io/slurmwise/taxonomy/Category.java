package io.slurmwise.taxonomy;

import java.util.Locale;

/** Where a failure comes from: the program at run time, the scheduler before it ran, or the end SLURM imposed. */
public enum Category {
    RUNTIME, SCHEDULING, TERMINAL;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
