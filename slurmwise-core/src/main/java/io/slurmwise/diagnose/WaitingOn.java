package io.slurmwise.diagnose;

import io.slurmwise.backend.BackendException;
import io.slurmwise.backend.JobQuery;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.job.JobId;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.SlurmTime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a pending job waits on, beyond its reason's meaning: the jobs of its dependency and their states, the user's
 * running jobs that hold a per-user limit. Best effort, like the patch step: the reason stands without them when the
 * batch script or accounting cannot say. Read-only lookups (sacct, scontrol write batch_script).
 */
final class WaitingOn {

    private final SlurmBackend backend;

    WaitingOn(SlurmBackend backend) {
        this.backend = backend;
    }

    /** The text that follows the reason's meaning ("; it depends on ...", "; your running jobs: ..."), or empty. */
    String of(JobRecord job, String reason) {
        return (reason.startsWith("Dependency") ? dependencies(job) : "")
                + (reason.equals("BeginTime") ? beginTime(job) : "")
                + (OWN_LIMIT.matcher(reason).find() ? ownRunningJobs(job) : "");
    }

    /**
     * The meaning of Reason=BeginTime when slurmctld, not the user, set the time: a job it requeued waits about two
     * minutes before it runs again (the real lab's 323: {@code Restarts=1}, EligibleTime 121 s after the requeue), which
     * read "its --begin time has not come yet" of a job given no --begin. Empty for every other case.
     */
    Optional<String> instead(JobRecord job, String reason) {
        if (!reason.equals("BeginTime")) {
            return Optional.empty();
        }
        return eligible(job).filter(io.slurmwise.backend.EligibleTime::requeued).map(e -> "SLURM requeued it (Restarts="
                + e.restarts() + ") and holds a requeued job back a while before it runs again; that is not a --begin of"
                + " yours: it starts no earlier than " + SlurmTime.iso(e.at()));
    }

    /** "; it starts no earlier than 2026-12-07T16:53:14" of a job waiting for its own --begin time. */
    private String beginTime(JobRecord job) {
        return eligible(job).filter(e -> !e.requeued()).map(e -> "; it starts no earlier than " + SlurmTime.iso(e.at()))
                .orElse("");
    }

    private Optional<io.slurmwise.backend.EligibleTime> eligible(JobRecord job) {
        try {
            return backend.eligibleTime(job);
        } catch (RuntimeException e) {
            return Optional.empty(); // best effort: the reason stands without it
        }
    }

    /** A pending reason of a per-user limit: the user's own running jobs hold it, and it starts as they end. */
    private static final Pattern OWN_LIMIT = Pattern.compile("PerUser(Limit)?$");
    /** The running jobs named, the soonest to end first. */
    private static final int MAX_HOLDERS = 3;

    /**
     * "; your running jobs: 1058 (8 GPU h100, gpuH100x8, at most 05:04:11 left)", the user's running jobs by the time
     * their limits leave them, soonest first: what must end before a job waiting on a per-user limit starts (1059
     * waited on QOSMaxGRESPerUser behind 1058's eight H100s; an outside audit). Empty when accounting cannot say.
     */
    private String ownRunningJobs(JobRecord job) {
        if (job.user() == null || job.submit() == null) {
            return "";
        }
        List<JobRecord> running;
        try (var jobs = backend.jobs(JobQuery.window(job.submit(), null)
                .withStates(Set.of(JobState.RUNNING)).withUser(job.user()))) {
            running = jobs.filter(j -> j.state() == JobState.RUNNING && job.user().equals(j.user())
                    && !j.id().equals(job.id())).toList();
        } catch (RuntimeException e) {
            return ""; // best effort, as the dependency's state: the reason stands without it
        }
        if (running.isEmpty()) {
            return "";
        }
        Comparator<JobRecord> soonest = Comparator.comparing(
                (JobRecord j) -> left(j).orElse(Duration.ofDays(100_000)));
        List<String> named = running.stream().sorted(soonest).limit(MAX_HOLDERS).map(j -> j.id() + " ("
                + (j.gpus() > 0 ? j.gpus() + " GPU" + j.gpuModel().map(g -> " " + g).orElse("") : j.cpus() + " CPU")
                + (j.partition() == null ? "" : ", " + j.partition())
                + left(j).map(d -> ", at most " + SlurmTime.format(d) + " left").orElse("") + ")").toList();
        return "; your running jobs: " + String.join(", ", named)
                + (running.size() > MAX_HOLDERS ? " and " + (running.size() - MAX_HOLDERS) + " more" : "");
    }

    /** What a running job's time limit leaves it, when both are known. */
    private static Optional<Duration> left(JobRecord j) {
        return j.timeLimit().limit().filter(l -> j.elapsed() != null).map(l -> l.minus(j.elapsed()))
                .filter(d -> !d.isNegative());
    }

    /** {@code --dependency=afterok:1051} of the batch script: the jobs waited on and their states. */
    private static final Pattern DEPENDENCY =
            Pattern.compile("(?m)^#SBATCH\\s+(?:--dependency[= ]|-d\\s*)(\\S+)");

    /**
     * "; it depends on job 1051 (afterok), which is RUNNING", from the dependency slurmctld holds (which covers
     * {@code sbatch -d} on the command line; the real lab's 269 named none), else the batch script's, and the jobs'
     * records; empty when neither says (best effort, as the patch step).
     */
    private String dependencies(JobRecord job) {
        Optional<String> held;
        try {
            held = backend.dependency(job);
        } catch (BackendException e) {
            held = Optional.empty();
        }
        String spec;
        if (held.isPresent()) {
            spec = held.get();
        } else {
            Optional<String> script;
            try {
                script = backend.batchScript(job);
            } catch (BackendException e) {
                return "";
            }
            Matcher m = DEPENDENCY.matcher(script.orElse(""));
            if (!m.find()) {
                return "";
            }
            spec = m.group(1);
        }
        List<String> parts = new ArrayList<>();
        for (String cond : spec.split("[,?]")) {
            String[] typeIds = cond.split(":");
            for (int i = 1; i < typeIds.length; i++) {
                String id = typeIds[i].replaceAll("\\(.*$", "").replaceAll("\\+\\d+$", "");
                String state;
                try {
                    state = backend.job(JobId.parse(id)).map(r -> "which is " + r.status()).orElse("which accounting does not know");
                } catch (RuntimeException e) {
                    continue; // not a job id (singleton, a malformed value): nothing to look up
                }
                parts.add("job " + id + " (" + typeIds[0] + "), " + state);
            }
        }
        return parts.isEmpty() ? "" : "; it depends on " + String.join("; ", parts);
    }
}
