package io.slurmwise.cli;

import io.slurmwise.Slurmwise;
import io.slurmwise.config.Settings;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.kb.KbRetriever;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedding model is loaded ahead (prewarmed) only for a job that will be retrieved for, and closing waits for
 * that load. An outside audit: {@code diagnose 1045 --json} (a COMPLETED job) started the load, the process exited
 * while onnxruntime was inside its native session set-up, and the JVM aborted (exit 134) after printing the JSON.
 */
class PrewarmTest {

    private static Slurmwise open() {
        return Slurmwise.open(Settings.from(Map.of("SLURMWISE_BACKEND", "mock", "SLURMWISE_NO_LLM", "1",
                "SLURMWISE_HOME", System.getenv().getOrDefault("SLURMWISE_HOME", "target/slurmwise-home"))), m -> { });
    }

    private static boolean prewarmThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("slurmwise-kb-prewarm") && t.isAlive());
    }

    @Test
    void aJobThatNeedsNoRetrievalStartsNoModelLoad() {
        for (String id : new String[] {"1045", "1053"}) {
            try (Slurmwise sw = open()) {
                assertThat(sw.retriever()).isInstanceOf(KbRetriever.class);
                Diagnosis d = sw.diagnose(id);
                assertThat(d).as(id).isInstanceOf(Diagnosis.StatusOnly.class);
                assertThat(((KbRetriever) sw.retriever()).knowledgeBase().prewarmStarted()).as(id).isFalse();
            }
        }
    }

    @Test
    void aFailedJobLoadsTheModelAhead() {
        try (Slurmwise sw = open()) {
            Diagnosis d = sw.diagnose("1001");
            assertThat(d).isInstanceOf(Diagnosis.Failed.class);
            assertThat(((KbRetriever) sw.retriever()).knowledgeBase().prewarmStarted()).isTrue();
        }
    }

    @Test
    void closingWaitsForALoadInProgress() {
        Slurmwise sw = open();
        KbRetriever kb = (KbRetriever) sw.retriever();
        assertThat(kb.knowledgeBase().modelLoaded()).isFalse();
        sw.retriever().prewarm();
        sw.retriever().prewarm();
        sw.close();
        // close returned: the load it started is over (loaded), no thread of it is left running
        assertThat(kb.knowledgeBase().modelLoaded()).as("the load finished before close returned").isTrue();
        assertThat(prewarmThreadAlive()).as("a load still running after close").isFalse();
    }
}
