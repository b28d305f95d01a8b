package io.slurmwise.mcp.stdio;

import io.slurmwise.config.Settings;
import io.slurmwise.config.SettingsException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StdioLimitsTest {

    static StdioLimits with(String value) {
        return StdioLimits.from(Settings.from(Map.of(StdioLimits.CALL_TIMEOUT_VARIABLE, value)));
    }

    @Test
    void theCallTimeoutIs300SecondsUnlessTheEnvironmentSetsIt() {
        assertThat(StdioLimits.from(Settings.from(Map.of())).callTimeout()).isEqualTo(Duration.ofSeconds(300));
        assertThat(with(" ").callTimeout()).isEqualTo(Duration.ofSeconds(300));
        assertThat(with("30").callTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(with("1.5").callTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(with("3600").workers()).isEqualTo(StdioLimits.DEFAULT.workers());
    }

    @Test
    void aBadCallTimeoutIsOneLineNamingTheVariable() {
        for (String bad : new String[] {"0", "0.5", "3601", "-1", "ten", "NaN", "1e9"}) {
            assertThatThrownBy(() -> with(bad)).as(bad).isInstanceOf(SettingsException.class)
                    .hasMessage("SLURMWISE_MCP_CALL_TIMEOUT must be a number of seconds between 1 and 3600, got '"
                            + bad + "'");
        }
        assertThatThrownBy(() -> StdioLimits.DEFAULT.withCallTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theStringOneAndTheNumberOneAreDifferentCalls() {
        assertThat(StdioTransport.key("1")).isNotEqualTo(StdioTransport.key(1));
        assertThat(StdioTransport.key(1)).isEqualTo(StdioTransport.key(1L));
        assertThat(StdioTransport.key(java.math.BigInteger.ONE)).isEqualTo(StdioTransport.key(1));
        assertThat(StdioTransport.key(1.0)).isNull();
        assertThat(StdioTransport.key(null)).isNull();
        assertThat(StdioTransport.key(Map.of("id", 1))).isNull();
    }
}
