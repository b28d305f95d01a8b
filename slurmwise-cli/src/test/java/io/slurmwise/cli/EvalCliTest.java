package io.slurmwise.cli;

import io.slurmwise.cli.context.ExitCodes;
import com.fasterxml.jackson.databind.JsonNode;
import io.slurmwise.testing.AccuracyFloor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** `slurmwise eval` on the bundled benchmark and on files it has never seen. */
class EvalCliTest {

    @Test
    void scoresTheBundledTestSplit() throws IOException {
        CliTest.Result r = CliTest.run("eval");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("split test").contains("accuracy").contains("macro-F1").contains("Recall@1")
                .contains("Recall@3").contains("MRR").contains("PRECISION").contains("RECALL");
        JsonNode j = CliTest.run("eval", "--json").json();
        assertThat(j.get("schema").asText()).isEqualTo("slurmwise.eval/v1");
        assertThat(j.get("split").asText()).isEqualTo("test");
        assertThat(j.get("cases").asInt()).isEqualTo(j.get("correct").asInt() + j.get("wrong").size());
        assertThat(j.at("/retrieval/retriever").asText()).isEqualTo("kb"); // the CLI retrieves with the knowledge base
        // every wrong case is listed with its id, in the text too
        j.get("wrong").forEach(w -> assertThat(r.out()).contains(w.get("id").asText()));
        JsonNode dev = CliTest.run("eval", "--split", "dev", "--json").json();
        // floors against regressions, not targets (their history in AccuracyFloor)
        assertThat(dev.get("accuracy").asDouble()).isGreaterThanOrEqualTo(AccuracyFloor.DEV);
        assertThat(dev.get("clear_accuracy").asDouble()).isGreaterThanOrEqualTo(AccuracyFloor.DEV_CLEAR);
        assertThat(dev.get("unknown_rate_failed").asDouble()).isBetween(0.0, 1.0);
        assertThat(r.out()).contains("accuracy (clear cases)").contains("unknown on failed cases");
        JsonNode all = CliTest.run("eval", "--split", "all", "--json").json();
        assertThat(all.get("cases").asInt()).isEqualTo(j.get("cases").asInt() + dev.get("cases").asInt());
    }

    @Test
    void scoresAnotherFileInTheSameFormat(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("other.jsonl");
        Files.writeString(f, """
                {"id": "x1", "label": "oom", "sacct_state": "OUT_OF_MEMORY", "exit_code": "0:125", "log": "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=7.batch.", "source": "test", "notes": ""}
                {"id": "x2", "label": "none", "sacct_state": "COMPLETED", "exit_code": "0:0", "log": "all done", "source": "test", "notes": ""}
                {"id": "x3", "label": "nccl", "sacct_state": "FAILED", "exit_code": "1:0", "log": "Traceback\\nValueError: bad shape", "source": "test", "notes": "a case the rules get wrong"}
                """);
        CliTest.Result r = CliTest.run("eval", "--cases", f.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("3 cases").contains("0.667").contains("nccl -> unknown  1  x3").contains("x3");
    }

    @Test
    void aBadOrMissingFileIsAnInputErrorWithLineNumbers(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("bad.jsonl");
        Files.writeString(f, """
                {"id": "x1", "label": "oom", "sacct_state": null, "exit_code": null, "log": "", "source": "s", "notes": ""}
                {"id": "x2", "label": "out_of_memory", "sacct_state": null, "exit_code": null, "log": "", "source": "s", "notes": ""}
                {"id": "x3", "label": "oom", "log": ""}
                not json
                """);
        CliTest.Result r = CliTest.run("eval", "--cases", f.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.INPUT);
        assertThat(r.err()).contains(f + ":2: unknown label 'out_of_memory'").contains(f + ":3: missing key 'source'")
                .contains(f + ":4:1: invalid JSON");
        assertThat(r.out()).isEmpty();
        assertThat(CliTest.run("eval", "--cases", dir.resolve("nope.jsonl").toString()).code()).isEqualTo(ExitCodes.INPUT);
        assertThat(CliTest.run("eval", "--split", "train").code()).isEqualTo(ExitCodes.USAGE);
    }
}
