package io.slurmwise.classify;

import io.slurmwise.catalog.LogForms;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Text as it really arrives, on every dev case of the benchmark: each log is rewritten the way tools and terminals
 * rewrite logs (a launcher's or logger's prefix on every line, colour, CRLF, a progress bar that {@code \r}
 * overwrote, HTML escaping, a Markdown quote, an indent, a terminal that cut every long line at its width, a tool that
 * lowercased it all, a site that renamed SLURM's commands, a page that rendered the log pasted without a code fence as
 * Markdown), and the
 * classifier must answer exactly what it answers on the log as collected. {@link LineTextTest} has one example of
 * each form; this test is the census.
 */
class TextFormsTest {

    /** A SLURM client command's own message prefix. */
    private static final java.util.regex.Pattern RENAMED =
            java.util.regex.Pattern.compile("(?<![\\w./-])(sbatch|srun|salloc):(?=[ \\t]|$)");

    /** The forms, each a rewrite of a whole log. */
    static Map<String, UnaryOperator<String>> forms() {
        Map<String, UnaryOperator<String>> f = new LinkedHashMap<>();
        f.put("ISO timestamp", log -> prefixed(log, "2024-03-01T10:00:00.123Z "));
        f.put("[rank3]:", log -> prefixed(log, "[rank3]: "));
        f.put("srun --label", log -> prefixed(log, "  3: "));
        f.put("CRASH:", log -> prefixed(log, "CRASH: "));
        f.put("Python logging", log -> prefixed(log, "2024-03-01 10:00:00,123 - root - ERROR - "));
        f.put("loguru", log -> prefixed(log, "2024-03-01 10:00:00.123 | ERROR    | train:main:42 - "));
        f.put("syslog", log -> prefixed(log, "Mar  1 10:00:00 node12 job[4242]: "));
        f.put("journalctl -o short-iso", log -> prefixed(log, "2024-03-01T10:00:00+0000 node12 slurmstepd[4242]: "));
        f.put("container runtime (CRI)", log -> prefixed(log, "2024-03-01T10:00:00.123456789Z stderr F "));
        f.put("Go log", log -> prefixed(log, "2024/03/01 10:00:00 "));
        f.put("Open MPI --tag-output", log -> prefixed(log, "[1,3]<stderr>:"));
        f.put("pytest", log -> prefixed(log, "E       "));
        f.put("Markdown quote", log -> prefixed(log, "> "));
        f.put("indent", log -> prefixed(log, "    "));
        f.put("colour", log -> eachLine(log, l -> "\u001b[1;31m" + l + "\u001b[0m"));
        f.put("CRLF", log -> log.replace("\n", "\r\n"));
        f.put("progress bar", log -> eachLine(log, l -> " 3%|#   | 3/100\r 50%|#####  | 50/100\r" + l));
        f.put("HTML", log -> log.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#x27;"));
        f.put("terminal 80", log -> wrapped(log, 80));
        f.put("terminal 132", log -> wrapped(log, 132));
        f.put("word wrap 72 (mail)", log -> wordWrapped(log, 72));
        f.put("word wrap 80 (Rich, fmt)", log -> wordWrapped(log, 80));
        f.put("lowercased", log -> log.toLowerCase(java.util.Locale.ROOT));
        // a site wrapper that runs the real binaries as sbatch.real, srun.real: they print argv[0]'s base name
        f.put("renamed SLURM commands", log -> eachLine(log, l -> RENAMED.matcher(l).replaceAll("$1.real:")));
        f.put("typographic quotes read as Windows-1252", TextFormsTest::misDecoded);
        f.put("Markdown rendered", log -> eachLine(log, TextFormsTest::markdownRendered));
        return f;
    }

    /**
     * Readings known to change, each a limit of reading named in benchmark/README.md: two lines of one wrapped
     * message that start with the same five bytes (here two paths under /home or /scratch) are read as two records of a
     * logger.
     */
    static final List<String> KNOWN_LIMITS = List.of(
            "pub-file-not-found-028 as word wrap 72 (mail): file_not_found -> unknown",
            "pub-file-not-found-119 as word wrap 80 (Rich, fmt): file_not_found -> unknown",
            // bash's Chinese "command not found" (未找到命令) and "No such file or directory" (没有那个文件或目录),
            // mis-decoded, are no text any more
            "pub-file-not-found-077 as typographic quotes read as Windows-1252: file_not_found -> unknown",
            "pub-file-not-found-117 as typographic quotes read as Windows-1252: file_not_found -> unknown",
            // a cut line's short tail ("ctory") before a line that starts with a long path reads as a word wrapper's
            // break before a word that did not fit, so the path's line is read as the same message: the two records
            // join, and bash's "line 12: activate: No such file or directory" no longer ends its message. A word
            // wrapper leaves the same short line before a long path (mail, fmt), so the two cannot be told apart by
            // the break alone; ending the join after a terminal's cut broke seven word-wrapped readings instead
            "pub-none-408 as terminal 80: file_not_found -> unknown",
            "pub-none-408 as word wrap 72 (mail): file_not_found -> unknown",
            "pub-none-408 as word wrap 80 (Rich, fmt): file_not_found -> unknown");

    /**
     * The log with its ASCII quotes made typographic (as a UTF-8 locale's GNU tools and editors write them), then
     * its UTF-8 decoded as Windows-1252 by a tool that guessed the encoding (a byte that code page leaves undefined
     * kept as its C1 control, as browsers do) and written out again.
     */
    static String misDecoded(String log) {
        String typographic = java.util.Arrays.stream(log.split("\n", -1)).map(LogForms::typographicQuotes)
                .collect(java.util.stream.Collectors.joining("\n"));
        java.nio.charset.Charset cp1252 = java.nio.charset.Charset.forName("windows-1252");
        StringBuilder out = new StringBuilder();
        for (byte b : typographic.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            String ch = new String(new byte[] {b}, cp1252);
            out.append(ch.equals("\ufffd") ? (char) (b & 0xff) : ch.charAt(0));
        }
        return out.toString();
    }

    /** CommonMark's emphasis, approximated: a run opens before a non-space and closes after one, {@code _} not inside a word. */
    private static final java.util.regex.Pattern[] EMPHASIS = {
            java.util.regex.Pattern.compile("(?<!\\*)\\*\\*\\*(?=[^\\s*])(.*?[^\\s*])\\*\\*\\*(?!\\*)"),
            java.util.regex.Pattern.compile("(?<!\\*)\\*\\*(?=[^\\s*])(.*?[^\\s*])\\*\\*(?!\\*)"),
            java.util.regex.Pattern.compile("(?<!\\*)\\*(?=[^\\s*])(.*?[^\\s*])\\*(?!\\*)"),
            java.util.regex.Pattern.compile("(?<![\\w_])__(?=[^\\s_])(.*?[^\\s_])__(?![\\w_])"),
            java.util.regex.Pattern.compile("(?<![\\w_])_(?=[^\\s_])(.*?[^\\s_])_(?![\\w_])")};
    private static final java.util.regex.Pattern TAG = java.util.regex.Pattern.compile("</?[A-Za-z][A-Za-z0-9-]*(\\s[^<>]*)?/?>");
    private static final java.util.regex.Pattern ESCAPE = java.util.regex.Pattern.compile("\\\\([!-/:-@\\[-`{-~])");

    /**
     * A line as a Markdown renderer shows it when the log was pasted without a code fence (an issue, a wiki page) and
     * read back from the page: emphasis markers ({@code ***}, {@code **}, {@code *}, {@code __}, {@code _}) that pair
     * up are gone, tag-like words ({@code <stdin>}) are gone, backslash escapes are resolved, a heading's {@code #}s
     * are gone. A line indented four spaces is a code block and shows as written.
     */
    static String markdownRendered(String line) {
        if (line.startsWith("    ") || line.startsWith("\t")) {
            return line;
        }
        String out = line.replaceFirst("^ {0,3}#{1,6} ", "");
        for (java.util.regex.Pattern p : EMPHASIS) {
            out = p.matcher(out).replaceAll("$1");
        }
        out = TAG.matcher(out).replaceAll("");
        return ESCAPE.matcher(out).replaceAll("$1");
    }

    @Test
    void everyDevCaseReadsTheSameInEveryForm() throws IOException {
        Classifier c = ClassifierTest.CLASSIFIER;
        Map<String, UnaryOperator<String>> forms = forms();
        List<String> changed = new ArrayList<>();
        int cases = 0;
        int readings = 0;
        for (BenchmarkCasesTest.Case k : BenchmarkCasesTest.load()) {
            if (!k.split().equals("dev")) {
                continue;
            }
            cases++;
            String plain = c.classifyText(k.facts(), k.log()).kindId();
            for (Map.Entry<String, UnaryOperator<String>> form : forms.entrySet()) {
                String log = form.getValue().apply(k.log());
                if (log.equals(k.log())) {
                    continue; // the form does not apply (a terminal does not cut a log whose lines all fit)
                }
                readings++;
                String kind = c.classifyText(k.facts(), log).kindId();
                if (!kind.equals(plain)) {
                    changed.add(k.id() + " as " + form.getKey() + ": " + plain + " -> " + kind);
                }
            }
        }
        System.out.printf("text forms: %d dev cases, %d rewritten readings in %d forms, %d changed%n", cases, readings,
                forms.size(), changed.size());
        assertThat(cases).isGreaterThan(800);
        assertThat(changed).containsExactlyInAnyOrderElementsOf(KNOWN_LIMITS);
    }

    /**
     * Each line rewritten by {@code f}; a log that a terminal already cut (a line 72 to 80 wide, the widths the
     * collected logs were cut at, before another line) is left as it is: a prefix, a colour or a progress bar is
     * written before a terminal cuts the line, and would move the cut.
     */
    static String eachLine(String log, UnaryOperator<String> f) {
        return alreadyCut(log) ? log : rewritten(log.split("\n", -1), f);
    }

    /** Whether a terminal already cut the log as collected: a line 72 to 80 wide before another line. */
    static boolean alreadyCut(String log) {
        String[] lines = log.split("\n", -1);
        for (int i = 0; i + 1 < lines.length; i++) {
            if (lines[i].length() >= 72 && lines[i].length() <= 80 && !lines[i + 1].isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private static String rewritten(String[] lines, UnaryOperator<String> f) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            if (i > 0) {
                out.append('\n');
            }
            out.append(lines[i].isEmpty() && i == lines.length - 1 ? "" : f.apply(lines[i]));
        }
        return out.toString();
    }

    /**
     * Whether every character of the log takes one terminal column and one UTF-16 unit, so that cutting the string
     * at {@code width} chars is cutting it at that many columns: below U+1100 (Latin, Greek, Cyrillic, ...; not the
     * combining marks, which take none) or in U+2000-U+2E7F (quotes, dashes, arrows, box drawing, block elements).
     */
    private static boolean oneColumnEach(String log) {
        return log.chars().allMatch(ch -> ch < 0x1100 && !(ch >= 0x300 && ch <= 0x36F) || ch >= 0x2000 && ch <= 0x2E7F);
    }

    static String prefixed(String log, String prefix) {
        return eachLine(log, l -> prefix + l);
    }

    /**
     * The log as a terminal of {@code width} columns showed it: every longer line cut into pieces of that width. Only
     * for a log without {@code \r} (a terminal shows what {@code \r} left) whose characters take one column each
     * ({@link #oneColumnEach}: curly quotes, accents and box drawing do, East Asian wide ones not). And only when
     * the terminal cut two pieces at its width, so that the text shows the width: a single line of a usual width is as
     * often a record of its own, and the benign words at its start are then not read with the line after it.
     */
    private static String wrapped(String log, int width) {
        if (log.indexOf('\r') >= 0 || !oneColumnEach(log)) {
            return log;
        }
        long pieces = Arrays.stream(log.split("\n", -1)).mapToLong(l -> l.length() / width - (l.length() % width == 0 ? 1 : 0))
                .filter(n -> n > 0).sum();
        if (pieces < 2) {
            return log;
        }
        return rewritten(log.split("\n", -1), l -> {
            StringBuilder b = new StringBuilder();
            String rest = l;
            while (rest.length() > width) {
                b.append(rest, 0, width).append('\n');
                rest = rest.substring(width);
            }
            return b.append(rest).toString();
        });
    }

    /**
     * The log as a word wrapper of {@code width} columns printed it (a mail client, Python's textwrap, Rich off a
     * terminal, {@code fmt}): every longer line broken at its last space that fits, the space dropped, a word longer
     * than the width cut. Only for a log a terminal would show, as above; not on a log a terminal already
     * cut (the wrapper would break its pieces again); and only when two of the wrapper's breaks left a line of 60
     * columns or more, so that the text shows its width (a wrapper whose every break came early shows none).
     */
    private static String wordWrapped(String log, int width) {
        if (log.indexOf('\r') >= 0 || !oneColumnEach(log) || alreadyCut(log)) {
            return log;
        }
        int[] fullBreaks = {0};
        String out = rewritten(log.split("\n", -1), l -> {
            StringBuilder b = new StringBuilder();
            String rest = l;
            while (rest.length() > width) {
                int cut = rest.lastIndexOf(' ', width);
                String piece = cut < 0 ? "" : rest.substring(0, cut).stripTrailing();
                if (piece.isBlank()) {
                    b.append(rest, 0, width).append('\n'); // a word longer than the width: cut
                    rest = rest.substring(width);
                } else {
                    b.append(piece).append('\n'); // the spaces at the break are dropped, as textwrap does
                    fullBreaks[0] += piece.length() >= 60 ? 1 : 0;
                    rest = rest.substring(cut).stripLeading();
                }
            }
            return b.append(rest).toString();
        });
        return fullBreaks[0] >= 2 ? out : log;
    }
}
