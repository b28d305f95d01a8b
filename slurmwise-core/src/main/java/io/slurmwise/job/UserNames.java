package io.slurmwise.job;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names for the numeric uids SLURM prints, as in {@code CANCELLED by 1001}: 0 is root, others come from this
 * host's passwd file (sites whose users live only in LDAP show {@code uid 1001}).
 */
public final class UserNames {

    private static final Pattern BY_UID = Pattern.compile("by (\\d+)");
    private static volatile Map<Long, String> passwd;

    private UserNames() {
    }

    /** The uid in a state detail such as {@code by 1001}. */
    public static OptionalLong cancelledBy(JobStatus status) {
        Matcher m = BY_UID.matcher(status.detail());
        return m.matches() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
    }

    /** root for 0, else the name in /etc/passwd. */
    public static Optional<String> local(long uid) {
        if (uid == 0) {
            return Optional.of("root");
        }
        return Optional.ofNullable(passwd().get(uid));
    }

    /**
     * Whether this host knows a user of that name: root, its passwd file, or its name service (LDAP and SSSD included,
     * as sacct's own check of {@code -u} asks it), without starting a process.
     */
    public static boolean isKnown(String name) {
        if (name == null || name.isBlank()) {
            return false;
        }
        if ("root".equals(name) || isLocalUser(name)) {
            return true;
        }
        try {
            java.nio.file.FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(name);
            return true;
        } catch (java.nio.file.attribute.UserPrincipalNotFoundException e) {
            return false;
        } catch (IOException | UnsupportedOperationException e) {
            return true; // the name service cannot say: not an error of the user's
        }
    }

    /** Whether this host's passwd file has an account of that name. */
    public static boolean isLocalUser(String name) {
        return passwd().containsValue(name);
    }

    /** This host's uid->name map from /etc/passwd, read once; empty when it cannot be read. */
    private static Map<Long, String> passwd() {
        Path file = Path.of("/etc/passwd");
        Map<Long, String> m = passwd;
        if (m == null) {
            m = new HashMap<>();
            try {
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    String[] f = line.split(":");
                    if (f.length > 2 && f[2].matches("\\d{1,10}")) {
                        m.putIfAbsent(Long.parseLong(f[2]), f[0]);
                    }
                }
            } catch (IOException e) {
                // no passwd file (a container, another OS): uids stay numbers
            }
            passwd = m;
        }
        return m;
    }

    /**
     * The status as a person reads it: {@code CANCELLED by alice} ({@code by root} for 0, {@code by uid 1001} when
     * the name is unknown); other states unchanged.
     */
    public static String describe(JobStatus status, java.util.function.LongFunction<Optional<String>> names) {
        OptionalLong uid = cancelledBy(status);
        if (uid.isEmpty()) {
            return status.toString();
        }
        return status.state().name() + " by " + names.apply(uid.getAsLong()).orElse("uid " + uid.getAsLong());
    }
}
