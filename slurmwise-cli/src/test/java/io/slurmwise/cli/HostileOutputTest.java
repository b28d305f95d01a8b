package io.slurmwise.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.slurmwise.cli.CliTest.Result;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job whose log, name, user, partition and pending reason carry terminal escape sequences: OSC 52 (write the
 * clipboard), OSC 0 (set the window title), CSI 2J (clear the screen), BEL, bare CR, a C1 CSI (U+009B), a bidi
 * override (U+202E), DEL and a colour sequence. Through every human output no raw control character reaches stdout
 * or stderr (with colour on, only colour sequences do), what they hid is shown escaped, and {@code --json} gives
 * the exact text back.
 */
class HostileOutputTest {

    static final String OSC52 = "\u001b]52;c;cm0gLXJmIH4K\u0007";
    static final String TITLE = "\u001b]0;pwned\u0007";
    static final String CLEAR = "\u001b[2J\u001b[H";
    static final String C1 = "\u009b31m";
    static final String RLO = "\u202e";
    /** Every hostile sequence at once, for names and fields. */
    static final String ALL = OSC52 + TITLE + CLEAR + "\u0007" + "a\rb" + C1 + RLO + "\u007f" + "\u001b[31mred\u001b[0m";
    static final String CUDA_LINE = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB" + OSC52 + TITLE;
    static final String LOG = "epoch 1 " + CLEAR + "loss 0.31\r epoch 2 " + C1 + "\u0007\n"
            + "see " + RLO + "txt.exe\n"
            + CUDA_LINE + "\n";

    @TempDir
    Path tmp;
    Path log;
    Path mock;

    @BeforeEach
    void fixtures() throws IOException {
        log = tmp.resolve("job" + "\u001b]0;x\u0007" + ".err");
        Files.writeString(log, LOG, StandardCharsets.UTF_8);
        mock = tmp.resolve("cluster");
        Files.createDirectories(mock.resolve("logs"));
        LocalDateTime end = LocalDateTime.now().minusHours(1).truncatedTo(ChronoUnit.SECONDS);
        LocalDateTime start = end.minusMinutes(30);
        String header = "JobID|JobName|User|Account|Partition|QOS|State|ExitCode|DerivedExitCode|Submit|Start|End|Elapsed"
                + "|Timelimit|ReqMem|MaxRSS|AllocCPUS|AllocTRES|NodeList|TotalCPU|ConsumedEnergyRaw|WorkDir|StdOut|StdErr|Reason";
        String row = "7001|train" + ALL + "|alice|lab|gpu" + TITLE + "|normal|OUT_OF_MEMORY|0:125|0:0|" + start + "|" + start
                + "|" + end + "|00:30:00|08:00:00|32G||16|billing=16,cpu=16,mem=32G,node=1|node01|01:00:00||/scratch/a"
                + "|/scratch/a/7001.out|/scratch/a/7001.err|None";
        String pending = "7002|wait" + ALL + "|alice|lab|gpu|normal|PENDING|0:0|0:0|" + start + "|Unknown|Unknown|00:00:00"
                + "|08:00:00|32G||16|billing=16,cpu=16,mem=32G,node=1|None assigned|00:00:00|||/scratch/a/7002.out"
                + "|/scratch/a/7002.err|Reason" + CLEAR + "QOSMaxJobsPerUserLimit";
        Files.writeString(mock.resolve("sacct.psv"), header + "\n" + row + "\n" + pending + "\n", StandardCharsets.UTF_8);
        Files.writeString(mock.resolve("logs/7001.err"), LOG, StandardCharsets.UTF_8);
        Files.writeString(mock.resolve("logs/7001.out"), "step 1\n" + ALL + "\n", StandardCharsets.UTF_8);
    }

    private Result run(boolean terminal, String... args) {
        return CliTest.run(Map.of("SLURMWISE_MOCK_DIR", mock.toString(), "COLUMNS", "120"), terminal, args);
    }

    @Test
    void classifyShowsTheHostileLogEscapedWithAndWithoutColour() {
        for (boolean terminal : new boolean[] {false, true}) {
            Result r = run(terminal, "classify", log.toString(), "--rules-only");
            assertThat(r.code()).as(r.err()).isZero();
            assertSafe(r, terminal);
            // what the sequences would have done is shown, not hidden: the evidence line keeps its text
            assertThat(r.out()).contains("(cuda_oom)").contains("\\x1b]52;c;").contains("\\x1b]0;pwned\\x07");
            Result plain = run(terminal, "--no-color", "classify", log.toString(), "--rules-only", "--full");
            assertSafe(plain, false);
        }
    }

    @Test
    void classifyJsonKeepsTheExactTextAndStaysTerminalSafe() throws IOException {
        Result r = run(true, "classify", log.toString(), "--rules-only", "--json");
        assertThat(r.code()).as(r.err()).isZero();
        assertSafe(r, false);
        JsonNode json = r.json();
        List<String> texts = new ArrayList<>();
        json.findValues("text").forEach(n -> texts.add(n.asText()));
        // the deciding line comes back exactly as the log has it, control characters and all
        assertThat(texts).contains(CUDA_LINE);
        List<String> all = new ArrayList<>();
        strings(json, all);
        assertThat(all).contains(log.toString());
    }

    @Test
    void diagnoseOfAJobWithAHostileLogAndNameIsSafe() throws IOException {
        for (boolean terminal : new boolean[] {false, true}) {
            for (String[] args : List.of(new String[] {"diagnose", "7001", "--no-llm"},
                    new String[] {"diagnose", "7001", "--no-llm", "--full"},
                    new String[] {"diagnose", "7002", "--no-llm"})) {
                Result r = run(terminal, args);
                assertThat(r.code()).as(String.join(" ", args) + "\n" + r.err()).isZero();
                assertSafe(r, terminal);
            }
        }
        Result r = run(false, "diagnose", "7001", "--no-llm");
        assertThat(r.out()).contains("job 7001 train\\x1b]52;c;").contains("(cuda_oom)").contains("\\x1b]0;pwned\\x07");
        Result json = run(true, "diagnose", "7001", "--no-llm", "--json");
        assertSafe(json, false);
        assertThat(json.json().path("job").path("name").asText()).isEqualTo("train" + ALL);
    }

    @Test
    void jobsWatchAndStatsListTheHostileNamesSafely() throws IOException {
        for (boolean terminal : new boolean[] {false, true}) {
            Result jobs = run(terminal, "jobs", "--classify");
            assertThat(jobs.code()).as(jobs.err()).isZero();
            assertSafe(jobs, terminal);
            assertThat(jobs.out()).contains("7001").contains("7002");
            Result stats = run(terminal, "stats", "--all-users", "--since", "now-2days");
            assertThat(stats.code()).as(stats.err()).isZero();
            assertSafe(stats, terminal);
        }
        Result watch = CliTest.run(Map.of("SLURMWISE_MOCK_DIR", mock.toString(), "SLURMWISE_HOME",
                tmp.resolve("home").toString()), false, "watch", "--once", "--since", "now-2days");
        assertThat(watch.code()).as(watch.err()).isZero();
        assertSafe(watch, false);
        assertThat(watch.out()).contains("7001");
        Result json = run(true, "jobs", "--json");
        assertSafe(json, false);
        List<String> names = new ArrayList<>();
        json.json().path("jobs").forEach(j -> names.add(j.path("name").asText()));
        assertThat(names).contains("train" + ALL, "wait" + ALL);
    }

    @Test
    void anErrorNamingAHostilePathIsSafe() {
        Result r = run(false, "classify", tmp.resolve("missing" + OSC52 + ".err").toString());
        assertThat(r.code()).isNotZero();
        assertSafe(r, false);
        assertThat(r.err()).contains("\\x1b]52;c;");
    }

    private static void strings(JsonNode n, List<String> into) {
        if (n.isTextual()) {
            into.add(n.asText());
        }
        n.forEach(c -> strings(c, into));
    }

    private static final Pattern SGR = Pattern.compile("\u001b\\[[0-9;]*m");

    /**
     * No raw control character in either stream: C0 but newline and tab, DEL, C1, bidi controls, line separators;
     * ESC only as a colour sequence, and only when {@code colour} is on.
     */
    static void assertSafe(Result r, boolean colour) {
        for (String s : new String[] {r.out(), r.err()}) {
            String rest = colour ? SGR.matcher(s).replaceAll("") : s;
            if (!colour) {
                assertThat(SGR.matcher(s).find()).as("a colour sequence with colour off:\n" + s).isFalse();
            }
            for (int i = 0; i < rest.length(); i++) {
                char c = rest.charAt(i);
                boolean control = c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f && c <= 0x9f
                        || c >= 0x202a && c <= 0x202e || c >= 0x2066 && c <= 0x2069 || c == 0x200e || c == 0x200f
                        || c == 0x061c || c == 0x2028 || c == 0x2029;
                if (control) {
                    Matcher m = Pattern.compile(".{0,30}").matcher(rest.substring(Math.max(0, i - 30)));
                    throw new AssertionError(String.format("raw U+%04X at %d near: %s", (int) c, i,
                            m.find() ? m.group().replace("\u001b", "<ESC>") : ""));
                }
            }
        }
    }
}
