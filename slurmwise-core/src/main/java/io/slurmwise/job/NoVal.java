package io.slurmwise.job;

/**
 * SLURM's sentinels for "no value" and "infinite" as accounting prints them in numeric fields: NO_VAL
 * (4294967294), INFINITE (4294967295), their 64-bit forms (18446744073709551614, 18446744073709551615) and their
 * signed forms (-2, -1). Unknown, never a count: {@code gres/gpu=4294967294} is no GPU count, not 2^31-1 GPUs (an
 * outside audit's report counted it so, and the job swamped every GPU figure).
 */
final class NoVal {

    private NoVal() {
    }

    /** Whether {@code text} (surrounding blanks aside) is one of the sentinels. */
    static boolean is(String text) {
        if (text == null) {
            return false;
        }
        String t = text.strip();
        return switch (t) {
            case "4294967294", "4294967295", "18446744073709551614", "18446744073709551615", "-1", "-2" -> true;
            default -> false;
        };
    }

    /** Whether {@code v} is one of the sentinels a long holds (the 64-bit ones do not fit). */
    static boolean is(long v) {
        return v == 4_294_967_294L || v == 4_294_967_295L || v == -1 || v == -2;
    }
}
