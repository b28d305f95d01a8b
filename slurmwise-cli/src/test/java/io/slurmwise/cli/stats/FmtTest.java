package io.slurmwise.cli.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Amounts as the stats views print them: one decimal, and a small amount never shown as nothing. */
class FmtTest {

    @Test
    void aSmallAmountKeepsTwoSignificantDigitsInDigitsOnly() {
        assertThat(Fmt.one(12.34)).isEqualTo("12.3");
        assertThat(Fmt.one(0.05)).isEqualTo("0.1");
        assertThat(Fmt.one(0)).isEqualTo("0.0");
        // one CPU-second is 0.00028 CPU-hours: "0.0" beside "88% of the CPU-hours" read as nothing (an outside audit)
        assertThat(Fmt.one(1 / 3600.0)).isEqualTo("0.00028");
        assertThat(Fmt.one(0.0123)).isEqualTo("0.012");
        assertThat(Fmt.one(-0.0123)).isEqualTo("-0.012");
        assertThat(Fmt.one(0.0001)).doesNotContain("E").matches("[0-9.]+");
    }

    /** A centre's year: 2792415.4 CPU-hours read as a row of digits (an outside audit); grouped whatever the locale. */
    @Test
    void largeFiguresAreGroupedByThousandsWhateverTheLocale() {
        java.util.Locale before = java.util.Locale.getDefault();
        try {
            java.util.Locale.setDefault(java.util.Locale.GERMANY); // 2.792.415,4 in German: not here
            assertThat(Fmt.one(2_792_415.4)).isEqualTo("2,792,415.4");
            assertThat(Fmt.one(999.94)).isEqualTo("999.9");
            assertThat(Fmt.one(-1234.5)).isEqualTo("-1,234.5");
            assertThat(Fmt.count(1_234_567)).isEqualTo("1,234,567");
            assertThat(Fmt.count(999)).isEqualTo("999");
            assertThat(Fmt.plural(1_000, "job")).isEqualTo("1,000 jobs");
            assertThat(Fmt.plural(1, "job")).isEqualTo("1 job");
        } finally {
            java.util.Locale.setDefault(before);
        }
    }
}
