package io.slurmwise.backend.real;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The real SLURM cluster of scripts/slurm-lab (setup.sh + scenarios.sh), as the integration tests see it: the
 * scenario manifest, what SLURM recorded, the lab facts, and the daemon switch. {@link #require()} FAILS (never
 * skips) when the cluster or the manifest is missing, so a green integration run means the cluster was really
 * there.
 */
public final class LabCluster {

    /** One submitted scenario: its job id, the first word of its final state and the failure kind it shows. */
    public record Scenario(String name, String jobId, String expectedState, String expectedKind, Path workDir,
                           String observedState, String observedExitCode, String observedNodeList,
                           String observedReason) {

        public boolean pending() {
            return expectedState.equals("PENDING");
        }

        /**
         * Whether the record of id {@code recordId} is this scenario's job: its own, or for a task still waiting in its
         * pending array (pending_array_task, 53_2) the array's one row that holds it (53_[1-3]).
         */
        public boolean names(String recordId) {
            if (recordId.equals(jobId)) {
                return true;
            }
            io.slurmwise.job.JobId task = io.slurmwise.job.JobId.parse(jobId);
            io.slurmwise.job.JobId record = io.slurmwise.job.JobId.parse(recordId);
            return pending() && task.isArrayTask() && record.arrayJobId() == task.arrayJobId()
                    && record.coversTask(task.arrayTask());
        }

        /** A slurmctld restart rewrites remembered TIMEOUT/CANCELLED rows from 0:0 to 0:15 (lab README). */
        public List<String> acceptableExitCodes() {
            return expectedState.equals("TIMEOUT") || expectedState.equals("CANCELLED")
                    ? List.of(observedExitCode, "0:15") : List.of(observedExitCode);
        }
    }

    private final Path state;
    private final Map<String, String> env;
    private final List<Scenario> scenarios;

    private LabCluster(Path state, Map<String, String> env, List<Scenario> scenarios) {
        this.state = state;
        this.env = env;
        this.scenarios = scenarios;
    }

    public static Path stateDir() {
        String s = System.getenv("LAB_STATE");
        return Path.of(s == null || s.isBlank() ? "/var/tmp/slurmwise-lab" : s);
    }

    /** The repository's scripts/slurm-lab, from any module's test working directory. */
    public static Path scripts() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("scripts/slurm-lab"))) {
            p = p.getParent();
        }
        if (p == null) {
            fail("scripts/slurm-lab not found above " + Path.of("").toAbsolutePath());
        }
        return p.resolve("scripts/slurm-lab");
    }

    /** Loads the lab; fails the test with what to run when the cluster is not up. */
    public static LabCluster require() {
        Path state = stateDir();
        Path manifest = state.resolve("scenarios.tsv");
        Path observed = state.resolve("observed.tsv");
        Path labEnv = state.resolve("lab.env");
        String todo = " Start the lab first: sudo scripts/slurm-lab/setup.sh && sudo scripts/slurm-lab/scenarios.sh"
                + " (the integration profile needs the real cluster; it does not skip).";
        for (Path p : List.of(manifest, observed, labEnv)) {
            if (!Files.isRegularFile(p)) {
                fail(p + " is missing." + todo);
            }
        }
        Map<String, String> env = readEnv(labEnv);
        Map<String, String[]> seen = new LinkedHashMap<>();
        for (String[] r : tsv(observed)) {
            seen.put(r[1], r);
        }
        List<Scenario> list = new ArrayList<>();
        for (String[] r : tsv(manifest)) {
            String[] o = seen.get(r[1]);
            if (o == null) {
                fail("scenario " + r[0] + " (job " + r[1] + ") is in " + manifest + " but not in " + observed + "." + todo);
            }
            list.add(new Scenario(r[0], r[1], r[2], r[3], Path.of(r[4]), o[2], o[3], o[4], o[5]));
        }
        if (list.size() < 10) {
            fail(manifest + " lists only " + list.size() + " scenarios." + todo);
        }
        CommandOutput ping = run(20, "scontrol", "ping");
        if (ping.rc != 0 || !ping.out.contains("UP")) {
            fail("slurmctld does not answer `scontrol ping` (" + ping.out.strip() + ")." + todo);
        }
        CommandOutput sacct = run(20, "sacct", "-X", "-n", "-j", list.get(0).jobId(), "-o", "JobID");
        if (sacct.rc != 0 || sacct.out.isBlank()) {
            fail("sacct does not know job " + list.get(0).jobId() + " (" + sacct.out.strip() + ")." + todo);
        }
        return new LabCluster(state, env, List.copyOf(list));
    }

    public List<Scenario> scenarios() {
        return scenarios;
    }

    public Scenario scenario(String name) {
        return scenarios.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no scenario " + name + " in the manifest"));
    }

    /** A fact of lab.env: MODE, NODE, SLURM_VERSION, MIN_JOB_AGE, TEST_USER... */
    public String fact(String key) {
        String v = env.get(key);
        if (v == null) {
            fail(state.resolve("lab.env") + " has no " + key + ": rerun setup.sh");
        }
        return v;
    }

    /** Stops or starts one daemon with daemon-ctl.sh (root only); returns how long it took. */
    public static Duration daemon(String action, String name) {
        long t0 = System.nanoTime();
        CommandOutput r = run(180, "bash", scripts().resolve("daemon-ctl.sh").toString(), action, name);
        if (r.rc != 0) {
            fail("daemon-ctl.sh " + action + " " + name + " failed (rc " + r.rc + "): " + r.out);
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    private static Map<String, String> readEnv(Path p) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : lines(p)) {
            int eq = line.indexOf('=');
            if (line.startsWith("#") || eq <= 0) {
                continue;
            }
            m.put(line.substring(0, eq), line.substring(eq + 1).replace("'", ""));
        }
        return m;
    }

    private static List<String[]> tsv(Path p) {
        List<String[]> rows = new ArrayList<>();
        List<String> all = lines(p);
        for (String line : all.subList(1, all.size())) {
            if (!line.isBlank()) {
                rows.add(line.split("\t", -1));
            }
        }
        return rows;
    }

    private static List<String> lines(Path p) {
        try {
            return Files.readAllLines(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    record CommandOutput(int rc, String out) {
    }

    /** Test-side helper (the lab's own tools); slurmwise's code never starts processes this way. */
    static CommandOutput run(int timeoutSeconds, String... cmd) {
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            // scripts/ci/allowlist-shims.sh tells the harness's own SLURM calls (scontrol ping, daemon restarts)
            // from slurmwise's by this mark
            pb.environment().put("SLURMWISE_TEST_HARNESS", "LabCluster");
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new CommandOutput(-1, "timed out after " + timeoutSeconds + " s");
            }
            return new CommandOutput(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new CommandOutput(-1, String.join(" ", cmd) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new CommandOutput(-1, "interrupted");
        }
    }
}
