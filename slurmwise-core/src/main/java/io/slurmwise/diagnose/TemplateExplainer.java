package io.slurmwise.diagnose;

import io.slurmwise.classify.Evidence;
import io.slurmwise.classify.Finding;
import io.slurmwise.job.JobRecord;
import io.slurmwise.job.SlurmTime;

import java.util.List;
import java.util.Locale;

/** The default explainer: a fixed sentence pattern over the finding and the job's numbers. */
public final class TemplateExplainer implements Explainer {

    @Override
    public Explanation explain(JobRecord job, Finding finding, List<FixNote> fixes) {
        StringBuilder sb = new StringBuilder();
        if (finding.isUnknown()) {
            String weak = finding.weakSigns();
            sb.append(weak.isEmpty() ? "No known failure signature was found" : "No failure signature was strong enough to name a cause");
            if (job != null) {
                sb.append(" for job ").append(job.id()).append(" (").append(job.status()).append(", exit ")
                        .append(job.exitCode() == null ? "?" : job.exitCode()).append(')');
            }
            if (!weak.isEmpty()) {
                sb.append(": the signs seen (").append(weak).append(") are below the ").append(Finding.bar())
                        .append(" a cause needs");
            }
            // the earliest of the lines to read first: the others follow it in the log
            Evidence lead = finding.leads().isEmpty() ? null : finding.leads().get(0);
            if (lead != null) {
                String said = firstSentence(lead.text());
                sb.append(". Start reading at ").append(lead.location()).append(": ").append(quoted(said));
                sb.append(weak.isEmpty() ? " No note knows that message: check the job's exit code and resources too."
                        : " Check the job's exit code and resources too.");
            } else {
                sb.append(". Read the end of its stderr and stdout, and check the job's exit code and resources.");
            }
            return new Explanation(sb.toString(), "template");
        }
        sb.append(finding.kind().title()).append(" (").append(finding.kindId()).append(", confidence ")
                .append(String.format(Locale.ROOT, "%.0f%%", finding.confidence() * 100)).append(").");
        Evidence first = finding.decidingLine();
        if (first != null) {
            sb.append(" The deciding evidence is ").append(first.isLogLine() ? "the line " + first.location() : first.location())
                    .append(": ").append(quoted(first.text()));
        }
        if (job != null) {
            if (job.elapsed() != null && job.timeLimit().limit().isPresent()) {
                sb.append(" It ran ").append(SlurmTime.format(job.elapsed())).append(" of its ")
                        .append(job.timeLimit()).append(" limit");
                if (job.maxRss() != null && job.memoryLimit().isPresent()) {
                    sb.append(", and its memory peaked at ").append(job.memoryPeakText().orElseThrow()).append(" of ")
                            .append(job.memoryLimitText().get());
                }
                sb.append('.');
            }
        }
        if (!finding.others().isEmpty()) {
            sb.append(" Also seen, judged secondary: ");
            sb.append(String.join(", ", finding.others().stream().map(Finding.KindScore::kindId).toList())).append('.');
        }
        return new Explanation(sb.toString(), "template");
    }

    /**
     * A quoted line that ends the sentence: the sentence's full stop inside the quotes, unless the line already
     * ends with a stop of its own ("TRACEBACK:", "??:?", "... handler." are not given another).
     */
    public static String quoted(String text) {
        String t = text.strip();
        boolean ends = !t.isEmpty() && ".!?:;…".indexOf(t.charAt(t.length() - 1)) >= 0;
        return "\"" + t + (ends ? "\"" : ".\"");
    }

    /** Characters of a lead the explanation quotes at most: a lead can be a whole wrapped paragraph. */
    private static final int QUOTED = 200;

    /**
     * The first sentence of a lead (a wrapped help text is a paragraph; its first sentence says what failed), or its
     * first {@link #QUOTED} characters cut at a word with an ellipsis.
     */
    static String firstSentence(String text) {
        for (int i = 40; i < Math.min(text.length() - 1, QUOTED); i++) {
            if (text.charAt(i) == '.' && text.charAt(i + 1) == ' ') {
                return text.substring(0, i + 1);
            }
        }
        if (text.length() <= QUOTED) {
            return text;
        }
        int cut = text.lastIndexOf(' ', QUOTED);
        return text.substring(0, cut > QUOTED / 2 ? cut : QUOTED).stripTrailing() + "…";
    }
}
