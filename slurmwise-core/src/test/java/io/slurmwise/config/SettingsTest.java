package io.slurmwise.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SettingsTest {

    static Settings with(String value) {
        return Settings.from(Map.of("X_TIMEOUT", value));
    }

    @Test
    void secondsAreReadWithDecimalsOrFallBackWhenUnset() {
        Duration fallback = Duration.ofSeconds(7);
        assertThat(Settings.from(Map.of()).seconds("X_TIMEOUT", fallback, 0, 60)).isEqualTo(fallback);
        assertThat(with("  ").seconds("X_TIMEOUT", fallback, 0, 60)).isEqualTo(fallback);
        assertThat(with("2.5").seconds("X_TIMEOUT", fallback, 0, 60)).isEqualTo(Duration.ofMillis(2500));
        assertThat(with(" 60 ").seconds("X_TIMEOUT", fallback, 0, 60)).isEqualTo(Duration.ofMinutes(1));
        assertThat(with("0.0001").seconds("X_TIMEOUT", fallback, 0, 60)).isEqualTo(Duration.ofMillis(1));
        assertThat(Settings.from(Map.of()).logReadTimeout()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void anythingElseIsAConfigurationErrorNamingTheVariableAndTheRange() {
        for (String bad : new String[] {"soon", "0", "-1", "61", "NaN", "Infinity", "1e400", "0x10"}) {
            assertThatThrownBy(() -> with(bad).seconds("X_TIMEOUT", Duration.ZERO, 0, 60)).as(bad)
                    .isInstanceOf(SettingsException.class)
                    .hasMessage("X_TIMEOUT must be a number of seconds between 0 and 60, got '" + bad + "'");
        }
        assertThatThrownBy(() -> with("0.5").seconds("X_TIMEOUT", Duration.ZERO, 1, 3600))
                .hasMessage("X_TIMEOUT must be a number of seconds between 1 and 3600, got '0.5'");
    }
}
