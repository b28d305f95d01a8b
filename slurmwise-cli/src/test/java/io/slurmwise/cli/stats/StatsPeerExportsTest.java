package io.slurmwise.cli.stats;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** {@code stats --input} on peers' real exports (slurmwise-core/src/test/resources/peers): the CPU count's sources. */
class StatsPeerExportsTest {

    static final Path PEERS = Path.of("..", "slurmwise-core", "src", "test", "resources", "peers");

    @Test
    void ncpusWithoutAllocCpusOrTresGivesTheCpuHours() {
        // XDMoD's array tasks: NCPUS=256, no AllocCPUS, no AllocTRES; 6 tasks x 3 days (was 0 CPU-hours)
        String input = PEERS.resolve("xdmod/accounting-logs-with-job-arrays/sacct.psv").toString();
        StatsRun.Result r = StatsRun.run(Map.of(), "stats", "--input", input, "--since", "2015-06-01", "--until",
                "2015-08-01", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = r.json();
        assertThat(j.at("/total/jobs").asLong()).isEqualTo(6);
        assertThat(j.at("/total/used_cpu_hours").asDouble()).isCloseTo(110592.0, within(0.01));
        assertThat(j.get("jobs_without_cpu_count").asLong()).isZero();
    }

    @Test
    void jobsWithNoCpuCountAtAllAreSaidNotSilentlyZero(@TempDir Path tmp) throws IOException {
        // GreenAlgorithms4HPC's two rows without their NCPUS and AllocTRES columns
        String text = Files.readString(PEERS.resolve("greenalgorithms4hpc/sacct.psv"));
        List<String> header = List.of(text.lines().findFirst().orElseThrow().split("\\|"));
        int ncpus = header.indexOf("NCPUS");
        int tres = header.indexOf("AllocTRES");
        String stripped = text.lines().map(l -> {
            List<String> f = new ArrayList<>(List.of(l.split("\\|", -1)));
            f.remove(tres);
            f.remove(ncpus);
            return String.join("|", f);
        }).collect(Collectors.joining("\n", "", "\n"));
        Path psv = tmp.resolve("sacct.psv");
        Files.writeString(psv, stripped);
        String[] window = {"--since", "2022-02-01", "--until", "2022-03-01"};
        StatsRun.Result json = StatsRun.run(Map.of(), "stats", "--input", psv.toString(), window[0], window[1],
                window[2], window[3], "--json");
        assertThat(json.code()).as(json.err()).isZero();
        assertThat(json.json().get("jobs_without_cpu_count").asLong()).isEqualTo(2);
        StatsRun.Result human = StatsRun.run(Map.of("COLUMNS", "200"), "stats", "--input", psv.toString(), window[0],
                window[1], window[2], window[3]);
        assertThat(human.code()).as(human.err()).isZero();
        assertThat(human.out()).contains("2 job(s) ran but their records give no CPU count");
    }
}
