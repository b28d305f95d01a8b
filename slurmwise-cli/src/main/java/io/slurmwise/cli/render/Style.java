package io.slurmwise.cli.render;

import io.slurmwise.job.Outcome;

/** ANSI styling that turns itself off when colour is not wanted, and the width text is wrapped to. */
public record Style(boolean enabled, int width) {

    private String wrap(String code, String s) {
        return enabled ? "\u001b[" + code + "m" + s + "\u001b[0m" : s;
    }

    public String bold(String s) {
        return wrap("1", s);
    }

    public String dim(String s) {
        return wrap("2", s);
    }

    public String red(String s) {
        return wrap("31", s);
    }

    public String green(String s) {
        return wrap("32", s);
    }

    public String yellow(String s) {
        return wrap("33", s);
    }

    public String cyan(String s) {
        return wrap("36", s);
    }

    /** A SLURM state word in its outcome's colour: failed red, cancelled or preempted yellow, active cyan. */
    public String state(Outcome outcome, String state) {
        return switch (outcome) {
            case COMPLETED -> green(state);
            case PENDING, RUNNING -> cyan(state);
            case CANCELLED, PREEMPTED -> yellow(state);
            case FAILED -> red(state);
            case UNKNOWN -> state;
        };
    }
}
