package io.slurmwise.job;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A quality of service and the limit of it that advice needs, as {@code sacctmgr -n -P show qos
 * format=Name,MaxWall,Preempt} prints it ({@code normal|2-00:00:00|}, {@code gpu|1-00:00:00|scavenger},
 * {@code long||}). A job's QOS caps its time on every partition: slurmctld refuses or holds a job whose --time is over
 * its QOS's MaxWall ({@code QOSMaxWallDurationPerJobLimit}), whatever the partition's MaxTime allows.
 *
 * @param maxWall  its MaxWall per job ({@code UNLIMITED} when the column is empty)
 * @param preempts the QOSes its jobs may preempt (its {@code Preempt} column)
 */
public record Qos(String name, TimeLimit maxWall, Set<String> preempts) {

    /** The format the backends read: the columns {@link #parse} expects, in this order. */
    public static final String FORMAT = "Name,MaxWall,Preempt";

    public Qos {
        preempts = Set.copyOf(preempts);
    }

    /** Its MaxWall when it has one (empty when unlimited). */
    public Optional<Duration> maxWallLimit() {
        return maxWall.kind() == TimeLimit.Kind.LIMITED ? maxWall.limit() : Optional.empty();
    }

    /** Whether its MaxWall allows a run of {@code need}. */
    public boolean allows(Duration need) {
        return maxWall.kind() == TimeLimit.Kind.UNLIMITED || maxWall.limit().map(m -> m.compareTo(need) >= 0).orElse(false);
    }

    /** {@code time 1-12:00:00 (QOS gpu MaxWall 1-00:00:00)} when its MaxWall does not allow a run of {@code need}. */
    public Optional<String> tooShortFor(Duration need) {
        return allows(need) ? Optional.empty()
                : Optional.of("time " + SlurmTime.format(need) + " (QOS " + name + " MaxWall " + maxWall + ")");
    }

    /** How advice names it: {@code long (no MaxWall)}, {@code normal (MaxWall 2-00:00:00)}. */
    public String describe() {
        return name + (maxWallLimit().isEmpty() ? " (no MaxWall)" : " (MaxWall " + maxWall + ")");
    }

    /**
     * The QOSes of {@code sacctmgr -n -P show qos format=Name,MaxWall,Preempt} output; a header line (without
     * {@code -n}) is skipped.
     *
     * @throws IllegalArgumentException naming the first line that is no such row (the wrong number of columns, a
     *                                  MaxWall that is no time), so a cut or foreign answer is not taken for the QOSes
     */
    public static List<Qos> parse(String text) {
        return List.copyOf(PipeTable.rows(text, FORMAT, "QOS", f -> {
            String name = f[0].strip();
            TimeLimit wall = f[1].isBlank() ? new TimeLimit(TimeLimit.Kind.UNLIMITED, null) : TimeLimit.parse(f[1]);
            if (name.isEmpty() || !PipeTable.name(name) || wall.kind() == TimeLimit.Kind.UNKNOWN
                    || wall.kind() == TimeLimit.Kind.PARTITION_LIMIT) {
                return null;
            }
            Set<String> preempts = f[2].isBlank() ? Set.of() : Arrays.stream(f[2].split(","))
                    .map(String::strip).filter(s -> !s.isEmpty()).collect(Collectors.toSet());
            return new Qos(name, wall, preempts);
        }));
    }

    /**
     * The QOS table read once, when first asked (it is one question to slurmdbd, and most diagnoses never need it);
     * a null answer is an empty table.
     */
    public static java.util.function.Supplier<List<Qos>> once(java.util.function.Supplier<List<Qos>> read) {
        return io.slurmwise.backend.Lazy.of(() -> {
            List<Qos> q = read.get();
            return q == null ? List.<Qos>of() : List.copyOf(q);
        });
    }

    /** The QOS named {@code name} (as sacct records a job's, any case), if listed. */
    public static Optional<Qos> named(List<Qos> qos, String name) {
        if (name == null || name.isBlank()) {
            return Optional.empty();
        }
        String want = name.strip().toLowerCase(Locale.ROOT);
        return qos.stream().filter(q -> q.name().toLowerCase(Locale.ROOT).equals(want)).findFirst();
    }

    /**
     * The QOS whose MaxWall caps a job's time on partition {@code p}: the partition's own QOS when the table lists it
     * with a MaxWall (slurmctld takes a partition QOS's limits before the job QOS's: SLURM's resource_limits
     * documentation, "Partition QOS"), else the job's QOS. A job QOS with the {@code OverPartQOS} flag would come
     * first; the flag is not read.
     */
    public static Optional<Qos> timeCap(java.util.function.Supplier<List<Qos>> table, Optional<Qos> job, Partition p) {
        Optional<Qos> own = ownOf(table, p);
        return own.isPresent() ? own : job;
    }

    /**
     * Partition {@code p}'s own QOS when the table lists it with a MaxWall (a QOS without one caps no time); the table
     * is read only for a partition that has an own QOS.
     */
    public static Optional<Qos> ownOf(java.util.function.Supplier<List<Qos>> table, Partition p) {
        return p == null || p.qos().isEmpty() ? Optional.empty()
                : named(table.get(), p.qos()).filter(q -> q.maxWallLimit().isPresent());
    }

    /** Whether partition {@code p}'s own QOS, if it has one, allows a run of {@code need}: a partition to move to must. */
    public static boolean ownAllows(java.util.function.Supplier<List<Qos>> table, Partition p, Duration need) {
        return ownOf(table, p).map(q -> q.allows(need)).orElse(true);
    }

    /** Whether {@code q} is partition {@code p}'s own QOS. */
    public static boolean isOwnQos(Qos q, Partition p) {
        return p != null && q.name().equalsIgnoreCase(p.qos());
    }

    /**
     * The QOSes whose jobs may preempt a job under QOS {@code name} (those whose {@code Preempt} column lists it),
     * sorted; empty when none does or the table is unknown.
     */
    public static List<String> preemptorsOf(List<Qos> qos, String name) {
        return name == null ? List.of() : qos.stream()
                .filter(q -> q.preempts().stream().anyMatch(p -> p.equalsIgnoreCase(name)))
                .map(Qos::name).sorted().toList();
    }

    /**
     * The QOSes that allow {@code need} for a job to move to, shortest MaxWall first: not one that others preempt (a
     * scavenger QOS would trade a time limit for a preemption), nor {@code besides} (the job's own).
     */
    public static List<Qos> allowing(List<Qos> qos, Duration need, String besides) {
        Set<String> preempted = qos.stream().flatMap(q -> q.preempts().stream())
                .map(s -> s.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        return qos.stream()
                .filter(q -> q.allows(need) && !preempted.contains(q.name().toLowerCase(Locale.ROOT))
                        && !q.name().equalsIgnoreCase(besides))
                .sorted(java.util.Comparator.comparing((Qos q) -> q.maxWallLimit().orElse(Duration.ofDays(365_000)))
                        .thenComparing(Qos::name))
                .toList();
    }

    /**
     * The QOS of {@link #allowing} named like {@code partition}: a site's QOS for its partition, the one a patch may
     * name (any other QOS may be closed to the partition or the account, which only the site knows).
     */
    public static Optional<Qos> forPartition(List<Qos> qos, Duration need, String partition, String besides) {
        return allowing(qos, need, besides).stream().filter(q -> q.name().equalsIgnoreCase(partition)).findFirst();
    }
}
