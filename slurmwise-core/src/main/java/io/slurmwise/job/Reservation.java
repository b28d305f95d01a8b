package io.slurmwise.job;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A reservation of nodes, as {@code scontrol show reservation} prints it: a maintenance window ({@code Flags=MAINT})
 * holds its nodes from its start, so a pending job whose --time would run into it waits
 * ({@code ReqNodeNotAvail, Reserved for maintenance}) until it ends, or starts now with a --time that ends before it.
 *
 * <pre>{@code
 * List<Reservation> r = Reservation.parse(scontrolShowReservation);
 * r.get(0).maintenance();            // true for Flags=MAINT,...
 * r.get(0).timeUntilStart(now);      // how long a job may run that starts now
 * }</pre>
 *
 * @param name      its {@code ReservationName}
 * @param start     its {@code StartTime} in the cluster's local time
 * @param end       its {@code EndTime}
 * @param nodes     its {@code Nodes} as SLURM writes them ({@code cn[001-064]}); empty when none
 * @param partition its {@code PartitionName}; empty when none
 * @param flags     its {@code Flags}, upper case
 */
public record Reservation(String name, LocalDateTime start, LocalDateTime end, String nodes, String partition,
                          Set<String> flags) {

    /** The fields a reservation's block holds, each {@code Name=value}. */
    private static final Pattern FIELD = Pattern.compile("(?:^|\\s)(ReservationName|StartTime|EndTime|Nodes|PartitionName"
            + "|Flags)=(\\S*)");

    public Reservation {
        nodes = nodes == null ? "" : nodes;
        partition = partition == null ? "" : partition;
        flags = Set.copyOf(flags);
    }

    /** Whether it is a maintenance window (Flags=MAINT). */
    public boolean maintenance() {
        return flags.contains("MAINT");
    }

    /** Whether it has not ended at {@code now}. */
    public boolean endsAfter(LocalDateTime now) {
        return end.isAfter(now);
    }

    /** The time from {@code now} until it starts: the longest run that starts now and ends before it (zero once on). */
    public Duration timeUntilStart(LocalDateTime now) {
        Duration d = Duration.between(now, start);
        return d.isNegative() ? Duration.ZERO : d;
    }

    /**
     * The reservations of {@code scontrol show reservation}'s answer, in its order; none for "No reservations in the
     * system" or an empty answer. A block without a name or a readable start and end is refused, naming it.
     *
     * @throws IllegalArgumentException when a block cannot be read
     */
    public static List<Reservation> parse(String scontrolShowReservation) {
        List<Reservation> out = new ArrayList<>();
        if (scontrolShowReservation == null) {
            return out;
        }
        String name = null;
        String start = null;
        String end = null;
        String nodes = null;
        String partition = null;
        String flags = null;
        Matcher m = FIELD.matcher(scontrolShowReservation);
        while (m.find()) {
            String value = m.group(2);
            switch (m.group(1)) {
                case "ReservationName" -> {
                    if (name != null) {
                        out.add(of(name, start, end, nodes, partition, flags));
                    }
                    name = value;
                    start = end = nodes = partition = flags = null;
                }
                case "StartTime" -> start = value;
                case "EndTime" -> end = value;
                case "Nodes" -> nodes = value;
                case "PartitionName" -> partition = value;
                default -> flags = value;
            }
        }
        if (name != null) {
            out.add(of(name, start, end, nodes, partition, flags));
        }
        return out;
    }

    private static Reservation of(String name, String start, String end, String nodes, String partition, String flags) {
        if (name.isEmpty() || start == null || end == null) {
            throw new IllegalArgumentException("reservation '" + name + "' has no StartTime or EndTime");
        }
        try {
            return new Reservation(name, LocalDateTime.parse(start), LocalDateTime.parse(end), none(nodes),
                    none(partition), flags == null || none(flags).isEmpty() ? Set.of()
                    : Arrays.stream(flags.split(",")).map(f -> f.strip().toUpperCase(Locale.ROOT))
                    .filter(f -> !f.isEmpty()).collect(Collectors.toSet()));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("reservation '" + name + "' has a StartTime or EndTime that is no date ("
                    + start + ", " + end + ")");
        }
    }

    /** SLURM's words for no value, as none. */
    private static String none(String v) {
        return v == null || v.equals("(null)") || v.equalsIgnoreCase("none") ? "" : v;
    }

    /** The same reservation moved by {@code d} (a replayed cluster's clock). */
    public Reservation shifted(Duration d) {
        return new Reservation(name, start.plus(d), end.plus(d), nodes, partition, flags);
    }

    /**
     * How advice names it: {@code maintenance reservation maint_dec (cn[001-064]) from 2026-12-01 06:00 to 2026-12-01
     * 18:00}.
     */
    public String describe() {
        String day = start.toLocalDate().toString();
        String from = day + " " + String.format(Locale.ROOT, "%02d:%02d", start.getHour(), start.getMinute());
        String to = end.toLocalDate() + " " + String.format(Locale.ROOT, "%02d:%02d", end.getHour(), end.getMinute());
        return (maintenance() ? "maintenance reservation " : "reservation ") + name
                + (nodes.isEmpty() ? "" : " (" + nodes + ")") + " from " + from + " to " + to;
    }

    /** The first maintenance window of {@code rs} not over at {@code now}, soonest first. */
    public static Optional<Reservation> nextMaintenance(List<Reservation> rs, LocalDateTime now) {
        return rs.stream().filter(r -> r.maintenance() && r.endsAfter(now))
                .min(java.util.Comparator.comparing(Reservation::start));
    }
}
