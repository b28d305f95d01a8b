package io.slurmwise.stats;

import io.slurmwise.job.JobRecord;

/**
 * The jobs already counted by {@link ExportStats}, as 64-bit fingerprints of what makes a job's row the same row
 * (cluster, job id, submit, start, end, state): a job that two overlapping exports both hold (daily exports with
 * {@code sacct -S/-E} list a job that ran across midnight in both days) counts once. A requeued run of
 * {@code sacct -D} has its own start and end, and a job still running in one export and ended in the next has
 * another end and state: both stay rows of their own. Thread-safe: striped open-addressing tables of longs,
 * 16 bytes per job at most, so the check costs memory in proportion to the jobs, not to their text.
 */
final class JobKeys {

    private static final int STRIPES = 64;
    private final Stripe[] stripes = new Stripe[STRIPES];

    JobKeys() {
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe();
        }
    }

    /** Whether {@code j} is seen for the first time (and now remembered). */
    boolean add(JobRecord j) {
        long k = fingerprint(j);
        return stripes[(int) (k >>> 58) & (STRIPES - 1)].add(k);
    }

    static long fingerprint(JobRecord j) {
        long h = 0xcbf29ce484222325L;
        for (Object o : new Object[] {j.cluster(), j.id(), j.submit(), j.start(), j.end(), j.status()}) {
            String s = String.valueOf(o);
            for (int i = 0; i < s.length(); i++) {
                h = (h ^ s.charAt(i)) * 0x100000001b3L;
            }
            h = (h ^ 0x1f) * 0x100000001b3L; // a separator, so ("ab","c") is not ("a","bc")
        }
        // mix, so the stripe (top bits) and the slot (low bits) both depend on every character
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return h == 0 ? 1 : h; // 0 marks a free slot
    }

    private static final class Stripe {
        private long[] table = new long[1024];
        private int size;

        synchronized boolean add(long k) {
            int mask = table.length - 1;
            int i = (int) k & mask;
            while (table[i] != 0) {
                if (table[i] == k) {
                    return false;
                }
                i = (i + 1) & mask;
            }
            table[i] = k;
            if (++size * 2 > table.length) {
                grow();
            }
            return true;
        }

        private void grow() {
            long[] old = table;
            table = new long[old.length * 2];
            int mask = table.length - 1;
            for (long k : old) {
                if (k != 0) {
                    int i = (int) k & mask;
                    while (table[i] != 0) {
                        i = (i + 1) & mask;
                    }
                    table[i] = k;
                }
            }
        }
    }
}
