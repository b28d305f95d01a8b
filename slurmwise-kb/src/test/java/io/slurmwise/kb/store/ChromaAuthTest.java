package io.slurmwise.kb.store;

import io.slurmwise.kb.spi.ChromaAuth;
import io.slurmwise.kb.spi.KbException;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The token settings, and what the client says when a secured server refuses it (a stub proxy, no Chroma). */
class ChromaAuthTest {

    @Test
    void theTokenGoesInXChromaTokenOrAsABearerTokenAndIsNeverShown() {
        assertThat(ChromaAuth.of(null, null)).isNull();
        assertThat(ChromaAuth.of("  ", "Authorization")).isNull();
        ChromaAuth x = ChromaAuth.of(" s3cret ", null);
        assertThat(x.header()).isEqualTo("X-Chroma-Token");
        assertThat(x.value()).isEqualTo("s3cret");
        ChromaAuth bearer = ChromaAuth.of("s3cret", "authorization");
        assertThat(bearer.header()).isEqualTo("Authorization");
        assertThat(bearer.value()).isEqualTo("Bearer s3cret");
        assertThat(ChromaAuth.of("Bearer s3cret", "Authorization").value()).as("a pasted prefix is not doubled")
                .isEqualTo("Bearer s3cret");
        assertThat(x.toString() + bearer).doesNotContain("s3cret");
    }

    @Test
    void badSettingsSayWhatToSet() {
        assertThatThrownBy(() -> ChromaAuth.of("s3cret", "X-Api-Key")).isInstanceOf(KbException.class)
                .hasMessageContaining("SLURMWISE_CHROMA_TOKEN_HEADER='X-Api-Key'").hasMessageContaining("X-Chroma-Token")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> ChromaAuth.of("s3cret\nx", null)).hasMessageContaining("line break")
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void aRefusedTokenIsReportedAtConnectWithTheSettingToFix() throws Exception {
        try (TokenProxy proxy = new TokenProxy(null, "X-Chroma-Token", "right")) {
            Duration t = Duration.ofSeconds(5);
            assertThatThrownBy(() -> ChromaStore.connect(proxy.url(), "slurmwise", "knowledge", t, null))
                    .isInstanceOf(KbException.class).hasMessageContaining("HTTP 401")
                    .hasMessageContaining("without a token: set SLURMWISE_CHROMA_TOKEN");
            assertThatThrownBy(() -> ChromaStore.connect(proxy.url(), "slurmwise", "knowledge", t,
                    ChromaAuth.of("wrong", null)))
                    .hasMessageContaining("with the token in X-Chroma-Token: check SLURMWISE_CHROMA_TOKEN")
                    .hasMessageContaining("SLURMWISE_CHROMA_TOKEN_HEADER=Authorization").hasMessageNotContaining("wrong");
            assertThat(ChromaStore.connect(proxy.url(), "slurmwise", "knowledge", t, ChromaAuth.of("right", null))
                    .name()).isEqualTo("chroma");
            assertThat(proxy.seen()).last().asString().contains("X-Chroma-Token=right");
        }
    }
}
