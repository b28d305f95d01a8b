package io.slurmwise.cli.render;

import io.slurmwise.classify.Evidence;
import io.slurmwise.classify.Finding;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.diagnose.Explanation;
import io.slurmwise.diagnose.FixNote;
import io.slurmwise.diagnose.PendingInfo;
import io.slurmwise.diagnose.PendingReasons;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.patch.Patch;
import io.slurmwise.taxonomy.Note;

import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Terminal panels for diagnoses and findings. The default panel puts the fix first and fits a screen: the cause,
 * the deciding evidence, the job's numbers in one line, the patch and the top items of the Fixes section.
 * {@code full} shows everything: the explanation, every retrieved note section with its score, the whole diff
 * and the advice.
 */
public final class DiagnosisRenderer {

    private static final int MAX_EVIDENCE = 5;
    /** Evidence lines, fix items and lines per fix item of the compact panel. */
    private static final int COMPACT_EVIDENCE = 3;
    private static final int COMPACT_FIXES = 3;
    private static final int COMPACT_FIX_LINES = 2;
    private final Style style;
    private final boolean full;
    private final java.util.function.LongFunction<java.util.Optional<String>> userNames;

    public DiagnosisRenderer(Style style) {
        this(style, false);
    }

    public DiagnosisRenderer(Style style, boolean full) {
        this(style, full, io.slurmwise.job.UserNames::local);
    }

    /** @param userNames who a uid is ({@code CANCELLED by 0} reads {@code CANCELLED by root}, as {@code jobs} shows it) */
    public DiagnosisRenderer(Style style, boolean full, java.util.function.LongFunction<java.util.Optional<String>> userNames) {
        this.style = style;
        this.full = full;
        this.userNames = userNames;
    }

    /**
     * {@code job 1001 train_llama_sft [OUT_OF_MEMORY] exit 0:125 00:41:12/08:00:00}; a long name is cut, and who
     * cancelled a job is named as {@code jobs} names them.
     */
    public String headline(JobRecord j) {
        String elapsed = j.elapsed() == null ? "?" : SlurmTime.format(j.elapsed());
        String state = " [" + style.state(j.outcome(), TerminalText.line(io.slurmwise.job.UserNames.describe(j.status(), userNames))) + "]";
        // a pending job has no exit and no time run yet (sacct's 0:0 and 00:00:00): what it asks for instead
        // a job that set no --time asks its partition's default ("asks partition default" read as a partition's name)
        String asks = j.timeLimit().kind() == io.slurmwise.job.TimeLimit.Kind.PARTITION_LIMIT ? "the default time"
                : j.timeLimit().human();
        String rest = j.state() == io.slurmwise.job.JobState.PENDING ? state + " asks " + asks
                : state + " exit " + (j.exitCode() == null ? "?" : j.exitCode()) + " " + elapsed + "/" + j.timeLimit().human();
        String head = "job " + j.id() + " ";
        int room = style.width() - 3 - head.length() - Panel.visibleLength(rest);
        return head + Panel.truncate(j.name() == null ? "" : TerminalText.line(j.name()), Math.max(8, room)) + rest;
    }

    /** The job being printed: the --patch command the full view names. */
    private String jobId = "<jobid>";

    public void print(PrintWriter out, Diagnosis d, String backendReason) {
        jobId = d.jobId().toString();
        // exhaustive: a new kind of diagnosis does not compile here until it is printed
        d.<Runnable>fold(nf -> () -> out.println(TerminalText.text(nf.message())), so -> () -> printStatus(out, so),
                f -> () -> printFailed(out, f, backendReason)).run();
        out.flush();
    }

    private void printStatus(PrintWriter out, Diagnosis.StatusOnly so) {
        PendingInfo p = so.pending();
        if (p == null) {
            // a running or completed job's one line, wrapped at the terminal's width like every other answer
            for (String l : Panel.fit(TerminalText.text(so.summary()), style.width())) {
                out.println(l);
            }
            return;
        }
        Panel panel = new Panel(style, headline(so.job()));
        panel.row("Waiting", TerminalText.line(p.reason() + ": " + p.meaning()));
        String can = switch (p.startability()) {
            case WILL -> style.green("yes, without changes");
            case MAY -> style.yellow("maybe, if the cluster changes");
            case NEVER -> style.red("never, as submitted");
            case HELD -> style.yellow("once released, with nothing else changed");
        };
        panel.row("Can start", can);
        panel.row("Asks", TerminalText.line(request(so.job())));
        if (p.finding() != null) {
            // a job that will start is not refused: the kind's title ("Job request refused") beside "yes, without
            // changes" told two answers (1052 waits for a maintenance reservation; an outside audit)
            panel.row("Kind", p.startability() == PendingReasons.Startability.WILL
                    ? "a wait, not a failure; if it is too long, see the " + p.finding().kindId() + " fixes below"
                    : p.finding().kind().title() + " (" + p.finding().kindId() + ")");
        }
        // the fix first: the patch (when the request can never start as it is), then the notes
        p.optPatch().ifPresent(patch -> addPatch(panel, patch));
        if (p.finding() != null) {
            addFixes(panel, p.fixes(), p.finding().kind().note());
        }
        for (String n : p.notices()) {
            panel.row("Note", style.yellow(TerminalText.text(n)));
        }
        panel.footer("rules · pending reason from the scheduler").print(out);
    }

    private void printFailed(PrintWriter out, Diagnosis.Failed f, String backendReason) {
        JobRecord j = f.job();
        Panel panel = new Panel(style, headline(j));
        addFinding(panel, f.finding());
        if (full) {
            if (j.maxRss() != null || j.memoryLimit().isPresent()) {
                panel.row("Memory", "peak " + j.memoryPeakText().orElse("unknown") + " of "
                        + j.memoryLimitText().orElse("?") + " requested");
            }
            panel.row("Resources", TerminalText.line(resources(j)));
            addExplanation(panel, f.explanation());
            addFixes(panel, f.fixes(), f.finding().kind().note());
            addPatch(panel, f.patch());
        } else {
            panel.row("Job", TerminalText.line(numbers(j)));
            if (f.explanation().source().startsWith("llm:")) {
                panel.row(whyLabel(f.explanation()), Panel.truncateLines(TerminalText.text(f.explanation().text()), style.width() - 16, 2,
                        "(--full)"));
            }
            addPatch(panel, f.patch());
            addFixes(panel, f.fixes(), f.finding().kind().note());
        }
        for (String n : f.notices()) {
            panel.row("Note", style.yellow(TerminalText.text(n)));
        }
        if (!full) {
            panel.line(style.dim("More: --full (why, what to check, cause, prevention, scores, whole diff)"));
        }
        panel.footer(f.method() + f.explanation().optNote().map(n -> " · " + style.yellow(TerminalText.line(shortNote(n))))
                .orElse("") + " · " + TerminalText.line(backendReason) + (j.user() == null ? "" : " · "
                + TerminalText.line(j.user()))).print(out);
    }

    private static String resources(JobRecord j) {
        return j.cpus() + " CPU" + (j.gpus() > 0 ? ", " + j.gpus() + " GPU"
                + j.gpuModel().map(m -> " (" + m + ")").orElse("") : "")
                + (j.nodeList() == null ? "" : j.noNodeAssigned() ? ", no node (never started)" : " on " + j.nodeList())
                + (j.partition() == null ? "" : ", partition " + j.partition());
    }

    /**
     * What a pending job asks for, in one line: CPUs and GPUs, memory, nodes, partition and time, so that its reason
     * ("Resources", "QOSMaxGRESPerUser") reads against the request it is about.
     */
    static String request(JobRecord j) {
        List<String> parts = new java.util.ArrayList<>();
        if (j.cpus() > 0 || j.gpus() > 0) {
            parts.add(j.cpus() + " CPU" + (j.gpus() > 0 ? ", " + j.gpus() + " GPU"
                    + j.gpuModel().map(m -> " " + m).orElse("") : ""));
        }
        j.memoryLimitText().ifPresent(parts::add);
        if (j.nodes() > 1) {
            parts.add(j.nodes() + " nodes");
        }
        if (j.partition() != null) {
            parts.add("partition " + j.partition());
        }
        parts.add(j.timeLimit().kind() == io.slurmwise.job.TimeLimit.Kind.PARTITION_LIMIT ? "the partition's default time"
                : "time " + j.timeLimit().human());
        return String.join(" · ", parts);
    }

    /** The job's key numbers in one line: memory peak of limit, CPUs and GPUs, nodes, partition. */
    private static String numbers(JobRecord j) {
        List<String> parts = new java.util.ArrayList<>();
        if (j.maxRss() != null || j.memoryLimit().isPresent()) {
            parts.add("memory peak " + j.memoryPeakText().orElse("unknown") + " of "
                    + j.memoryLimitText().orElse("?"));
        }
        if (j.cpus() > 0 || j.gpus() > 0) { // a job that never started was allocated nothing: no "0 CPU"
            parts.add(j.cpus() + " CPU" + (j.gpus() > 0 ? ", " + j.gpus() + " GPU"
                    + j.gpuModel().map(m -> " " + m).orElse("") : ""));
        }
        if (j.nodeList() != null) {
            parts.add(j.noNodeAssigned() ? "no node (never started)" : j.nodeList());
        }
        if (j.partition() != null) {
            parts.add("partition " + j.partition());
        }
        return String.join(" · ", parts);
    }

    /** "the model's answer was set aside: it names another cause, nccl ("…"); …" -> "model's words set aside: names another cause, nccl". */
    static String shortNote(String note) {
        return io.slurmwise.agent.explain.ExplanationGuard.unquoted(note)
                .replaceFirst("^the model's answer was set aside: (it )?", "model's words set aside: ")
                .replaceFirst("; the template worded this$", "");
    }

    /**
     * The suggested sbatch change. Full: what and why, the unified diff (never applied) and advice. Compact: the
     * changed lines of the diff and one line of why per change.
     */
    private void addPatch(Panel panel, Patch patch) {
        if (!full) {
            addCompactPatch(panel, patch);
            return;
        }
        patch.<Runnable>fold(s -> () -> addSuggested(panel, s), n -> () -> addNotSuggested(panel, n)).run();
        for (String a : patch.advice()) {
            panel.item("›", TerminalText.text(a));
        }
    }

    private void addSuggested(Panel panel, Patch.Suggested s) {
        {
            // the panel is for reading; the file to apply comes whole from --patch (a panel's borders and its
            // width cannot give a diff that applies)
            panel.heading("Patch " + style.dim("(suggested, never applied: review it, then `slurmwise diagnose "
                    + TerminalText.line(jobId) + " --patch > fix.patch` and `patch <your script> < fix.patch`)"));
            for (Patch.Change c : s.changes()) {
                panel.item("+", TerminalText.text(c.what()) + style.dim(" — " + TerminalText.text(c.why())));
            }
            for (String line : s.diff().split("\n")) {
                // a line wider than the panel goes on under ↪, never cut: --full shows the whole diff
                List<String> parts = Panel.hardWrap(TerminalText.line(line), style.width() - 4);
                panel.verbatim(diffLine(parts.get(0)));
                parts.stream().skip(1).forEach(p -> panel.verbatim(style.dim("↪ ") + p));
            }
        }
    }

    private void addNotSuggested(Panel panel, Patch.NotSuggested n) {
        panel.row("Patch", style.dim(TerminalText.text(n.reason())));
        for (Patch.Change c : n.changes()) {
            panel.item("+", TerminalText.text(c.what()) + style.dim(" — " + TerminalText.text(c.why())));
        }
    }

    private void addCompactPatch(Panel panel, Patch patch) {
        if (patch instanceof Patch.Suggested s) {
            panel.row("Patch", TerminalText.line(s.scriptName()) + style.dim(" · suggested, never applied · --full for the diff"));
            for (String line : s.diff().split("\n")) {
                if ((line.startsWith("+") || line.startsWith("-")) && !line.startsWith("+++") && !line.startsWith("---")) {
                    panel.verbatim(diffLine(TerminalText.line(line)));
                }
            }
            for (Patch.Change c : s.changes()) {
                panel.line("  " + style.dim("› " + Panel.truncate(TerminalText.line(c.why()), style.width() - 6)));
            }
        } else if (patch instanceof Patch.NotSuggested n) {
            if (n.changes().isEmpty() && n.advice().isEmpty()) {
                return;
            }
            panel.row("Patch", style.dim(Panel.truncate(TerminalText.line(n.reason()), style.width() - 16)));
            for (Patch.Change c : n.changes()) {
                panel.item("+", Panel.truncateLines(TerminalText.text(c.what() + " — " + c.why()), style.width() - 9, 2, ""));
            }
        }
        // the first advice (what no line of the diff can say: a longer partition, a bigger node, a network to test)
        if (!patch.advice().isEmpty()) {
            panel.item("›", Panel.truncateLines(TerminalText.text(patch.advice().get(0)), style.width() - 9, 2, ""));
        }
    }

    private String diffLine(String line) {
        if (line.startsWith("+++") || line.startsWith("---")) {
            return style.bold(line);
        }
        if (line.startsWith("@@")) {
            return style.cyan(line);
        }
        if (line.startsWith("+")) {
            return style.green(line);
        }
        if (line.startsWith("-")) {
            return style.red(line);
        }
        return line;
    }

    /** The finding of a bare log (classify). */
    public void printFinding(PrintWriter out, String title, Finding finding, List<FixNote> fixes, Explanation e) {
        Panel panel = new Panel(style, TerminalText.line(title));
        addFinding(panel, finding);
        addExplanation(panel, e);
        addFixes(panel, fixes, finding.kind().note());
        panel.footer("rules · no cluster").print(out);
    }

    private void addFinding(Panel panel, Finding f) {
        String conf = String.format(Locale.ROOT, "%.0f%%", f.confidence() * 100);
        String cause = f.isUnknown()
                ? style.yellow("no failure recognised") + (f.weakSigns().isEmpty()
                ? " · no known signature matched the logs or the record"
                : " · signs too weak to decide: " + f.weakSigns() + " (a cause needs " + Finding.bar() + ")")
                : style.bold(style.red(f.kind().title())) + " (" + f.kindId()
                + f.kind().optParent().map(p -> ", a kind of " + p).orElse("") + ") · confidence " + conf + " · rules";
        panel.row("Cause", cause);
        if (!f.evidence().isEmpty()) {
            panel.heading("Evidence");
            // a message every rank or worker printed is one line, with how many printed it (1009's five lmp lines)
            List<Alike> ev = alike(full ? f.evidence() : deciding(f));
            for (int i = 0; i < Math.min(full ? MAX_EVIDENCE : COMPACT_EVIDENCE, ev.size()); i++) {
                Alike a = ev.get(i);
                // the classifier keeps a few lines of a kind: as many as it keeps may stand for more
                String where = a.evidence().location() + (a.count() > 1 ? " ×" + a.count()
                        + (a.count() >= Finding.MAX_EVIDENCE_PER_KIND ? "+" : "") : "");
                // the deciding line may take two lines in the compact view, the others one
                panel.item(style.dim(pad(TerminalText.line(where))),
                        logLine(a.evidence(), full ? Integer.MAX_VALUE : i == 0 ? 2 : 1, where));
            }
        }
        if (!f.leads().isEmpty()) {
            // no rule decided: where to start reading, said as such (these lines are not evidence of a cause)
            panel.heading("Read first");
            f.leads().forEach(e -> panel.item(style.dim(pad(TerminalText.line(e.location()))), logLine(e, full ? Integer.MAX_VALUE : 1)));
        }
        if (full && !f.others().isEmpty() && !f.isUnknown()) { // an unknown's weak signs are in its cause row
            panel.row("Also seen", String.join(", ", f.others().stream()
                    .map(o -> o.kindId() + String.format(Locale.ROOT, " (%.2f)", o.score())).toList()));
        }
    }

    /** A log line in the evidence column, in at most {@code maxLines} lines, the part with its match shown. */
    private String logLine(Evidence e, int maxLines) {
        return logLine(e, maxLines, "");
    }

    /** The same beside a location label, which may be wider than the column's 12 ({@code stderr:1204 ×16}). */
    private String logLine(Evidence e, int maxLines, String label) {
        return Panel.logLine(TerminalText.line(e.text()), e.match() == null ? null : TerminalText.line(e.match()),
                style.width() - 19 - Math.max(0, label.length() - 12), maxLines);
    }

    /**
     * A piece of evidence and how many of the pieces given read the same but for numbers: the first of them stands
     * for all.
     */
    record Alike(Evidence evidence, int count) {
    }

    private static final Pattern NUMBERS = Pattern.compile("0x[0-9a-fA-F]+|\\d+");

    /**
     * The evidence with log lines that differ only in their numbers (a rank, a worker, a timestamp, an address: the
     * same message from every MPI rank or DataLoader worker) or in what precedes the matched message kept once, at the
     * first, counted; in order.
     */
    /** The shortest tail of a message that still says it: from the match on, when that is long enough to tell. */
    private static final int MESSAGE_TAIL = 24;

    /**
     * A log line's message without the prefix a program or launcher put before it: the text from the match on when
     * that tail is at least {@value #MESSAGE_TAIL} characters (1028's {@code [rank2]:[E1113 ...] ... CUDA error: an
     * illegal memory access was encountered} and the same error after {@code what():}), else the whole line.
     */
    static String message(Evidence e) {
        String t = e.text();
        int at = e.match() == null || e.match().isEmpty() ? -1 : t.indexOf(e.match());
        return at >= 0 && t.length() - at >= MESSAGE_TAIL ? t.substring(at) : t;
    }

    static List<Alike> alike(List<Evidence> evidence) {
        Map<String, Integer> at = new java.util.HashMap<>();
        List<Evidence> first = new java.util.ArrayList<>();
        List<Integer> counts = new java.util.ArrayList<>();
        for (Evidence e : evidence) {
            String key = e.isLogLine() ? e.kindId() + "\u0000" + NUMBERS.matcher(message(e)).replaceAll("#").strip() : null;
            Integer i = key == null ? null : at.get(key);
            if (i == null) {
                if (key != null) {
                    at.put(key, first.size());
                }
                first.add(e);
                counts.add(1);
            } else {
                counts.set(i, counts.get(i) + 1);
            }
        }
        List<Alike> out = new java.util.ArrayList<>(first.size());
        for (int i = 0; i < first.size(); i++) {
            out.add(new Alike(first.get(i), counts.get(i)));
        }
        return out;
    }

    /**
     * The evidence, deciding line first: the strongest, a log line before an accounting field of the same
     * weight (1001's oom-kill line, not its killed DataLoader worker); then the checks (the job's own numbers),
     * the other log lines and the accounting fields the headline already shows.
     */
    static List<Evidence> deciding(Finding f) {
        List<Evidence> sorted = f.strongestFirst();
        if (sorted.isEmpty()) {
            return sorted;
        }
        List<Evidence> out = new java.util.ArrayList<>(List.of(sorted.get(0)));
        sorted.stream().skip(1).sorted(java.util.Comparator.comparingInt((Evidence e) -> switch (e.source()) {
            case CHECK -> 0;
            case STDERR, STDOUT -> 1;
            case ACCOUNTING -> 2;
        }).thenComparing((Evidence e) -> -e.weight()).thenComparing(e -> e.isLogLine() ? 0 : 1)).forEach(out::add);
        return out;
    }

    private static String pad(String s) {
        return s.length() >= 12 ? s : s + " ".repeat(12 - s.length());
    }

    private void addExplanation(Panel panel, Explanation e) {
        if (e != null) {
            panel.row(whyLabel(e), TerminalText.text(e.text()));
        }
    }

    /**
     * The explanation's row: {@code Why (model)} when a language model worded it, so its words are never read as the
     * rules' (an outside audit: a model's advice under "Why" read as slurmwise's own, with only the footer's llm:
     * saying otherwise).
     */
    static String whyLabel(Explanation e) {
        return e.source().startsWith("llm:") ? "Why (model)" : "Why";
    }

    /** The columns a panel item's text gets after {@code prefix} (as {@link Panel#item} wraps it). */
    private int itemWidth(String prefix) {
        return style.width() - (2 + Panel.visibleLength(prefix) + 1) - 4;
    }

    /** Markdown emphasis around words: {@code **bold**}, {@code *emphasis*}. */
    private static final Pattern EMPHASIS = Pattern.compile("\\*\\*([^*\\n]+?)\\*\\*|(?<![\\w*])\\*([^*\\s][^*\\n]*?)\\*(?![\\w*])");

    /**
     * A note's text as the full view shows it: paragraphs ({@link #reflow}), the fence lines of code blocks left out
     * and their code lines never re-wrapped at their spaces (copied, the pieces would run as other commands: a line
     * wider than {@code width} goes on under {@code ↪}, as the diff does), and Markdown's emphasis markers taken off
     * the words outside inline code (an outside audit found {@code **The allocation is used up.**} and fences printed
     * as they are).
     */
    static List<String> fullText(String text, int width) {
        List<String> out = new java.util.ArrayList<>();
        boolean fence = false;
        for (String line : reflow(text)) {
            if (line.strip().startsWith("```")) {
                fence = !fence;
                continue;
            }
            if (!fence) {
                out.add(plain(line));
                continue;
            }
            int room = Math.max(20, width);
            String rest = line;
            boolean first = true;
            while (Panel.visibleLength(rest) > room) {
                int cut = first ? room : room - 2;
                out.add((first ? "" : "↪ ") + rest.substring(0, cut));
                rest = rest.substring(cut);
                first = false;
            }
            out.add((first ? "" : "↪ ") + rest);
        }
        return out;
    }

    /** {@code line} with Markdown's emphasis markers taken off the words outside inline code. */
    static String plain(String line) {
        if (line.indexOf('*') < 0) {
            return line;
        }
        StringBuilder out = new StringBuilder();
        String[] parts = line.split("`", -1);
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) {
                out.append('`');
            }
            // even parts are outside code spans; a lone backtick leaves the rest as it is
            boolean code = i % 2 == 1 && i < parts.length - (parts.length % 2 == 0 ? 1 : 0);
            out.append(code ? parts[i] : EMPHASIS.matcher(parts[i]).replaceAll(m ->
                    Matcher.quoteReplacement(m.group(1) != null ? m.group(1) : m.group(2))));
        }
        return out.toString();
    }

    /** A list entry's first line: {@code - }, {@code * }, {@code 1. }, {@code 2) }. */
    private static final Pattern LIST_ENTRY = Pattern.compile("^\\s*(?:[-*+]|\\d{1,2}[.)])\\s");

    /**
     * A note's text as paragraphs, one per line, for the panel to wrap to its width: the note's own line breaks (made
     * at 80 columns in the file, then moved by the job's facts filled in) would leave short orphan lines, and a line
     * break inside inline code would split it. Fenced code, blank lines, list entries and table rows keep their lines.
     */
    static List<String> reflow(String text) {
        List<String> out = new java.util.ArrayList<>();
        StringBuilder para = null;
        boolean fence = false;
        for (String line : text.split("\n", -1)) {
            String t = line.strip();
            boolean keep = fence || t.isEmpty() || t.startsWith("```") || t.startsWith("|");
            if (t.startsWith("```")) {
                fence = !fence;
            }
            if (keep || para == null || LIST_ENTRY.matcher(line).find()) {
                if (para != null) {
                    out.add(para.toString());
                }
                para = keep ? null : new StringBuilder(line.stripTrailing());
                if (keep) {
                    out.add(line.stripTrailing());
                }
            } else {
                para.append(' ').append(t);
            }
        }
        if (para != null) {
            out.add(para.toString());
        }
        while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
            out.remove(out.size() - 1);
        }
        return out;
    }

    /** Lines of a section shown after the first one; the whole note is one command away. */
    private static final int MORE_LINES = 5;

    /**
     * The retrieved sections, best first, each titled with its note, section, score and path: the first one and
     * every Fixes section whole (Fixes as numbered items), the others cut to a few lines.
     */
    private void addFixes(Panel panel, List<FixNote> fixes, Note note) {
        if (fixes.isEmpty()) {
            return;
        }
        if (!full) {
            addTopFixes(panel, fixes);
            return;
        }
        panel.heading("Fix notes " + style.dim("(best first; score, note)"));
        boolean first = true;
        for (FixNote n : fixes) {
            panel.item("▸", style.bold(n.kindId() + " › " + n.section())
                    + style.dim(String.format(Locale.ROOT, " · %.2f · %s", n.score(), n.source())));
            // a Fixes section's items were parsed once, when the note was loaded
            List<String> items = "fixes".equalsIgnoreCase(n.section()) ? n.items() : List.of();
            if (!items.isEmpty()) {
                for (int i = 0; i < items.size(); i++) {
                    String prefix = "  " + (i + 1) + ".";
                    panel.item(prefix, String.join("\n", fullText(items.get(i), itemWidth(prefix))));
                }
            } else {
                // whole paragraphs, as many as fill about MORE_LINES lines of the panel
                List<String> lines = fullText(n.text(), itemWidth("  "));
                int show = lines.size();
                if (!first) {
                    int shown = 0;
                    show = 0;
                    while (show < lines.size() && shown < MORE_LINES) {
                        shown += Math.max(1, Panel.wrap(lines.get(show), style.width() - 10).size());
                        show++;
                    }
                }
                for (int i = 0; i < show; i++) {
                    panel.item("  ", lines.get(i));
                }
                if (show < lines.size()) {
                    long more = lines.subList(show, lines.size()).stream().filter(l -> !l.isBlank()).count();
                    panel.item("  ", style.dim("… " + more + (more == 1 ? " more paragraph" : " more paragraphs")
                            + ": slurmwise kb show " + n.kindId()));
                }
            }
            first = false;
        }
    }

    /** Longest code block shown inline in the compact view; a longer one shows its first command and an ellipsis. */
    private static final int INLINE_CODE = 80;
    /** A fenced code block (its info string dropped), or an unclosed one running to the item's end. */
    private static final Pattern FENCED = Pattern.compile("(?s)```[^\n]*\n?(.*?)(```|$)");

    /**
     * A fix item on one line: each fenced code block becomes inline code of its commands (shebang, comments and blank
     * lines left out, joined by {@code ; }), or its first command and an ellipsis when that would be long, so the
     * sentence around it still reads ("start the batch script with `set -euo pipefail; set -x` so ...").
     */
    static String compactItem(String item) {
        Matcher m = FENCED.matcher(item);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            List<String> cmds = m.group(1).lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !(l.startsWith("#") && !l.startsWith("#SBATCH")))
                    .toList();
            String code = String.join("; ", cmds);
            if (code.length() > INLINE_CODE && !cmds.isEmpty()) {
                code = cmds.get(0) + (cmds.size() > 1 ? "; …" : "");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(code.isEmpty() ? " " : " `" + code + "` "));
        }
        m.appendTail(out);
        // a space left before punctuation by a removed block goes, but not the one of a command's "./prog"
        return out.toString().replaceAll("\\s+", " ").replaceAll(" ([,.;:])(?=\\s|$)", "$1").strip();
    }

    /**
     * The first items of the best Fixes section, each in at most two lines (code blocks as inline commands, whole with
     * --full), with
     * where the rest is.
     */
    private void addTopFixes(Panel panel, List<FixNote> fixes) {
        FixNote best = fixes.stream().filter(n -> "fixes".equalsIgnoreCase(n.section())).findFirst().orElse(null);
        if (best == null) {
            return;
        }
        List<String> items = best.items();
        if (items.isEmpty()) {
            items = List.of(best.text());
        }
        // the command names the kind: where both do not fit, the kind is said once, and the command stays whole
        String all = "all of them: slurmwise kb show " + best.kindId();
        String heading = "Fixes (" + best.kindId() + "; " + all + ")";
        panel.heading(Panel.visibleLength(heading) <= style.width() - 2 ? "Fixes " + style.dim("(" + best.kindId() + "; "
                + all + ")") : "Fixes " + style.dim("(" + all + ")"));
        for (int i = 0; i < Math.min(COMPACT_FIXES, items.size()); i++) {
            String text = compactItem(items.get(i));
            panel.item((i + 1) + ".", Panel.truncateLines(text, style.width() - 9, COMPACT_FIX_LINES, ""));
        }
    }
}
