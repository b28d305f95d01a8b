package io.slurmwise.bench;

import io.slurmwise.job.DataSize;
import io.slurmwise.job.ExitCode;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobStatus;
import io.slurmwise.job.MemoryRequest;
import io.slurmwise.job.TimeLimit;
import io.slurmwise.job.Tres;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.SplittableRandom;

/**
 * Job records and sacct text for the stats benchmarks: a fleet with a realistic mix (70% completed, 15% failed in
 * several states, 10% cancelled, 3% preempted, 2% pending or running), 6 partitions with and without GPUs,
 * 500 users, one job in ten an array task (50 tasks per array), 33,000 jobs a day. Record {@code i} is always
 * the same job, so any count can be generated on the fly without holding it.
 */
public final class SyntheticJobs {

    static final LocalDateTime T0 = LocalDateTime.of(2026, 1, 1, 0, 0);
    static final int JOBS_PER_DAY = 33_000;
    private static final String[] PARTITIONS = {"cpu", "cpu", "cpu", "gpuA100x4", "gpuH100x8", "largemem"};
    private static final String[] MODELS = {null, null, null, "a100", "h100", null};
    private static final Tres[] TRES = new Tres[PARTITIONS.length * 4];
    private static final String[] USERS = new String[500];
    private static final MemoryRequest MEM = MemoryRequest.tryParse("64G").orElseThrow();
    private static final TimeLimit LIMIT = TimeLimit.parse("1-00:00:00");

    static {
        for (int p = 0; p < PARTITIONS.length; p++) {
            for (int g = 0; g < 4; g++) {
                int gpus = MODELS[p] == null && !PARTITIONS[p].startsWith("gpu") ? 0 : g + 1;
                int cpus = gpus > 0 ? 16 * gpus : 8 << g;
                TRES[p * 4 + g] = Tres.parse("billing=" + cpus + ",cpu=" + cpus + (gpus > 0 ? ",gres/gpu:" + MODELS[p]
                        + "=" + gpus + ",gres/gpu=" + gpus : "") + ",mem=64G,node=1");
            }
        }
        for (int u = 0; u < USERS.length; u++) {
            USERS[u] = "user" + u;
        }
    }

    private SyntheticJobs() {
    }

    /** The {@code i}-th job of the synthetic fleet. */
    public static JobRecord job(long i) {
        SplittableRandom r = new SplittableRandom(i * 0x9E3779B97F4A7C15L);
        int p = r.nextInt(PARTITIONS.length);
        Tres tres = TRES[p * 4 + r.nextInt(4)];
        int roll = r.nextInt(100);
        String state;
        String exit = "0:0";
        if (roll < 70) {
            state = "COMPLETED";
        } else if (roll < 78) {
            state = "FAILED";
            exit = r.nextBoolean() ? "1:0" : "0:11";
        } else if (roll < 81) {
            state = "TIMEOUT";
        } else if (roll < 84) {
            state = "OUT_OF_MEMORY";
            exit = "0:125";
        } else if (roll < 85) {
            state = "NODE_FAIL";
        } else if (roll < 95) {
            state = "CANCELLED by 1001";
        } else if (roll < 98) {
            state = "PREEMPTED";
        } else {
            state = roll == 98 ? "PENDING" : "RUNNING";
        }
        boolean active = roll >= 98;
        JobId id = i % 10 == 0 ? new JobId(5_000_000 + i / 500, (long) (i / 10 % 50), null, null, null)
                : new JobId(10_000_000 + i, null, null, null, null);
        long seconds = active && roll == 98 ? 0 : 60 + r.nextInt(86_400);
        LocalDateTime end = T0.plusSeconds(i * 86_400 / JOBS_PER_DAY);
        JobRecord.Builder b = JobRecord.builder(id).name("job" + (i % 1000)).user(USERS[r.nextInt(USERS.length)])
                .account("acct" + (i % 40)).partition(PARTITIONS[p]).qos("normal").status(JobStatus.parse(state))
                .exitCode(ExitCode.parse(exit)).submit(end.minusSeconds(seconds + 120)).start(end.minusSeconds(seconds))
                .end(active ? null : end).elapsed(Duration.ofSeconds(seconds)).timeLimit(LIMIT).reqMem(MEM)
                .allocCpus(tres.cpus()).allocTres(tres).nodeList("n" + (i % 900))
                .totalCpu(Duration.ofSeconds(seconds * tres.cpus() * (20 + r.nextInt(80)) / 100))
                .maxRss(DataSize.ofMebibytes(1024 + r.nextInt(60_000)));
        if (p == 4 && r.nextInt(4) == 0) {
            b.consumedEnergyJoules(seconds * 3000L);
        }
        return b.build();
    }

    /** The rows of the bundled mock cluster's sacct.psv (193 rows: 67 jobs and their steps), without the header. */
    static String mockSacctBody() {
        try (InputStream in = SyntheticJobs.class.getClassLoader()
                .getResourceAsStream("io/slurmwise/mock/cluster/sacct.psv")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return text.substring(text.indexOf('\n') + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String mockSacctHeader() {
        try (InputStream in = SyntheticJobs.class.getClassLoader()
                .getResourceAsStream("io/slurmwise/mock/cluster/sacct.psv")) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return text.substring(0, text.indexOf('\n') + 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code sacct -P} text of at least {@code rows} rows, made by repeating the mock cluster's export, streamed:
     * nothing but one copy of the export is held.
     */
    static Reader sacctStream(long rows) {
        String header = mockSacctHeader();
        char[] body = mockSacctBody().toCharArray();
        long perCopy = mockSacctBody().lines().count();
        long copies = (rows + perCopy - 1) / perCopy;
        char[] head = header.toCharArray();
        return new Reader() {
            int headPos;
            long copy;
            int pos;

            @Override
            public int read(char[] buf, int off, int len) {
                if (headPos < head.length) {
                    int n = Math.min(len, head.length - headPos);
                    System.arraycopy(head, headPos, buf, off, n);
                    headPos += n;
                    return n;
                }
                if (copy >= copies) {
                    return -1;
                }
                int n = Math.min(len, body.length - pos);
                System.arraycopy(body, pos, buf, off, n);
                pos += n;
                if (pos == body.length) {
                    pos = 0;
                    copy++;
                }
                return n;
            }

            @Override
            public void close() {
            }
        };
    }
}
