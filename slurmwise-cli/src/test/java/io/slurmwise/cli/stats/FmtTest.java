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
}
