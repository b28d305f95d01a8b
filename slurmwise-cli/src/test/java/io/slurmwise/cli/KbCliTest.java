package io.slurmwise.cli;

import io.slurmwise.cli.context.ExitCodes;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;

import static io.slurmwise.cli.CliTest.run;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code slurmwise kb ...} and the knowledge base inside {@code diagnose}. */
class KbCliTest {

    @Test
    void diagnoseShowsRetrievedSectionsWithScoreAndPathAndSaysRulesPlusKb() throws IOException {
        CliTest.Result r = run("diagnose", "1008", "--full");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Fix notes").contains("▸ cuda_oom › Fixes").contains("knowledge/cuda_oom.md")
                .contains("PYTORCH_CUDA_ALLOC_CONF").containsPattern("· \\d\\.\\d\\d ·")
                .contains("rules + kb");
        JsonNode j = run("diagnose", "1008", "--json").json();
        assertThat(j.get("method").asText()).isEqualTo("rules + kb");
        assertThat(j.get("fixes")).hasSize(3);
        for (JsonNode f : j.get("fixes")) {
            assertThat(f.get("kind").asText()).isEqualTo("cuda_oom");
            assertThat(f.get("source").asText()).isEqualTo("knowledge/cuda_oom.md");
            assertThat(f.get("score").asDouble()).isGreaterThan(0.25);
            assertThat(f.get("section").asText()).isNotBlank();
        }
    }

    @Test
    void searchFindsTheNoteOfAPastedLogLine() throws IOException {
        CliTest.Result r = run("kb", "search", "error while loading shared libraries: libfftw3.so.3: cannot open shared object file", "-k", "3");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("1. ").contains("missing_shared_library").contains("knowledge/missing_shared_library.md");
        JsonNode j = run("kb", "search", "Disk quota exceeded", "--json", "-k", "2").json();
        assertThat(j.get("schema").asText()).isEqualTo("slurmwise.kb-search/v1");
        assertThat(j.get("results")).hasSize(2);
        assertThat(j.at("/results/0/kind").asText()).isEqualTo("disk_quota");
        assertThat(j.at("/results/0/score").asDouble()).isPositive();
        assertThat(j.at("/results/0/source").asText()).isEqualTo("knowledge/disk_quota.md");
        assertThat(j.get("rules_kind").asText()).isEqualTo("disk_quota");
        assertThat(run("kb", "search", "x", "-k", "0").code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void theRulesReadingOfAPastedLinePutsItsNoteFirstUnlessTurnedOff() throws IOException {
        // NCCL's own words in a line that a CUDA OOM caused: the rules see the OOM, the words point at NCCL
        String line = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB; NCCL watchdog"
                + " collective operation timeout ProcessGroupNCCL ncclRemoteError";
        JsonNode ruled = run("kb", "search", line, "--json", "-k", "3").json();
        assertThat(ruled.get("rules_kind").asText()).isEqualTo("cuda_oom");
        assertThat(ruled.at("/results/0/kind").asText()).isEqualTo("cuda_oom");
        JsonNode plain = run("kb", "search", line, "--json", "-k", "3", "--no-rules").json();
        assertThat(plain.get("rules_kind").isNull()).isTrue();
        CliTest.Result text = run("kb", "search", "how do I ask for more GPUs");
        assertThat(text.out()).contains("the rules recognise no failure in it");
    }

    @Test
    void listAndShow() throws IOException {
        CliTest.Result list = run("kb", "list");
        assertThat(list.code()).isZero();
        assertThat(list.out()).contains("KIND").contains("oom").contains("knowledge/oom.md").contains("24 notes");
        JsonNode j = run("kb", "list", "--json").json();
        assertThat(j.get("notes")).hasSize(24);
        CliTest.Result show = run("kb", "show", "time_limit");
        assertThat(show.code()).isZero();
        assertThat(show.out()).contains("# Job reached its time limit").contains("## Fixes").contains("#SBATCH --time=");
        CliTest.Result nosuch = run("kb", "show", "gremlins");
        assertThat(nosuch.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(nosuch.err()).contains("no failure kind 'gremlins'").contains("oom");
        assertThat(run("kb").code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void buildWritesTheIndexUnderSlurmwiseHome(@TempDir Path home) throws IOException {
        Map<String, String> env = Map.of("SLURMWISE_HOME", home.toString(), "SLURMWISE_EMBEDDINGS", "hash");
        CliTest.Result r = run(env, false, "kb", "build");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("built the knowledge index").contains("passages").contains(home.resolve("kb").toString());
        assertThat(r.err()).doesNotContain("embedding passages");
        assertThat(run(env, false, "kb", "list").out()).contains("index built");
        JsonNode j = run(env, false, "kb", "build", "--json").json();
        assertThat(j.get("sections").asInt()).isGreaterThan(100);
        assertThat(j.get("model").asText()).isEqualTo("hash");
    }

    @Test
    void anUnreachableChromaFallsBackOnceOnStderr(@TempDir Path home) throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Map<String, String> env = Map.of("SLURMWISE_HOME", home.toString(), "SLURMWISE_EMBEDDINGS", "hash",
                "SLURMWISE_CHROMA_URL", "http://127.0.0.1:" + port);
        CliTest.Result r = run(env, false, "diagnose", "1001", "--full");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("▸ oom › Fixes").contains("rules + kb");
        assertThat(StderrText.text(r.err()).split("answering from the embedded index", -1)).hasSize(2);
        CliTest.Result strict = run(env, false, "kb", "build", "--chroma-url", "http://127.0.0.1:" + port);
        assertThat(strict.code()).isEqualTo(ExitCodes.BACKEND);
        assertThat(strict.err()).contains("did not answer");
    }

    /**
     * jobs, classify --rules-only and --help never open the knowledge base, let alone load the embedding model; classify
     * takes its fixes where diagnose, eval and the classify_log tool do, so it fails as they do.
     */
    @Test
    void commandsWithoutRetrievalNeverTouchTheKnowledgeBase(@TempDir Path dir) throws IOException {
        Map<String, String> bogus = Map.of("SLURMWISE_EMBEDDINGS", "no-such-model");
        assertThat(run(bogus, false, "jobs").code()).isZero();
        assertThat(run(bogus, false, "--help").code()).isZero();
        Path log = dir.resolve("slurm-1.out");
        java.nio.file.Files.writeString(log, "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=1.batch.\n");
        assertThat(run(bogus, false, "classify", "--rules-only", log.toString()).code()).isZero();
        CliTest.Result c = run(bogus, false, "classify", log.toString());
        assertThat(c.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(c.err()).contains("SLURMWISE_EMBEDDINGS");
        CliTest.Result d = run(bogus, false, "diagnose", "1001");
        assertThat(d.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(d.err()).contains("SLURMWISE_EMBEDDINGS");
    }
}
