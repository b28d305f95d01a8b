package io.slurmwise.testing;

import java.util.List;
import java.util.Random;
import java.util.function.Function;


/**
 * Generators of hostile text for the parser fuzz tests: valid structure (values a parser knows) mixed with values no
 * parser should choke on: empty, blanks, huge numbers, signs, unicode (surrogates, RTL, emoji), NULs and control
 * characters, and very long runs. Values are drawn straight from a Random (no shrinking: a failing input is printed
 * whole, {@link Fuzz#shown}), which keeps a million inputs per parser within CI time.
 */
public final class Hostile {

    /** Odd values real exports carry (peers' users reported them) and numbers at the edges of every type. */
    public static final List<String> ODD = List.of("", " ", "Unknown", "None", "none", "(null)", "N/A", "INVALID",
            "UNLIMITED", "Partition_Limit", "0", "-0", "-1", "+1", "00", "1e309", "NaN", "Infinity", "-Infinity",
            "0x1F", "2147483647", "2147483648", "-2147483649", "4294967296", "9223372036854775807",
            "9223372036854775808", "99999999999999999999999999999", "1.7976931348623157E308", "4.9E-324", "0n", "0c",
            "4000Mc", "4000Mn", "16?", "1.5", ".5", "5.", "1,5", "1_000", "٣", "１２", "\u0000", "\t", "\r", "\n",
            "\r\n", "|", "||", "\u001f|", ":", "::", "-", "--", "=", "==", ",", ";", "#", "\"", "'", "\\", "[", "]",
            "_[", "+", ".", "*", "%", "\u202e", "\ud83d\ude80", "\ud800", "\udfff", "\uffff", "\u00a0", "\u2028",
            "\u001b[31m", "\u001b]52;c;AAAA\u0007", "%s%n", "${jndi:x}", "CANCELLED+", "CANCELLED by 0",
            "FAILED", "OUT_OF_MEMORY", "NODE_FAIL", "123_[1-5%2]", "123+1", "123.batch", "123.extern", "123.0");

    private static final String SPLITTERS = "|:-_.,=+[]%*#\"' \t\r\n/@$\\KMGTPkmgtpcnBb";
    private static final String[] RUNS = {"9", "1", "0", "|", ":", "-", "\u0000", "a", "[", "\"", "é", "12:", "\ud83d\ude80"};

    private Hostile() {
    }

    /** A hostile value (odd words, noise, a long run) or one of the valid examples, as it is or damaged. */
    public static Function<Random, String> pick(String... valid) {
        return r -> {
            int k = r.nextInt(100);
            if (valid.length > 0 && k < 35) {
                return valid[r.nextInt(valid.length)];
            }
            if (valid.length > 0 && k < 65) {
                return damage(r, valid[r.nextInt(valid.length)]);
            }
            if (k < 80) {
                return ODD.get(r.nextInt(ODD.size()));
            }
            if (k < 99) {
                return noise(r, 24);
            }
            return longRun(r);
        };
    }

    /** One character, weighted towards digits and the characters parsers split on. */
    public static char ch(Random r) {
        int k = r.nextInt(13);
        if (k < 6) {
            return (char) ('0' + r.nextInt(10));
        }
        if (k < 9) {
            return SPLITTERS.charAt(r.nextInt(SPLITTERS.length()));
        }
        if (k < 11) {
            return (char) ((r.nextBoolean() ? 'a' : 'A') + r.nextInt(26));
        }
        if (k < 12) {
            return (char) r.nextInt(0x20);
        }
        return (char) r.nextInt(0x10000);
    }

    public static String noise(Random r, int maxLength) {
        int n = r.nextInt(maxLength + 1);
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            sb.append(ch(r));
        }
        return sb.toString();
    }

    /** A long run (100 to 100,000 chars, log-uniform): a huge number, one repeated character, or noise. */
    public static String longRun(Random r) {
        int n = (int) Math.round(Math.pow(10, 2 + 3 * r.nextDouble()));
        if (r.nextInt(4) == 0) {
            return noise(r, n);
        }
        String s = RUNS[r.nextInt(RUNS.length)];
        return s.repeat(Math.max(1, n / s.length()));
    }

    /** A valid example damaged: a character inserted, replaced or deleted, cut short, doubled, or glued to an odd value. */
    public static String damage(Random r, String v) {
        int at = r.nextInt(v.length() + 1);
        String odd = ODD.get(r.nextInt(ODD.size()));
        return switch (r.nextInt(7)) {
            case 0 -> v.substring(0, at) + ch(r) + v.substring(at);
            case 1 -> at < v.length() ? v.substring(0, at) + ch(r) + v.substring(at + 1) : v + ch(r);
            case 2 -> at < v.length() ? v.substring(0, at) + v.substring(at + 1) : v;
            case 3 -> v.substring(0, at);
            case 4 -> v + v;
            case 5 -> v.substring(0, at) + odd + v.substring(at);
            default -> odd + v;
        };
    }
}
