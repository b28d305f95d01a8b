package io.slurmwise.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code slurmwise diagnose} with SLURMWISE_CHROMA_URL: the fixes come from the real Chroma server .ci/run
 * starts; with the server gone, the same command answers from the embedded index and says so once.
 * Fails, never skips, without a server.
 */
@Tag("chroma")
class ChromaDiagnoseTest {

    @Test
    void diagnoseUsesChromaAndFallsBackWhenItIsGone(@TempDir Path home) {
        String url = System.getenv("SLURMWISE_CHROMA_URL");
        if (url == null || url.isBlank()) {
            fail("the chroma tests need SLURMWISE_CHROMA_URL (scripts/chroma/start.sh prints it)");
        }
        Map<String, String> env = Map.of("SLURMWISE_CHROMA_URL", url, "SLURMWISE_HOME", home.toString());
        CliTest.Result r = CliTest.run(env, false, "diagnose", "1001", "--full");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("(oom)").contains("oom › Fixes").contains("rules + kb");
        assertThat(StderrText.text(r.err())).doesNotContain("answering from the embedded index");
        CliTest.Result again = CliTest.run(env, false, "kb", "list", "--json");
        assertThat(again.out()).contains("chroma");

        Map<String, String> gone = Map.of("SLURMWISE_CHROMA_URL", "http://127.0.0.1:9", "SLURMWISE_HOME", home.toString());
        CliTest.Result fallback = CliTest.run(gone, false, "diagnose", "1001", "--full");
        assertThat(fallback.code()).isZero();
        assertThat(fallback.out()).contains("oom › Fixes");
        assertThat(StderrText.text(fallback.err())).contains("answering from the embedded index");
    }
}
