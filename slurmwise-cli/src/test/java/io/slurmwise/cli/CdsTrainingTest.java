package io.slurmwise.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The launchers' start-up archive is trained by {@link CdsTraining}: every command it runs must still exist and
 * succeed on the mock cluster, or the archive silently stops covering it.
 */
class CdsTrainingTest {

    @Test
    void everyTrainingRunSucceedsOnTheMockCluster() {
        for (String[] run : CdsTraining.runs("/tmp/x.psv", "/tmp/x.err")) {
            assertThat(run).startsWith("--backend", "mock");
        }
        assertThat(CdsTraining.train(Map.of("PATH", "/usr/bin:/bin"))).as("exit codes of the training runs")
                .allMatch(code -> code == 0 || code == 3);
    }
}
