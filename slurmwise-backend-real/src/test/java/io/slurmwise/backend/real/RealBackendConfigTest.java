package io.slurmwise.backend.real;

import io.slurmwise.config.Settings;
import io.slurmwise.config.SettingsException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RealBackendConfigTest {

    @Test
    void timeoutsComeFromTheEnvironmentOrTheirDefaults() {
        RealBackendConfig d = RealBackendConfig.from(Settings.from(Map.of()));
        assertThat(d.sacctTimeout()).isEqualTo(RealBackendConfig.DEFAULT_SACCT_TIMEOUT);
        assertThat(d.controllerTimeout()).isEqualTo(RealBackendConfig.DEFAULT_CONTROLLER_TIMEOUT);
        assertThat(d.logTimeout()).isEqualTo(Duration.ofSeconds(10));
        RealBackendConfig c = RealBackendConfig.from(Settings.from(Map.of("SLURMWISE_SACCT_TIMEOUT", "300",
                "SLURMWISE_CONTROLLER_TIMEOUT", "2.5", "SLURMWISE_LOG_TIMEOUT", "0.5")));
        assertThat(c.sacctTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.controllerTimeout()).isEqualTo(Duration.ofMillis(2500));
        // the backend's log reads (a job's .out on a hung file system) honour it as classify does
        assertThat(c.logTimeout()).isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void aBadLogTimeoutIsAConfigurationErrorNamingTheVariable() {
        RealBackendConfig c = RealBackendConfig.from(Settings.from(Map.of("SLURMWISE_LOG_TIMEOUT", "soon")));
        assertThatThrownBy(() -> RealBackend.create(c)).isInstanceOf(SettingsException.class)
                .hasMessageContaining("SLURMWISE_LOG_TIMEOUT");
    }
}
