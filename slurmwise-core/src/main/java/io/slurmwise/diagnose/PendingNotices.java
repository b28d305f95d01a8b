package io.slurmwise.diagnose;

import io.slurmwise.backend.BackendException;
import io.slurmwise.backend.SlurmBackend;
import io.slurmwise.job.AccountUsage;
import io.slurmwise.job.Association;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.JobState;
import io.slurmwise.job.Partition;
import io.slurmwise.job.Reservation;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.job.TimeLimit;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * What holds a pending job beyond its reason, said under it (its {@link PendingInfo#notices()}), in this order: its
 * account's spent allocation, the partition DefaultTime it runs for when it asks no --time, and the maintenance window
 * it waits for. Each asks the backend only when the job calls for it (the account's usage and the user's associations
 * only for a job that may be held by them, the reservations only for a reason that names maintenance), and each is
 * best effort: nothing, or where to read it, when the backend cannot say.
 */
final class PendingNotices {

    /** A pending reason that names a maintenance reservation: {@code ReqNodeNotAvail, Reserved for maintenance}. */
    private static final Pattern MAINTENANCE = Pattern.compile("(?i)Reserved[ _]for[ _]maintenance");

    /** Said when the maintenance window cannot be read or none is listed ahead. */
    private static final String WINDOW_UNREAD = "`scontrol show reservation` shows the maintenance window's times";

    private final SlurmBackend backend;

    PendingNotices(SlurmBackend backend) {
        this.backend = Objects.requireNonNull(backend, "backend");
    }

    /**
     * The notices of a pending job, in the order they are shown.
     *
     * @param partitions   the cluster's partitions, as read for the job's advice (the DefaultTime is theirs)
     * @param associations the job's user's associations, asked only if the spent-allocation notice needs them
     * @param notices      the diagnosis's notices, where a backend that cannot list reservations says why
     */
    List<String> of(JobRecord job, String reason, List<Partition> partitions, Supplier<List<Association>> associations,
                    List<String> notices) {
        List<String> held = new ArrayList<>();
        // its account's spent allocation holds it next, whatever its reason now (1056's patch, under climate-model's
        // used-up minutes, would wait again; an outside audit), unless the reason already says so
        if (!(reason.startsWith("AssocGrp") && reason.contains("Minutes"))) {
            spentAllocation(job, associations).ifPresent(held::add);
        }
        defaultTime(job, partitions).ifPresent(held::add);
        // a maintenance window it waits for is named with its times: when the job starts, and the longest --time
        // that starts now; without the window, where to read it (the reason's meaning says neither, so the
        // Waiting line does not point to a command above the note that gives the times)
        if (MAINTENANCE.matcher(reason).find()) {
            maintenance(job, notices).ifPresent(held::add);
        }
        return held;
    }

    /**
     * What a rerun of the job meets when its account has used its allocation: it waits, whatever the fix (bob's 1016 was
     * moved to partition long while his account genomics had no billing minutes left; an outside audit). Best effort:
     * nothing when the backend cannot say. A failed job's diagnosis says it too, of its rerun.
     */
    Optional<String> spentAllocation(JobRecord job, Supplier<List<Association>> associations) {
        if (job.account() == null || job.account().isBlank()) {
            return Optional.empty();
        }
        Optional<AccountUsage> usage;
        try {
            usage = backend.accountUsage(job.account());
        } catch (BackendException e) {
            return Optional.empty();
        }
        return usage.flatMap(u -> u.describeSpent().map(d -> d + ": a " + (job.state() == JobState.PENDING
                ? "job" : "rerun") + " under it waits (" + u.pendingReason().orElse("") + ") until it is raised or"
                + " renewed" + otherAccounts(job, associations.get())));
    }

    /**
     * Where else the job's user may run, from their associations: another account named, or that there is none (an
     * outside audit: users with one account were told to use "another account of yours").
     */
    private static String otherAccounts(JobRecord job, List<Association> mine) {
        if (mine.isEmpty()) {
            return ", or runs under another account of yours (`#SBATCH --account=<account>`)";
        }
        List<String> others = mine.stream().filter(a -> job.user().equals(a.user()))
                .map(Association::account)
                .filter(a -> !a.equals(job.account())).distinct().sorted().toList();
        return others.isEmpty() ? "; " + job.user() + " has no other account (sacctmgr show assoc), so ask the account's"
                + " PI or your allocation office"
                : ", or runs under another account of yours (`#SBATCH --account=" + others.get(0) + "`; "
                + String.join(", ", others) + ")";
    }

    /** Whether the job asks no --time, so that its partition's DefaultTime is its limit (its partitions are read). */
    static boolean asksNoTime(JobRecord job) {
        return job.timeLimit().kind() == TimeLimit.Kind.PARTITION_LIMIT;
    }

    /**
     * A job that asks no --time runs for its partition's DefaultTime: said with the value (an outside audit: 1060, 128
     * ranks of OpenFOAM, read only "asks the default time", and would be ended at one hour). Nothing when the job asks
     * a time, or its partition or the partition's DefaultTime is not known.
     */
    Optional<String> defaultTime(JobRecord job, List<Partition> partitions) {
        if (!asksNoTime(job)) {
            return Optional.empty();
        }
        return new JobAdviceFacts(job, partitions).partition().filter(p -> p.defaultTime().limit().isPresent())
                .map(p -> "it asks no --time, so partition " + p.name() + "'s DefaultTime, "
                        + p.defaultTime().human() + ", is its limit: a longer run is ended then; set `#SBATCH"
                        + " --time=` to what the run needs (MaxTime " + p.maxTime().human() + ")");
    }

    /**
     * The maintenance window a pending job waits for, in words: its name, nodes and times, when the job starts, and
     * the longest --time that would start it now (the window on its partition first, else the soonest); where to read
     * it when the cluster lists none ahead, or cannot be asked (a notice then says why). The caller asks it only for
     * a reason that names maintenance ({@link #MAINTENANCE}).
     */
    private Optional<String> maintenance(JobRecord job, List<String> notices) {
        List<Reservation> rs;
        try {
            rs = backend.reservations();
        } catch (BackendException e) {
            notices.add("reservations: " + e.getMessage());
            return Optional.of(WINDOW_UNREAD);
        }
        LocalDateTime now = LocalDateTime.now();
        List<Reservation> ahead = rs.stream().filter(r -> r.maintenance() && r.endsAfter(now)).toList();
        Optional<Reservation> w = ahead.stream()
                .filter(r -> job.partition() != null && r.partition().equals(job.partition())).findFirst()
                .or(() -> Reservation.nextMaintenance(ahead, now));
        if (w.isEmpty()) {
            return Optional.of(WINDOW_UNREAD);
        }
        Reservation r = w.get();
        Duration left = r.timeUntilStart(now).truncatedTo(ChronoUnit.MINUTES);
        return Optional.of(r.describe() + (left.isZero() ? " is on now: the job starts after it ends."
                : ": the job starts after it ends, or now with `#SBATCH --time=` at most " + SlurmTime.format(left)
                + " (until the window starts) if the run fits in that."));
    }
}
