package io.slurmwise.cli.render;

import io.slurmwise.classify.Evidence;
import io.slurmwise.classify.Finding;
import io.slurmwise.diagnose.Diagnosis;
import io.slurmwise.diagnose.Explanation;
import io.slurmwise.diagnose.FixNote;
import io.slurmwise.diagnose.PendingInfo;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.patch.Patch;
import io.slurmwise.taxonomy.Note;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/** Terminal panels for diagnoses and findings. */
public final class DiagnosisRenderer {

    private static final int MAX_EVIDENCE = 5;
    private final Style style;

    public DiagnosisRenderer(Style style) {
        this.style = style;
    }

    /** {@code job 1001 train_llama_sft [OUT_OF_MEMORY] exit 0:125 00:41:12/08:00:00} */
    public String headline(JobRecord j) {
        String elapsed = j.elapsed() == null ? "?" : SlurmTime.format(j.elapsed());
        return "job " + j.id() + " " + j.name() + " [" + style.state(j.status().toString()) + "] exit "
                + (j.exitCode() == null ? "?" : j.exitCode()) + " " + elapsed + "/" + j.timeLimit();
    }

    public void print(PrintWriter out, Diagnosis d, String backendReason) {
        if (d instanceof Diagnosis.NotFound nf) {
            out.println(nf.message());
        } else if (d instanceof Diagnosis.StatusOnly so) {
            printStatus(out, so);
        } else if (d instanceof Diagnosis.Failed f) {
            printFailed(out, f, backendReason);
        }
        out.flush();
    }

    private void printStatus(PrintWriter out, Diagnosis.StatusOnly so) {
        PendingInfo p = so.pending();
        if (p == null) {
            out.println(so.summary());
            return;
        }
        Panel panel = new Panel(style, headline(so.job()));
        panel.row("Waiting", p.reason() + ": " + p.meaning());
        String can = switch (p.startability()) {
            case WILL -> style.green("yes, without changes");
            case MAY -> style.yellow("maybe, if the cluster changes");
            case NEVER -> style.red("never, as submitted");
        };
        panel.row("Can start", can);
        if (p.finding() != null) {
            panel.row("Kind", p.finding().kind().title() + " (" + p.finding().kindId() + ")");
            addFixes(panel, p.fixes(), p.finding().kind().note());
        }
        p.optPatch().ifPresent(patch -> addPatch(panel, patch));
        panel.footer("rules · pending reason from the scheduler").print(out);
    }

    private void printFailed(PrintWriter out, Diagnosis.Failed f, String backendReason) {
        JobRecord j = f.job();
        Panel panel = new Panel(style, headline(j));
        addFinding(panel, f.finding());
        if (j.maxRss() != null || j.memoryLimit().isPresent()) {
            panel.row("Memory", "peak " + (j.maxRss() == null ? "unknown" : j.maxRss().toString()) + " of "
                    + j.memoryLimit().map(Object::toString).orElse("?") + " requested");
        }
        panel.row("Resources", j.cpus() + " CPU" + (j.gpus() > 0 ? ", " + j.gpus() + " GPU"
                + j.allocTres().gpuModel().map(m -> " (" + m + ")").orElse("") : "")
                + (j.nodeList() == null ? "" : " on " + j.nodeList())
                + (j.partition() == null ? "" : ", partition " + j.partition()));
        addExplanation(panel, f.explanation());
        addFixes(panel, f.fixes(), f.finding().kind().note());
        addPatch(panel, f.patch());
        for (String n : f.notices()) {
            panel.row("Note", style.yellow(n));
        }
        panel.footer(f.method() + " · " + backendReason + (j.user() == null ? "" : " · " + j.user()))
                .print(out);
    }

    /** The suggested sbatch change: what and why, the unified diff (never applied), and advice. */
    private void addPatch(Panel panel, Patch patch) {
        if (patch instanceof Patch.Suggested s) {
            panel.heading("Patch " + style.dim("(suggested, never applied: review it, save it as fix.patch, then "
                    + "`patch <your script> < fix.patch`)"));
            for (Patch.Change c : s.changes()) {
                panel.item("+", c.what() + style.dim(" — " + c.why()));
            }
            for (String line : s.diff().split("\n")) {
                panel.verbatim(diffLine(line));
            }
        } else if (patch instanceof Patch.NotSuggested n) {
            panel.row("Patch", style.dim(n.reason()));
            for (Patch.Change c : n.changes()) {
                panel.item("+", c.what() + style.dim(" — " + c.why()));
            }
        }
        for (String a : patch.advice()) {
            panel.item("›", a);
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
        Panel panel = new Panel(style, title);
        addFinding(panel, finding);
        addExplanation(panel, e);
        addFixes(panel, fixes, finding.kind().note());
        panel.footer("rules · no cluster").print(out);
    }

    private void addFinding(Panel panel, Finding f) {
        String conf = String.format(Locale.ROOT, "%.0f%%", f.confidence() * 100);
        String cause = f.isUnknown()
                ? style.yellow("unknown") + " · no known signature (confidence none applies " + conf + ")"
                : style.bold(style.red(f.kind().title())) + " (" + f.kindId()
                + f.kind().optParent().map(p -> ", a kind of " + p).orElse("") + ") · confidence " + conf + " · rules";
        panel.row("Cause", cause);
        if (!f.evidence().isEmpty()) {
            panel.heading("Evidence");
            f.evidence().stream().limit(MAX_EVIDENCE).forEach(e -> panel.item(style.dim(pad(e.location())), e.text()));
        }
        if (!f.others().isEmpty()) {
            panel.row("Also seen", String.join(", ", f.others().stream()
                    .map(o -> o.kindId() + String.format(Locale.ROOT, " (%.2f)", o.score())).toList()));
        }
    }

    private static String pad(String s) {
        return s.length() >= 12 ? s : s + " ".repeat(12 - s.length());
    }

    private void addExplanation(Panel panel, Explanation e) {
        if (e != null) {
            panel.row("Why", e.text());
        }
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
        panel.heading("Fix notes " + style.dim("(best first; score, note)"));
        boolean first = true;
        for (FixNote n : fixes) {
            panel.item("▸", style.bold(n.kindId() + " › " + n.section())
                    + style.dim(String.format(Locale.ROOT, " · %.2f · %s", n.score(), n.source())));
            // a Fixes section's items were parsed once, when the note was loaded
            List<String> items = "fixes".equalsIgnoreCase(n.section()) ? n.items() : List.of();
            if (!items.isEmpty()) {
                for (int i = 0; i < items.size(); i++) {
                    panel.item("  " + (i + 1) + ".", items.get(i));
                }
            } else {
                List<String> lines = n.text().lines().toList();
                int show = first ? lines.size() : Math.min(lines.size(), MORE_LINES);
                for (int i = 0; i < show; i++) {
                    panel.item("  ", lines.get(i));
                }
                if (show < lines.size()) {
                    int more = lines.size() - show;
                    panel.item("  ", style.dim("… " + more + (more == 1 ? " more line" : " more lines")
                            + ": slurmwise kb show " + n.kindId()));
                }
            }
            first = false;
        }
    }
}
