package io.slurmwise.classify;

import io.slurmwise.catalog.LogForms;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A measured robustness check: every dev case of the benchmark that the classifier answers right, rewritten by each
 * of a set of transforms that real logs go through on their way to a reader, must keep its predicted kind. The
 * census prints, for each transform, how many of the right cases changed (and a few examples), and writes the same
 * table to {@code target/text-forms-robustness.txt}. Only the dev split is read: the test split is frozen.
 *
 * <p>{@link TextFormsTest} holds the project's older census (every dev case, right or wrong, in its forms); this one
 * counts from the cases answered right, and adds the forms that census lacked. A change that a transform really makes
 * to the text's meaning is listed in {@link #MEANING_CHANGED} with its reason.
 */
class TextFormsRobustnessTest {

    /** Words a coloured logger or a highlighter (rich, colorlog, grep --color, a CI viewer) paints. */
    private static final Pattern ERROR_WORD = Pattern.compile(
            "\\b(?:[A-Za-z.]*(?:Error|Exception|ERROR|error|FAILED|Failed|failed|FAILURE|failure|fatal|FATAL|Killed|killed"
                    + "|CANCELLED|Traceback|denied|Aborted|Segmentation fault))\\b");
    private static final String HARMLESS = "[rank1]: step 120/500 loss=2.3141 lr=1.0e-04 throughput=812.3 samples/s";

    /** The transforms, each a rewrite of a whole log; a rewrite that leaves the log as it was is not counted. */
    static Map<String, UnaryOperator<String>> transforms() {
        Map<String, UnaryOperator<String>> older = TextFormsTest.forms();
        Map<String, UnaryOperator<String>> t = new LinkedHashMap<>();
        // a log shipper's normaliser, a case-folding search index, a user "cleaning up" a paste
        t.put("lowercase", older.get("lowercased"));
        // a pager or report generator that shouts; legacy mainframe-style tooling; a title-cased summary block
        t.put("UPPERCASE", log -> log.toUpperCase(Locale.ROOT));
        // a log opened and saved on Windows, or sent through an HTTP form (text/plain bodies use CRLF)
        t.put("CRLF", older.get("CRLF"));
        // Notepad and PowerShell's Out-File write UTF-8 with a byte order mark
        t.put("UTF-8 BOM", log -> "\ufeff" + log);
        // a file truncated by logrotate's copytruncate while the job kept its offset, or a node that crashed before
        // the file system flushed its data, shows a run of NUL bytes where the lost text was (here: at its start)
        t.put("leading NUL bytes", log -> "\0".repeat(32) + log);
        // a coloured logger or highlighter paints the failure words only, not the whole line
        t.put("ANSI colour on error words", log -> TextFormsTest.eachLine(log,
                l -> ERROR_WORD.matcher(l).replaceAll("\u001b[1;31m$0\u001b[0m")));
        // tqdm and similar bars redraw their line with \r; the file keeps every redraw before the next line
        t.put("\\r progress bar", older.get("progress bar"));
        // launchers' and loggers' per-line prefixes
        t.put("ISO timestamp", older.get("ISO timestamp"));
        t.put("[rank3]:", older.get("[rank3]:"));
        // srun's own report of a task's output/exit, as a wrapper script re-logs every line it sees
        t.put("srun: error: node12: task 3:", log -> TextFormsTest.prefixed(log, "srun: error: node12: task 3: "));
        // journalctl -o short without its timestamp column (as cut by `cut -d' ' -f4-`), or rsyslog's RSYSLOG_FileFormat tail
        t.put("journald host tag[pid]:", log -> TextFormsTest.prefixed(log, "node12 python3[4242]: "));
        // Python logging.basicConfig()'s default format on the root logger
        t.put("ERROR:root:", log -> TextFormsTest.prefixed(log, "ERROR:root:"));
        t.put("CRASH:", older.get("CRASH:"));
        // srun --label with few tasks: "%*d: " padded to the width of the largest task id, here one digit
        t.put("srun --label 3:", log -> TextFormsTest.prefixed(log, "3: "));
        // a terminal of 80 columns (or fold -w 80) cuts every longer line
        t.put("hard wrap 80", older.get("terminal 80"));
        // a log pasted from a web page's HTML source or an XML/JUnit report: entities as html.escape() writes them
        t.put("HTML entities", log -> log.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;").replace("'", "&#39;"));
        // a log embedded in a JSON document (a CI API, a REST job record, a structured log): one line, with \n, \"
        // and \t as backslash sequences
        t.put("JSON string", TextFormsRobustnessTest::jsonRecord);
        // Docker's json-file log driver (docker logs' own store, and what log shippers read): one JSON record per line,
        // each carrying that line with its line break escaped
        t.put("Docker json-file", log -> TextFormsTest.eachLine(log, l -> "{\"log\":\"" + jsonEscaped(l + "\n")
                + "\",\"stream\":\"stderr\",\"time\":\"2024-03-01T10:00:00.123456789Z\"}"));
        // a web page or a word processor (smart quotes) turns ASCII quotes into typographic ones
        t.put("typographic quotes", log -> TextFormsTest.eachLine(log, LogForms::typographicQuotes));
        // a web page's &nbsp; copied from a rendered page arrives as U+00A0
        t.put("no-break spaces", log -> log.replace(' ', '\u00a0'));
        // expand(1), an editor's "expand tabs", or a web page's <pre> copy: tabs become spaces to the next stop of 8
        t.put("tabs expanded", log -> log.indexOf('\t') < 0 ? log : TextFormsTest.eachLine(log, TextFormsRobustnessTest::expandTabs));
        // two ranks writing to one stdout: a harmless line of another rank between every two lines
        t.put("interleaved second rank", log -> TextFormsTest.alreadyCut(log) ? log : interleaved(log));
        return t;
    }

    /**
     * Changes that are the transform's own, not the reader's: the text no longer says the same thing. Each group says
     * why; none is read through.
     */
    static final List<String> MEANING_CHANGED = List.of(
            // SLURM's state and reason names are upper case (PREEMPTED) and CamelCase (QOSMaxSubmitJobPerUserLimit),
            // and the case is what tells the state from the word: "job preempted (node failure)" (PBS, a node failure)
            // upper-cased reads as SLURM's state PREEMPTED, as does "Job has been preempted 1 times." in a job that
            // completed; QOSMAXSUBMITJOBPERUSERLIMIT is neither the token as SLURM prints it nor a lowercased copy
            // of it (qos_limit reads both, and only those, so as not to count one line twice)
            "corpus-node-fail-004 as UPPERCASE",
            "corpus-none-013 as UPPERCASE",
            "pub-qos-limit-021 as UPPERCASE",
            // srun writes "srun: error: <node>: task <n>: <status>" only for its own report of a task (Killed, Exited
            // with exit code 1, Out Of Memory); it never puts it before a task's output. Given that prefix, a line is
            // srun's statement: "task 3: Killed" is srun saying the task got SIGKILL (a time limit, scancel, the OOM
            // killer), not the kernel's bare "Killed" at the end of a log, and "task 3: Submission error: ..." is no
            // message of the program's. Peeling "task N:" as a prefix was tried: six right dev answers went wrong (srun's
            // "tasks 0-3: Killed" after a cancellation read as the OOM killer's), so the prefix stays meaningful
            "pub-oom-001 as srun: error: node12: task 3:",
            "pub-oom-002 as srun: error: node12: task 3:",
            "pub-file-not-found-027 as srun: error: node12: task 3:",
            "pub-oom-050 as srun: error: node12: task 3:",
            "pub-none-076 as srun: error: node12: task 3:",
            "pub-file-not-found-052 as srun: error: node12: task 3:",
            "pub-file-not-found-055 as srun: error: node12: task 3:",
            "pub-file-not-found-058 as srun: error: node12: task 3:",
            "pub-resources-unavailable-089 as srun: error: node12: task 3:",
            "pub-file-not-found-075 as srun: error: node12: task 3:",
            "pub-none-267 as srun: error: node12: task 3:",
            "pub-node-fail-042 as srun: error: node12: task 3:",
            "pub-node-fail-044 as srun: error: node12: task 3:",
            "pub-oom-186 as srun: error: node12: task 3:",
            "pub-oom-194 as srun: error: node12: task 3:",
            "pub-file-not-found-146 as srun: error: node12: task 3:",
            "pub-none-902 as srun: error: node12: task 3:",
            "pub-file-not-found-154 as srun: error: node12: task 3:",
            "pub-oom-282 as srun: error: node12: task 3:",
            "pub-oom-309 as srun: error: node12: task 3:",
            // another stream's line between a label and its value: /usr/bin/time's "Command exit status:" and "137" are
            // one report, read together only when adjacent
            "pub-oom-186 as interleaved second rank");

    /** Changes not yet read through: the reader's gaps, each to be closed by method (and removed here) or explained. */
    static final List<String> GAPS = List.of(
            // "run.sh: 18: source: not found" read beside the line after it; another rank's line between them
            "pub-none-217 as interleaved second rank");

    static String jsonRecord(String log) {
        return "{\"job_id\": 4242, \"stream\": \"stderr\", \"log\": \"" + jsonEscaped(log) + "\"}\n";
    }

    /** {@code s} as the content of a JSON string. */
    static String jsonEscaped(String log) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < log.length(); i++) {
            char c = log.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }

    static String expandTabs(String line) {
        StringBuilder b = new StringBuilder(line.length() + 16);
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\t') {
                do {
                    b.append(' ');
                } while (b.length() % 8 != 0);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    static String interleaved(String log) {
        String[] lines = log.split("\n", -1);
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) {
                out.append('\n').append(HARMLESS).append('\n');
            }
            out.append(lines[i]);
        }
        return out.toString();
    }

    @Test
    void everyRightDevCaseKeepsItsKindInEveryTransform() throws IOException {
        Classifier c = ClassifierTest.CLASSIFIER;
        Map<String, UnaryOperator<String>> transforms = transforms();
        Map<String, List<String>> changed = new LinkedHashMap<>();
        Map<String, Integer> applied = new LinkedHashMap<>();
        transforms.keySet().forEach(k -> {
            changed.put(k, new ArrayList<>());
            applied.put(k, 0);
        });
        int right = 0;
        for (BenchmarkCasesTest.Case k : BenchmarkCasesTest.load()) {
            if (!k.split().equals("dev")) {
                continue; // the test split is frozen: never read here
            }
            Finding plain = c.classifyText(k.facts(), k.log());
            if (!BenchmarkCasesTest.correct(c.taxonomy(), plain, k.label())) {
                continue;
            }
            right++;
            for (Map.Entry<String, UnaryOperator<String>> t : transforms.entrySet()) {
                String log = t.getValue().apply(k.log());
                if (log.equals(k.log())) {
                    continue;
                }
                applied.merge(t.getKey(), 1, Integer::sum);
                String kind = c.classifyText(k.facts(), log).kindId();
                if (!kind.equals(plain.kindId())) {
                    changed.get(t.getKey()).add(k.id() + ": " + plain.kindId() + " -> " + kind);
                }
            }
        }
        StringBuilder report = new StringBuilder();
        StringBuilder full = new StringBuilder();
        report.append(String.format("text forms robustness: %d dev cases answered right%n", right));
        report.append(String.format("%-32s %8s %8s%n", "transform", "applied", "changed"));
        List<String> all = new ArrayList<>();
        for (String t : transforms.keySet()) {
            List<String> ch = changed.get(t);
            report.append(String.format("%-32s %8d %8d%n", t, applied.get(t), ch.size()));
            ch.stream().limit(6).forEach(e -> report.append("      ").append(e).append('\n'));
            ch.forEach(e -> full.append(t).append('\t').append(e).append('\n'));
            ch.forEach(e -> all.add(e.substring(0, e.indexOf(':')) + " as " + t));
        }
        System.out.print(report);
        Files.writeString(Path.of("target", "text-forms-robustness.txt"), report + "\nevery change:\n" + full,
                StandardCharsets.UTF_8);
        assertThat(right).isGreaterThan(1500);
        List<String> expected = new ArrayList<>(MEANING_CHANGED);
        expected.addAll(GAPS);
        assertThat(all).containsExactlyInAnyOrderElementsOf(expected);
    }
}
