package io.slurmwise.stats;

import io.slurmwise.job.Outcome;

/**
 * Counters of one group of jobs (the whole window, a partition, a user, a day or a failure kind). Every counter is
 * a whole number (seconds, joules, MiB), so adding tallies is exact and order does not matter: slices and
 * clusters merge to the same figures a single pass gives.
 */
final class Tally {
    final long[] outcomes = new long[Outcome.values().length];
    /** Failed jobs: allocation x elapsed, and estimated IT energy (before PUE). */
    long failedGpuSeconds;
    long failedCpuSeconds;
    long failedJoules;
    long failedMeasuredJoules;
    long failedMeasuredJobs;
    /** Cancelled and preempted jobs, apart. */
    long interruptedGpuSeconds;
    long interruptedCpuSeconds;
    long interruptedJoules;
    /** Every ended job. */
    long usedGpuSeconds;
    long usedCpuSeconds;
    long usedJoules;
    long usedMeasuredJoules;
    long usedMeasuredJobs;
    /**
     * Ended jobs whose record says they never ran ({@link io.slurmwise.job.JobRecord#neverStarted}: a pending array
     * cancelled, a job refused or past its deadline in the queue), by outcome: they count in the outcomes above as the
     * jobs they are, and this says how many of them held nothing.
     */
    final long[] neverStarted = new long[Outcome.values().length];

    void add(Outcome o, long gpuSeconds, long cpuSeconds, long joules, Long measuredJoules) {
        add(o, 1, gpuSeconds, cpuSeconds, joules, measuredJoules);
    }

    /** @param jobs how many jobs the record stands for (a pending array's row: its tasks) */
    void add(Outcome o, long jobs, long gpuSeconds, long cpuSeconds, long joules, Long measuredJoules) {
        outcomes[o.ordinal()] += jobs;
        if (!o.isEnded()) {
            return;
        }
        usedGpuSeconds += gpuSeconds;
        usedCpuSeconds += cpuSeconds;
        usedJoules += joules;
        if (measuredJoules != null) {
            usedMeasuredJoules += measuredJoules;
            usedMeasuredJobs++;
        }
        if (o == Outcome.FAILED) {
            failedGpuSeconds += gpuSeconds;
            failedCpuSeconds += cpuSeconds;
            failedJoules += joules;
            if (measuredJoules != null) {
                failedMeasuredJoules += measuredJoules;
                failedMeasuredJobs++;
            }
        } else if (o.isInterrupted()) {
            interruptedGpuSeconds += gpuSeconds;
            interruptedCpuSeconds += cpuSeconds;
            interruptedJoules += joules;
        }
    }

    /** Takes back what {@link #add(Outcome, long, long, long, long, Long)} added with the same arguments. */
    void retract(Outcome o, long jobs, long gpuSeconds, long cpuSeconds, long joules, Long measuredJoules) {
        add(o, -jobs, -gpuSeconds, -cpuSeconds, -joules, measuredJoules == null ? null : -measuredJoules);
        if (measuredJoules != null && o.isEnded()) {
            // add counted one more measured job where it should have counted one less
            usedMeasuredJobs -= 2;
            if (o == Outcome.FAILED) {
                failedMeasuredJobs -= 2;
            }
        }
    }

    /** Whether every counter is zero (a group whose only job was taken back). */
    boolean isEmpty() {
        for (long n : outcomes) {
            if (n != 0) {
                return false;
            }
        }
        for (long n : neverStarted) {
            if (n != 0) {
                return false;
            }
        }
        return failedGpuSeconds == 0 && failedCpuSeconds == 0 && failedJoules == 0 && failedMeasuredJoules == 0
                && failedMeasuredJobs == 0 && interruptedGpuSeconds == 0 && interruptedCpuSeconds == 0
                && interruptedJoules == 0 && usedGpuSeconds == 0 && usedCpuSeconds == 0 && usedJoules == 0
                && usedMeasuredJoules == 0 && usedMeasuredJobs == 0;
    }

    void merge(Tally t) {
        for (int i = 0; i < outcomes.length; i++) {
            outcomes[i] += t.outcomes[i];
            neverStarted[i] += t.neverStarted[i];
        }
        failedGpuSeconds += t.failedGpuSeconds;
        failedCpuSeconds += t.failedCpuSeconds;
        failedJoules += t.failedJoules;
        failedMeasuredJoules += t.failedMeasuredJoules;
        failedMeasuredJobs += t.failedMeasuredJobs;
        interruptedGpuSeconds += t.interruptedGpuSeconds;
        interruptedCpuSeconds += t.interruptedCpuSeconds;
        interruptedJoules += t.interruptedJoules;
        usedGpuSeconds += t.usedGpuSeconds;
        usedCpuSeconds += t.usedCpuSeconds;
        usedJoules += t.usedJoules;
        usedMeasuredJoules += t.usedMeasuredJoules;
        usedMeasuredJobs += t.usedMeasuredJobs;
    }

    long count(Outcome o) {
        return outcomes[o.ordinal()];
    }

    /** Ended jobs that never started (of every outcome). */
    long neverStarted() {
        long n = 0;
        for (long c : neverStarted) {
            n += c;
        }
        return n;
    }

    long jobs() {
        long n = 0;
        for (long c : outcomes) {
            n += c;
        }
        return n;
    }

    long ended() {
        return count(Outcome.COMPLETED) + count(Outcome.FAILED) + count(Outcome.CANCELLED) + count(Outcome.PREEMPTED);
    }
}
