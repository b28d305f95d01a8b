package io.slurmwise.stats;

import io.slurmwise.job.JobRecord;

import java.time.Duration;
import java.time.LocalDateTime;

/**
 * Records whose times cannot be: one such record swamps a report (a Start of 1970 with no Elapsed is 56 years of
 * CPUs, an Elapsed of 1000 days between a Start and an End an hour apart), so stats sets them aside and says how
 * many, as it says of rows that cannot be read (an outside audit: each was counted silently).
 */
final class Implausible {

    /** Before SLURM existed: a zeroed or epoch time (1970-01-01), not a job's. */
    static final LocalDateTime EARLIEST = LocalDateTime.of(2000, 1, 1, 0, 0);
    /** Longer than any job runs: a Start decades before its End is a wrong time, not a long job. */
    static final Duration LONGEST = Duration.ofDays(3653);
    /**
     * How much longer than End - Start an Elapsed may be: an hour for a clock change (Start and End are local
     * times) and a few minutes more. Shorter is no contradiction: a suspended job's Elapsed leaves its suspension out.
     */
    static final Duration SLACK = Duration.ofMinutes(65);

    private Implausible() {
    }

    /**
     * The first of two notes ({@code "<id> (why)"}, either null): the lower job id, then the text, so that merging in
     * any order (slices, blocks of an export on several threads) names the same record.
     */
    static String first(String a, String b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        int c = Long.compare(leadingNumber(a), leadingNumber(b));
        return c < 0 || (c == 0 && a.compareTo(b) <= 0) ? a : b;
    }

    private static long leadingNumber(String s) {
        long n = 0;
        for (int i = 0; i < s.length() && i < 18 && Character.isDigit(s.charAt(i)); i++) {
            n = n * 10 + (s.charAt(i) - '0');
        }
        return n;
    }

    /**
     * Whether an End up to {@link #SLACK} before its Start is a job that ran across the night the clocks go back: sacct
     * prints local wall-clock times, so a job started at 01:42 summer time and ended 34 minutes later ends at 01:16
     * winter time (an outside audit: such jobs, real ones every autumn on a busy centre, were left out as
     * implausible). Its Elapsed, the time it really ran, is then positive and at most an hour more than End - Start.
     */
    private static boolean acrossAutumnClockChange(Duration span, Duration elapsed) {
        return span.negated().compareTo(SLACK) <= 0 && elapsed != null && !elapsed.isZero() && !elapsed.isNegative()
                && elapsed.compareTo(span.plus(SLACK)) <= 0;
    }

    /** Why the record's times cannot be, in a few words; null when they can. */
    static String why(JobRecord j) {
        LocalDateTime start = j.start();
        LocalDateTime end = j.end();
        Duration elapsed = j.elapsed();
        if (start != null && start.isBefore(EARLIEST)) {
            return "Start " + start + " before 2000";
        }
        if (end != null && end.isBefore(EARLIEST) && j.outcome().isEnded()) {
            return "End " + end + " before 2000";
        }
        // the End of a job not ended (running, an unknown state) is no end: some sacct versions print the Start there
        if (start != null && end != null && j.outcome().isEnded()) {
            Duration span = Duration.between(start, end);
            if (end.isBefore(start) && !acrossAutumnClockChange(span, elapsed)) {
                return "End " + end + " before Start " + start;
            }
            if (span.compareTo(LONGEST) > 0) {
                return "Start " + start + " more than ten years before End " + end;
            }
            if (elapsed != null && elapsed.compareTo(span.plus(SLACK)) > 0) {
                return "Elapsed " + io.slurmwise.job.SlurmTime.format(elapsed) + " where End - Start is "
                        + io.slurmwise.job.SlurmTime.format(span);
            }
        }
        if (elapsed != null && elapsed.isNegative()) {
            return "a negative Elapsed";
        }
        if (elapsed != null && elapsed.compareTo(LONGEST) > 0) {
            return "Elapsed " + io.slurmwise.job.SlurmTime.format(elapsed);
        }
        return null;
    }
}
