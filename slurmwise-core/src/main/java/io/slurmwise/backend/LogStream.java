package io.slurmwise.backend;

import java.util.Locale;

/** Which of a job's output files a log tail comes from. */
public enum LogStream {
    STDOUT, STDERR;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
