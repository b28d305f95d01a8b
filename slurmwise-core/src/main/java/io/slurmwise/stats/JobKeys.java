package io.slurmwise.stats;

import io.slurmwise.job.JobRecord;

/**
 * The jobs already counted by {@link ExportStats} from several exports, as 64-bit fingerprints of what makes a job's row the same row
 * (cluster, job id, submit, start, end, state): a job that two overlapping exports both hold (daily exports with
 * {@code sacct -S/-E} list a job that ran across midnight in both days) counts once. A requeued run of
 * {@code sacct -D} has its own start and end, and a job still running in one export and ended in the next has
 * another end and state: both stay rows of their own. Thread-safe: striped open-addressing tables of longs,
 * 16 to 32 bytes per job (tables at most half full), so the check costs memory in proportion to the jobs, not to their text.
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
        // numbers mixed as numbers: no text is made per job (a million jobs read at the parser's speed)
        long h = 0x9e3779b97f4a7c15L;
        h = mix(h, text(j.cluster()));
        h = mix(h, j.id().jobId());
        h = mix(h, j.id().arrayTask() == null ? -1 : j.id().arrayTask());
        h = mix(h, text(j.id().arraySpec()));
        h = mix(h, j.id().hetOffset() == null ? -1 : j.id().hetOffset());
        h = mix(h, time(j.submit()));
        h = mix(h, time(j.start()));
        h = mix(h, time(j.end()));
        h = mix(h, j.status() == null ? -1 : j.status().state().ordinal());
        h = mix(h, j.status() == null ? 0 : text(j.status().detail()));
        return h == 0 ? 1 : h; // 0 marks a free slot
    }

    private static long text(String s) {
        if (s == null) {
            return -1;
        }
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * 0x100000001b3L;
        }
        return h;
    }

    private static long time(java.time.LocalDateTime t) {
        return t == null ? Long.MIN_VALUE : t.toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000_000L + t.getNano();
    }

    /** One step of a 64-bit mix (the finaliser of MurmurHash3), so every bit of every field moves the result. */
    private static long mix(long h, long v) {
        long x = h ^ (v + 0x9e3779b97f4a7c15L + (h << 6) + (h >>> 2));
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
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
