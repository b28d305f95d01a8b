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

    void merge(Tally t) {
        for (int i = 0; i < outcomes.length; i++) {
            outcomes[i] += t.outcomes[i];
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
