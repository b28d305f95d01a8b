package io.slurmwise.agent.explain;

import io.slurmwise.Slurmwise;
import io.slurmwise.agent.testing.FakeOpenAiServer;
import io.slurmwise.backend.mock.MockBackend;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.diagnose.TemplateExplainer;
import io.slurmwise.taxonomy.Taxonomy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The guard measured on answers written by others from the exact prompts (see {@code guard-sets/README.md}): the
 * share of faithful answers shown and of drifting answers set aside, through the whole LLM path against a local
 * OpenAI-compatible server. The floors sit a little under the rates measured when each set was added (set4's
 * raised when its misses were read); set6 and set7 were never read to change the guard; set8's floors are the rates
 * reached after its misses were read.
 */
class GuardAnswerSetsTest {

    private static final AtomicReference<String> ANSWER = new AtomicReference<>("");
    private static FakeOpenAiServer server;
    private static Slurmwise slurmwise;
    private static final AtomicReference<String> DEBUG_SET = new AtomicReference<>();

    @BeforeAll
    static void start() throws Exception {
        server = FakeOpenAiServer.answering(req -> ANSWER.get());
        Taxonomy taxonomy = Taxonomy.load(null);
        LlmExplainer llm = LlmExplainer.openAiCompatible(new LlmSettings(true, server.baseUrl(), "writer", "none",
                Duration.ofSeconds(10)), new TemplateExplainer(), taxonomy);
        // the sets cite the logs' times as written: the cluster as recorded, not replayed to end just now
        slurmwise = Slurmwise.builder().taxonomy(taxonomy).backend(MockBackend.bundledAsRecorded()).explainer(llm).build();
    }

    @AfterAll
    static void stop() {
        slurmwise.close();
        server.close();
    }

    @ParameterizedTest(name = "{0}: faithful shown >= {1}, drifting set aside >= {2}")
    @CsvSource({
            "set1, 0.95, 0.90",
            // set2 and set3: five faithful answers for 1008 repeat the generic batch example the prompt no longer has
            // (guard-sets/README.md, 2026-12-07)
            "set2, 0.925, 0.80",
            "set3, 0.86, 0.87",
            "set4, 0.95, 0.93",
            "set5, 0.92, 0.70",
            "set6, 0.89, 0.73",
            "set7, 0.93, 0.65",
            // set8: written before the guard was read, then read to change it (guard-sets/README.md, 2026-12-08)
            "set8, 0.95, 0.86",
    })
    void faithfulAnswersAreShownAndDriftingOnesSetAside(String set, double shownFloor, double caughtFloor)
            throws IOException {
        DEBUG_SET.set(set);
        List<String> falselySetAside = new ArrayList<>();
        List<String> missed = new ArrayList<>();
        List<String[]> faithful = lines(set + "-faithful.txt");
        List<String[]> drifting = lines(set + "-disagree.txt");
        for (String[] a : faithful) {
            if (!shown(a)) {
                falselySetAside.add(a[0] + " | " + a[1]);
            }
        }
        for (String[] a : drifting) {
            if (shown(a)) {
                missed.add(a[0] + " | " + a[1]);
            }
        }
        double shownRate = 1.0 - (double) falselySetAside.size() / faithful.size();
        double caughtRate = 1.0 - (double) missed.size() / drifting.size();
        System.out.printf(Locale.ROOT, "guard %s: faithful shown %d/%d (%.3f), drifting set aside %d/%d (%.3f)%n",
                set, faithful.size() - falselySetAside.size(), faithful.size(), shownRate,
                drifting.size() - missed.size(), drifting.size(), caughtRate);
        assertThat(shownRate).as("faithful answers set aside: %s", falselySetAside).isGreaterThanOrEqualTo(shownFloor);
        assertThat(caughtRate).as("drifting answers shown: %s", missed).isGreaterThanOrEqualTo(caughtFloor);
    }

    private static boolean shown(String[] a) {
        ANSWER.set(a[1]);
        Diagnosis d = slurmwise.diagnose(a[0]);
        assertThat(d).as(a[0]).isInstanceOf(Diagnosis.Failed.class);
        var ex = ((Diagnosis.Failed) d).explanation();
        if (DEBUG_SET.get() != null && DEBUG_SET.get().equals(System.getenv("GUARD_DEBUG"))) {
            System.out.println("DBG " + ex.source().startsWith("llm:") + " | " + a[0] + " | " + ex.note() + " | " + a[1].replace("\n", "\\n"));
        }
        return ex.source().startsWith("llm:");
    }

    private static List<String[]> lines(String name) throws IOException {
        try (InputStream in = GuardAnswerSetsTest.class.getResourceAsStream("/io/slurmwise/agent/guard-sets/" + name)) {
            assertThat(in).as(name).isNotNull();
            List<String[]> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank()) {
                    String[] p = line.split("\\|", 2);
                    // a written "\\n" is a line break: an answer in lists or a table spans lines, as models write them
                    out.add(new String[] {p[0].strip(), p[1].strip().replace("\\n", "\n")});
                }
            }
            return out;
        }
    }
}
