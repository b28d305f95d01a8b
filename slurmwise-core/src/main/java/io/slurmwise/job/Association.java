package io.slurmwise.job;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A user's association with an account (and maybe one partition) and the QOSes it may use, as {@code sacctmgr -n -P
 * show assoc where user=<user> format=Account,User,Partition,QOS} prints it ({@code research|slurmtest||normal,short}).
 * slurmctld refuses a job whose {@code --qos} its association does not list ({@code Invalid qos specification}), so
 * advice that names a QOS the user cannot use sends them to a refusal.
 *
 * @param account   the account
 * @param user      the user
 * @param partition the partition the association is for; "" for every partition
 * @param qos       the QOSes it may use, lower case; empty when sacctmgr printed none (not known here)
 */
public record Association(String account, String user, String partition, Set<String> qos) {

    /** The columns the backends ask sacctmgr for, in this order. */
    public static final String FORMAT = "Account,User,Partition,QOS";

    public Association {
        partition = partition == null ? "" : partition;
        qos = Set.copyOf(qos);
    }

    /**
     * The associations of {@link #FORMAT} output; a header line (without {@code -n}) is skipped.
     *
     * @throws IllegalArgumentException naming the first line that is no such row (the wrong number of columns, an
     *                                  account or QOS name with spaces or control characters), so a cut or foreign
     *                                  answer is not taken for the user's QOSes
     */
    public static List<Association> parse(String text) {
        return List.copyOf(PipeTable.rows(text, FORMAT, "association", f -> {
            if (!PipeTable.name(f[0]) || f[0].isBlank() || !PipeTable.name(f[1]) || !PipeTable.name(f[2])
                    || !Arrays.stream(f[3].split(",", -1)).allMatch(PipeTable::name)) {
                return null;
            }
            Set<String> qos = Arrays.stream(f[3].split(",")).map(q -> q.strip().toLowerCase(Locale.ROOT))
                    .filter(q -> !q.isEmpty()).collect(Collectors.toSet());
            return new Association(f[0].strip(), f[1].strip(), f[2].strip(), qos);
        }));
    }

    /**
     * The QOSes {@code user} may use with {@code account} on {@code partition}: the union of the rows for that user and
     * account that are for every partition or for that one, sorted. Empty when no row matches or a matching row
     * lists no QOS (then nothing is known to be refused).
     */
    public static Optional<Set<String>> allowedQos(List<Association> rows, String user, String account,
                                                   String partition) {
        if (user == null || account == null || rows.isEmpty()) {
            return Optional.empty();
        }
        java.util.SortedSet<String> out = new TreeSet<>();
        boolean any = false;
        for (Association a : rows) {
            if (!a.user().equals(user) || !a.account().equalsIgnoreCase(account)
                    || !(a.partition().isEmpty() || a.partition().equals(partition))) {
                continue;
            }
            if (a.qos().isEmpty()) {
                return Optional.empty();
            }
            any = true;
            out.addAll(a.qos());
        }
        return any ? Optional.<Set<String>>of(java.util.Collections.unmodifiableSortedSet(out)) : Optional.empty();
    }
}
