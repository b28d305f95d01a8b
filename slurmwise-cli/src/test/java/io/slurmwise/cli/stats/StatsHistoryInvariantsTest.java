package io.slurmwise.cli.stats;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The analytics of a busy centre's history, checked against a count made here by hand from the model of each job the
 * history was written from (never by reading the rows back). What a centre expects, as the README's Stats section
 * says it: a requeued job ({@code sacct -D}: its runs' records one after the other) is one job with its last run's
 * outcome, the earlier runs' hours interrupted time, not waste and not dropped; each array task is a job and a
 * never-started range counts as its tasks; steps add nothing to their job (their AllocTRES repeats its GPUs); a
 * failed job wastes its GPUs x Elapsed; a job is dated on the day it ended as sacct printed it (running: the day it
 * started; pending: submitted), whatever midnight or clock change it ran across; running and pending jobs are not
 * ended and not failures; per-kind, per-partition, per-user and per-day figures add up to the total.
 */
class StatsHistoryInvariantsTest {

    static final String HEADER = "JobID|JobName|User|Account|Partition|State|ExitCode|Submit|Start|End|Elapsed|"
            + "Timelimit|ReqMem|MaxRSS|AllocCPUS|AllocTRES|ReqTRES|NodeList|TotalCPU|Reason";
    static final DateTimeFormatter T = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss");
    static final LocalDateTime FROM = LocalDateTime.of(2026, 10, 20, 0, 0);
    static final LocalDateTime NOW = LocalDateTime.of(2026, 10, 30, 0, 0);
    static final String[] PARTS = {"cpu", "gpu"};
    static final String[] COUNTS = {"jobs", "completed", "failed", "cancelled", "preempted", "pending", "running"};

    /** Hand counts of one group (the total, a partition, a user, a day). */
    static final class Count {
        final Map<String, Long> n = new TreeMap<>();
        long wastedGpuS;
        long wastedCpuS;
        long interruptedGpuS;

        void job(String outcome) {
            n.merge("jobs", 1L, Long::sum);
            n.merge(outcome, 1L, Long::sum);
        }

        long get(String k) {
            return n.getOrDefault(k, 0L);
        }
    }

    static final Count TOTAL = new Count();
    static final Map<String, Count> BY_PARTITION = new TreeMap<>();
    static final Map<String, Count> BY_USER = new TreeMap<>();
    static final Map<String, Count> BY_DAY = new TreeMap<>();
    static final Map<String, Long> FAILED_BY_STATE = new TreeMap<>();
    static long hetAcrossPartitions;
    static long hetFailed;

    @TempDir
    static Path tmp;
    static JsonNode json;
    static String text;

    static Count at(Map<String, Count> m, String k) {
        return m.computeIfAbsent(k, x -> new Count());
    }

    /** One job counted: its outcome in every group it belongs to (a het job in each partition it has a part on). */
    static void count(String outcome, String user, List<String> parts, LocalDateTime dated) {
        TOTAL.job(outcome);
        at(BY_USER, user).job(outcome);
        at(BY_DAY, dated.toLocalDate().toString()).job(outcome);
        parts.stream().distinct().forEach(p -> at(BY_PARTITION, p).job(outcome));
    }

    static void waste(String user, String part, LocalDateTime end, long gpuS, long cpuS) {
        for (Count c : List.of(TOTAL, at(BY_USER, user), at(BY_PARTITION, part), at(BY_DAY, end.toLocalDate().toString()))) {
            c.wastedGpuS += gpuS;
            c.wastedCpuS += cpuS;
        }
    }

    static String hms(long s) {
        return (s >= 86400 ? s / 86400 + "-" : "") + String.format(Locale.ROOT, "%02d:%02d:%02d", s % 86400 / 3600, s % 3600 / 60, s % 60);
    }

    /** A run's record and its steps; a step's AllocTRES repeats the job's GPUs, as SLURM writes it. */
    static void run(StringBuilder out, String id, String user, String part, String state, String exit,
                    LocalDateTime submit, LocalDateTime start, LocalDateTime end, long seconds, int cpus, int gpus,
                    boolean typed, String stepState) {
        String gres = gpus == 0 ? "" : ",gres/gpu=" + gpus + (typed ? ",gres/gpu:a100=" + gpus : "");
        String tres = "billing=" + cpus + ",cpu=" + cpus + gres + ",mem=16G,node=1";
        String e = end == null ? "Unknown" : T.format(end);
        out.append(String.join("|", id, "train", user, "lab", part, state, exit, T.format(submit), T.format(start), e,
                hms(seconds), "2-00:00:00", "16G", "", String.valueOf(cpus), tres, tres, "n01", hms(seconds / 2),
                "None")).append('\n');
        String steps = end == null ? "RUNNING" : state.startsWith("COMPLETED") ? "COMPLETED" : "CANCELLED";
        for (String[] s : new String[][]{{"batch", steps, "0:0"}, {"extern", end == null ? "RUNNING" : "COMPLETED", "0:0"},
                {"0", stepState == null ? steps : stepState, stepState == null ? "0:0" : "0:125"}}) {
            out.append(String.join("|", id + "." + s[0], s[0], "", "lab", "", s[1], s[2], T.format(start),
                    T.format(start), e, hms(seconds), "", "", "2000000K", String.valueOf(cpus),
                    "cpu=" + cpus + ",mem=16G,node=1" + (gpus == 0 ? "" : ",gres/gpu=" + gpus), "", "n01",
                    hms(seconds / 2), "")).append('\n');
        }
    }

    static final String[] FINAL = {"COMPLETED", "COMPLETED", "COMPLETED", "COMPLETED", "FAILED", "TIMEOUT",
            "OUT_OF_MEMORY", "NODE_FAIL", "CANCELLED by 1001", "PREEMPTED", "RUNNING", "PENDING", "COMPLETED*"};

    /** An ordinary job (or array task): maybe requeued first; its final state; counted by hand. */
    static void job(StringBuilder out, Random r, String id, String user) {
        String part = PARTS[r.nextInt(2)];
        int cpus = 1 + r.nextInt(64);
        int gpus = part.equals("gpu") ? 1 + r.nextInt(8) : 0;
        boolean typed = r.nextBoolean();
        LocalDateTime submit = FROM.plusSeconds(r.nextInt(9 * 86400));
        LocalDateTime start = submit.plusSeconds(r.nextInt(3600));
        if (r.nextInt(8) == 0) { // requeued: earlier runs, then the last
            for (int k = 0, runs = 1 + r.nextInt(2); k < runs; k++) {
                long s = 60 + r.nextInt(20_000);
                String st = new String[]{"REQUEUED", "PREEMPTED", "NODE_FAIL"}[r.nextInt(3)];
                run(out, id, user, part, st, "0:0", submit, start, start.plusSeconds(s), s, cpus, gpus, typed, null);
                for (Count c : List.of(TOTAL, at(BY_PARTITION, part))) {
                    c.interruptedGpuS += gpus * s;
                }
                start = start.plusSeconds(s + 120);
            }
        }
        String state = FINAL[r.nextInt(FINAL.length)];
        long seconds = state.equals("TIMEOUT") ? 86400 : r.nextInt(30 * 3600);
        LocalDateTime end = start.plusSeconds(seconds);
        if (state.equals("RUNNING") || (!state.equals("PENDING") && end.isAfter(NOW))) {
            seconds = java.time.Duration.between(start, NOW).getSeconds() - 1;
            run(out, id, user, part, "RUNNING", "0:0", submit, start, null, seconds, cpus, gpus, typed, null);
            count("running", user, List.of(part), start);
            return;
        }
        if (state.equals("PENDING")) {
            out.append(String.join("|", id, "train", user, "lab", part, "PENDING", "0:0", T.format(submit), "Unknown",
                    "Unknown", "00:00:00", "2-00:00:00", "16G", "", "0", "", "cpu=" + cpus, "None assigned",
                    "00:00:00", "Priority")).append('\n');
            count("pending", user, List.of(part), submit);
            return;
        }
        boolean stepOom = state.equals("COMPLETED*");
        String recorded = stepOom ? "COMPLETED" : state;
        String exit = switch (recorded) {
            case "FAILED" -> "1:0";
            case "OUT_OF_MEMORY" -> "0:125";
            default -> "0:0";
        };
        run(out, id, user, part, recorded, exit, submit, start, end, seconds, cpus, gpus, typed,
                stepOom ? "OUT_OF_MEMORY" : null);
        String outcome = stepOom ? "failed" : switch (recorded) {
            case "COMPLETED" -> "completed";
            case "PREEMPTED" -> "preempted";
            case "CANCELLED by 1001" -> "cancelled";
            default -> "failed";
        };
        count(outcome, user, List.of(part), end);
        if (outcome.equals("failed")) {
            waste(user, part, end, gpus * seconds, cpus * seconds);
            FAILED_BY_STATE.merge(state, 1L, Long::sum);
        } else if (!outcome.equals("completed")) {
            for (Count c : List.of(TOTAL, at(BY_PARTITION, part))) {
                c.interruptedGpuS += gpus * seconds;
            }
        }
    }

    @BeforeAll
    static void history() throws IOException {
        Random r = new Random(39);
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        long id = 7_000_000;
        String[] users = {"ann", "bob", "chen", "dana", "eve", "farid"};
        for (int i = 0; i < 1500; i++) {
            String user = users[Math.min(users.length - 1, (int) (users.length * Math.pow(r.nextDouble(), 2)))];
            id += 1 + r.nextInt(3);
            int shape = r.nextInt(40);
            if (shape == 0) { // an array: tasks that ran, then a never-started pending range
                int size = 5 + r.nextInt(30);
                int ran = r.nextInt(size);
                for (int t = 1; t <= ran; t++) {
                    job(out, r, id + "_" + t, user);
                }
                LocalDateTime submit = FROM.plusSeconds(r.nextInt(9 * 86400));
                out.append(String.join("|", id + "_[" + (ran + 1) + "-" + size + "]", "sweep", user, "lab", "cpu",
                        "PENDING", "0:0", T.format(submit), "Unknown", "Unknown", "00:00:00", "1-00:00:00", "4G", "",
                        "0", "", "cpu=4", "None assigned", "00:00:00", "Priority")).append('\n');
                for (int t = ran + 1; t <= size; t++) {
                    count("pending", user, List.of("cpu"), submit);
                }
            } else if (shape == 1) { // a heterogeneous job: cpu part completed, gpu part failed or completed
                LocalDateTime start = FROM.plusSeconds(r.nextInt(8 * 86400));
                long s = 600 + r.nextInt(40_000);
                LocalDateTime end = start.plusSeconds(s);
                boolean failed = r.nextBoolean();
                run(out, id + "+0", user, "cpu", "COMPLETED", "0:0", start, start, end, s, 16, 0, false, null);
                run(out, id + "+1", user, "gpu", failed ? "FAILED" : "COMPLETED", failed ? "1:0" : "0:0", start, start,
                        end, s, 8, 4, true, null);
                count(failed ? "failed" : "completed", user, List.of("cpu", "gpu"), end);
                hetAcrossPartitions++;
                if (failed) {
                    waste(user, "cpu", end, 0, 16 * s);
                    waste(user, "gpu", end, 4 * s, 8 * s); // every component's hours, each on its own partition
                    FAILED_BY_STATE.merge("FAILED", 1L, Long::sum);
                    hetFailed++;
                }
            } else {
                job(out, r, String.valueOf(id), user);
            }
        }
        // the night the clocks go back (Europe): started 02:40 summer time, ran 30 minutes, ended 02:10 winter time
        LocalDateTime s = LocalDateTime.of(2026, 10, 25, 2, 40);
        run(out, String.valueOf(++id), "ann", "gpu", "TIMEOUT", "0:0", s, s, s.minusMinutes(30), 1800, 4, 2, false, null);
        count("failed", "ann", List.of("gpu"), s.minusMinutes(30));
        waste("ann", "gpu", s.minusMinutes(30), 2 * 1800, 4 * 1800);
        FAILED_BY_STATE.merge("TIMEOUT", 1L, Long::sum);

        Path export = Files.writeString(tmp.resolve("history.psv"), out);
        StatsRun.Result j = StatsRun.run(Map.of(), "stats", "--input", export.toString(), "--all-users", "--json");
        assertThat(j.code()).as(j.err()).isZero();
        json = j.json();
        StatsRun.Result t = StatsRun.run(Map.of("COLUMNS", "80"), "stats", "--input", export.toString(), "--all-users");
        assertThat(t.code()).as(t.err()).isZero();
        text = t.out();
    }

    static void sameCounts(String where, JsonNode got, Count want) {
        for (String k : COUNTS) {
            assertThat(got.path(k).asLong()).as(where + " " + k).isEqualTo(want.get(k));
        }
        assertThat(got.path("wasted_gpu_hours").asDouble()).as(where + " wasted GPU-hours")
                .isCloseTo(want.wastedGpuS / 3600.0, within(1e-6));
        assertThat(got.path("wasted_cpu_hours").asDouble()).as(where + " wasted CPU-hours")
                .isCloseTo(want.wastedCpuS / 3600.0, within(1e-6));
    }

    static void sameGroups(String dim, Map<String, Count> want) {
        Map<String, JsonNode> got = new TreeMap<>();
        json.path("by_" + dim).forEach(b -> {
            if (b.path("jobs").asLong() > 0) {
                got.put(b.path("key").asText(), b);
            }
        });
        assertThat(got.keySet()).as(dim).isEqualTo(want.keySet());
        want.forEach((k, c) -> sameCounts(dim + " " + k, got.get(k), c));
    }

    @Test
    void everyJobCountsOnceWithItsLastOutcomeAndRunningOrPendingJobsAreNoFailures() {
        assertThat(json.path("records").asLong()).isPositive();
        assertThat(json.path("implausible_records").asLong()).as("the clock-change job is kept").isZero();
        sameCounts("total", json.path("total"), TOTAL);
        JsonNode t = json.path("total");
        long ended = t.path("completed").asLong() + t.path("failed").asLong() + t.path("cancelled").asLong()
                + t.path("preempted").asLong() + t.path("other").asLong();
        assertThat(t.path("ended").asLong()).isEqualTo(ended);
        assertThat(t.path("jobs").asLong()).isEqualTo(ended + TOTAL.get("pending") + TOTAL.get("running"));
        assertThat(t.path("failure_rate").asDouble()).isCloseTo((double) TOTAL.get("failed") / ended, within(1e-12));
    }

    @Test
    void earlierRunsOfARequeuedJobAreInterruptedHoursNotWasteNorJobs() {
        assertThat(json.path("total").path("interrupted_gpu_hours").asDouble())
                .isCloseTo(TOTAL.interruptedGpuS / 3600.0, within(1e-6));
        for (JsonNode p : json.path("by_partition")) {
            assertThat(p.path("interrupted_gpu_hours").asDouble()).as(p.path("key").asText())
                    .isCloseTo(BY_PARTITION.get(p.path("key").asText()).interruptedGpuS / 3600.0, within(1e-6));
        }
    }

    @Test
    void everyBreakdownMatchesTheHandCountAndAddsUpToTheTotal() {
        sameGroups("partition", BY_PARTITION);
        sameGroups("user", BY_USER);
        sameGroups("day", BY_DAY);
        JsonNode t = json.path("total");
        for (String dim : List.of("kind", "partition", "user", "day")) {
            double gpu = 0;
            double cpu = 0;
            double kwh = 0;
            long failed = 0;
            long jobs = 0;
            for (JsonNode b : json.path("by_" + dim)) {
                gpu += b.path("wasted_gpu_hours").asDouble();
                cpu += b.path("wasted_cpu_hours").asDouble();
                kwh += b.path("wasted_energy_kwh_estimated").asDouble();
                failed += b.path("failed").asLong();
                jobs += b.path("jobs").asLong();
            }
            assertThat(gpu).as(dim).isCloseTo(t.path("wasted_gpu_hours").asDouble(), within(1e-6));
            assertThat(cpu).as(dim).isCloseTo(t.path("wasted_cpu_hours").asDouble(), within(1e-6));
            assertThat(kwh).as(dim).isCloseTo(t.path("wasted_energy_kwh_estimated").asDouble(), within(1e-6));
            // a het job counts in each partition it has a component on, once everywhere else
            assertThat(failed).as(dim).isEqualTo(t.path("failed").asLong() + (dim.equals("partition") ? hetFailed : 0));
            if (!dim.equals("kind")) { // a kind row counts failed jobs only
                assertThat(jobs).as(dim).isEqualTo(t.path("jobs").asLong()
                        + (dim.equals("partition") ? hetAcrossPartitions : 0));
            }
        }
        for (JsonNode p : json.path("by_partition")) {
            long ended = p.path("ended").asLong();
            assertThat(p.path("failure_rate").asDouble()).as(p.path("key").asText())
                    .isCloseTo((double) p.path("failed").asLong() / ended, within(1e-12));
        }
    }

    @Test
    void recordKindsFollowTheStates() {
        Map<String, Long> kinds = new TreeMap<>();
        json.path("by_kind").forEach(k -> kinds.put(k.path("key").asText(), k.path("failed").asLong()));
        assertThat(kinds.get("time_limit")).isEqualTo(FAILED_BY_STATE.get("TIMEOUT"));
        assertThat(kinds.get("node_fail")).isEqualTo(FAILED_BY_STATE.get("NODE_FAIL"));
        assertThat(kinds.get("oom")).isEqualTo(FAILED_BY_STATE.get("OUT_OF_MEMORY") + FAILED_BY_STATE.get("COMPLETED*"));
    }

    @Test
    void thePanelFitsEightyColumnsAndSaysTheJsonsFiguresFirst() {
        for (String line : text.split("\n")) {
            assertThat(line.length()).as(line).isLessThanOrEqualTo(80);
        }
        String flat = text.replaceAll("\\s*\\n[│ ]\\s+", " ");
        JsonNode t = json.path("total");
        String n = "%,d";
        assertThat(flat).contains(String.format(Locale.ROOT, n + " ended: " + n + " completed, " + n + " failed, " + n
                        + " cancelled, " + n + " preempted · " + n + " pending, " + n + " running",
                t.path("ended").asLong(), t.path("completed").asLong(), t.path("failed").asLong(),
                t.path("cancelled").asLong(), t.path("preempted").asLong(), t.path("pending").asLong(),
                t.path("running").asLong()));
        assertThat(flat).contains(String.format(Locale.ROOT, "%d%% failure rate (%,d of %,d ended jobs",
                Math.round(100 * t.path("failure_rate").asDouble()), t.path("failed").asLong(), t.path("ended").asLong()));
        assertThat(flat).contains(String.format(Locale.ROOT, "%,.1f wasted GPU-hours", t.path("wasted_gpu_hours").asDouble()));
        assertThat(flat).contains(String.format(Locale.ROOT, "%,.1f CPU-hours of failed jobs", t.path("wasted_cpu_hours").asDouble()));
        int jobsLine = flat.indexOf(" ended: ");
        assertThat(jobsLine).as("the answer first: the jobs and failures before any table").isLessThan(flat.indexOf("By "));
    }
}
