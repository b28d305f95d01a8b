package io.slurmwise.job;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An account's allocation and what it has used of it, as {@code sshare -n -P -A <account> -o
 * Account,User,GrpTRESMins,GrpTRESRaw,TRESRunMins} prints its row ({@code genomics||billing=1000000|cpu=990000,
 * mem=...,billing=1000250|cpu=0,billing=0}): the TRES-minute limits set on the account ({@code GrpTRESMins}), the
 * minutes its jobs have used ({@code GrpTRESRaw}, SLURM's usage with any decay the site configured) and the minutes its
 * running jobs still hold ({@code TRESRunMins}). slurmctld starts no new job of the account once used and held minutes
 * reach a limit: the job waits with {@code AssocGrpCPUMinutesLimit}, {@code AssocGrpBillingMinutes} and the like
 * until the allocation is raised or renewed.
 *
 * @param account the account
 * @param limits  its GrpTRESMins by TRES name ({@code billing}, {@code cpu}, {@code gres/gpu}); empty when unlimited
 * @param used    its GrpTRESRaw, minutes by TRES name
 * @param running its TRESRunMins, minutes by TRES name
 */
public record AccountUsage(String account, Map<String, Long> limits, Map<String, Long> used, Map<String, Long> running) {

    /** The columns the backends ask sshare for, in this order. */
    public static final String FORMAT = "Account,User,GrpTRESMins,GrpTRESRaw,TRESRunMins";

    public AccountUsage {
        limits = Map.copyOf(limits);
        used = Map.copyOf(used);
        running = Map.copyOf(running);
    }

    /**
     * The TRES whose limit the account's used and held minutes have reached ({@code billing}), the first in the limits'
     * order by name; empty while every limit has minutes left.
     */
    public Optional<String> spent() {
        return limits.keySet().stream().sorted()
                .filter(t -> used.getOrDefault(t, 0L) + running.getOrDefault(t, 0L) >= limits.get(t))
                .findFirst();
    }

    /**
     * How advice says the spent limit a job waiting with {@code reason} waits on: the spent TRES that reason names
     * ({@code AssocGrpGRESMinutes}: a {@code gres/} one) first; when the reason names none of the spent ones, the
     * first spent one, and that the reason names another limit (1054 waited on GPU minutes and was told of billing
     * minutes as if they were its reason; an outside audit).
     */
    public Optional<String> describeSpent(String reason) {
        if (reason == null || reason.isBlank()) {
            return describeSpent();
        }
        String r = reason.strip();
        Optional<String> named = limits.keySet().stream().sorted()
                .filter(t -> used.getOrDefault(t, 0L) + running.getOrDefault(t, 0L) >= limits.get(t))
                .filter(t -> r.startsWith(reasonOf(t))).findFirst();
        if (named.isPresent()) {
            return Optional.of(describe(named.get()));
        }
        return describeSpent().map(d -> d + "; " + r + " names another limit, which sshare shows no GrpTRESMins for"
                + " (`sacctmgr show assoc where account=" + account + " format=Account,User,GrpTRESMins` may)");
    }

    /**
     * How advice says it: {@code account genomics has used its allocation (billing 1,000,250 of 1,000,000 minutes,
     * GrpTRESMins)}; empty while it has minutes left.
     */
    public Optional<String> describeSpent() {
        return spent().map(this::describe);
    }

    private String describe(String t) {
        return limits.get(t) == 0 ? "account " + account + " has no allocation of " + t
                + " (GrpTRESMins " + t + "=0)" : "account " + account + " has used its allocation (" + t + " "
                + String.format(Locale.ROOT, "%,d", used.getOrDefault(t, 0L) + running.getOrDefault(t, 0L)) + " of "
                + String.format(Locale.ROOT, "%,d", limits.get(t)) + " minutes, GrpTRESMins)";
    }

    /** The reason a job of the spent account waits with: {@code AssocGrpBillingMinutes}, {@code AssocGrpCPUMinutesLimit}. */
    public Optional<String> pendingReason() {
        return spent().map(AccountUsage::reasonOf);
    }

    /** The pending reason SLURM gives for TRES {@code t}'s spent minutes. */
    static String reasonOf(String t) {
        return switch (t) {
            case "cpu" -> "AssocGrpCPUMinutesLimit";
            case "mem" -> "AssocGrpMemMinutes";
            case "node" -> "AssocGrpNodeMinutes";
            case "energy" -> "AssocGrpEnergyMinutes";
            case "billing" -> "AssocGrpBillingMinutes";
            default -> t.startsWith("gres/") ? "AssocGrpGRESMinutes" : t.startsWith("license/") ? "AssocGrpLicenseMinutes"
                    : t.startsWith("bb/") ? "AssocGrpBBMinutes" : "AssocGrpUnknownMinutes";
        };
    }

    /**
     * The account's own row of {@link #FORMAT} output (the row whose User column is empty; sshare indents an account
     * name by its depth in the tree); empty when the output has no row for it.
     *
     * @throws IllegalArgumentException naming the first line that is no such row (the wrong number of columns, a TRES
     *                                  list that is no {@code name=minutes} list), so a cut or foreign answer is not
     *                                  taken for the account's usage
     */
    public static Optional<AccountUsage> parse(String text, String account) {
        // every row is checked, so a cut answer is refused even when the account's row came before the cut
        record Row(String account, String user, AccountUsage usage) {
        }
        return PipeTable.rows(text, FORMAT, "sshare", f -> {
            Map<String, Long> limits = tres(f[2]);
            Map<String, Long> used = tres(f[3]);
            Map<String, Long> running = tres(f[4]);
            return limits == null || used == null || running == null ? null
                    : new Row(f[0].strip(), f[1].strip(), new AccountUsage(f[0].strip(), limits, used, running));
        }).stream().filter(r -> r.user().isEmpty() && r.account().equals(account)).map(Row::usage).findFirst();
    }

    /** {@code cpu=10,gres/gpu=2} by name; null when it is no such list (an empty column is an empty map). */
    static Map<String, Long> tres(String column) {
        Map<String, Long> out = new LinkedHashMap<>();
        String c = column.strip();
        if (c.isEmpty()) {
            return out;
        }
        List<String> parts = new ArrayList<>(List.of(c.split(",")));
        for (String p : parts) {
            int eq = p.indexOf('=');
            if (eq <= 0 || eq == p.length() - 1) {
                return null;
            }
            String name = p.substring(0, eq).strip();
            String value = p.substring(eq + 1).strip();
            if (!name.matches("[a-z][a-z0-9_/:.-]{0,63}") || !value.matches("\\d{1,18}")) {
                return null;
            }
            out.put(name, Long.parseLong(value));
        }
        return out;
    }
}
