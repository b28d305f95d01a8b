package io.slurmwise.diagnose;

import io.slurmwise.classify.Evidence;
import io.slurmwise.classify.Finding;
import io.slurmwise.taxonomy.NoteSection;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;

/**
 * Puts first the fixes that answer what the deciding evidence says. A note's Fixes list covers every way its kind
 * happens (a partition's time limit, an option SLURM cannot parse, a step that waits inside its job); an item that
 * quotes a message in backticks (words, such as {@code `step creation temporarily disabled`}, or a SLURM reason's one
 * CamelCase word, {@code `AssocGrpBillingMinutes`}) is about that message, so when a line of the finding's evidence (a
 * log line, or the record's {@code Reason=...}) contains the quote, the item moves ahead of the others. Nothing is dropped and the
 * note's order is kept within both groups: without such a line the list is as the note wrote it.
 *
 * <pre>{@code
 * List<FixNote> ordered = FixOrder.byEvidence(fixes, finding);
 * }</pre>
 */
public final class FixOrder {

    /**
     * A quoted message: backticks around words, at least this many characters (an option such as {@code
     * --mem-per-cpu} or a value is not a message).
     */
    static final int MIN_QUOTE = 12;
    private static final Pattern SPACE = Pattern.compile("\\s+");
    /** A SLURM reason is one CamelCase word, a message too: {@code AssocGrpBillingMinutes}, {@code QOSMaxWallDurationPerJobLimit}. */
    private static final Pattern REASON = Pattern.compile("(?:[A-Z]+[a-z]+){3,}[A-Za-z]*");

    private FixOrder() {
    }

    /** The notes with the items of each reordered so that those quoting the evidence's log lines come first. */
    public static List<FixNote> byEvidence(List<FixNote> fixes, Finding finding) {
        return byEvidence(fixes, finding, List.of());
    }

    /**
     * As {@link #byEvidence(List, Finding)}, with more of the record's own words that decide which fix applies
     * ({@code State=CANCELLED by 0}: root, an admin or SLURM itself, cancelled it).
     */
    public static List<FixNote> byEvidence(List<FixNote> fixes, Finding finding, List<String> record) {
        return byEvidence(fixes, finding, record, java.util.Set.of());
    }

    /**
     * As {@link #byEvidence(List, Finding, List)}, without the evidence lines in {@code misworded}: lines whose words the
     * job's script shows to mean another failure than they say (bash's {@code slurm_script: line 12: out.txt: Permission
     * denied} of a redirect that could not write, in the words of a command it could not execute: {@link
     * io.slurmwise.patch.DeniedPath}), so the fix for the words does not go ahead of the fix for what happened.
     */
    public static List<FixNote> byEvidence(List<FixNote> fixes, Finding finding, List<String> record,
                                           java.util.Set<String> misworded) {
        // the evidence in the order a fix is chosen by: the record's own words first (Reason=AssocGrpBillingMinutes,
        // SLURM's verdict), then the log lines in the order they were printed, since a root cause comes before what
        // it brings about (srun's "Step requested GRES ... not found in the job", then SLURM's generic "Unable to
        // create step ...: Invalid generic resource (gres) specification")
        List<Evidence> evidence = new ArrayList<>(finding.evidence());
        evidence.sort(Comparator.comparingLong(e -> e.isLogLine() ? e.line() : -1));
        List<String> lines = new ArrayList<>();
        for (String r : record) {
            lines.add(normal(r));
        }
        for (Evidence e : evidence) {
            if (!misworded.contains(e.text())) {
                lines.add(normal(e.text()));
            }
        }
        if (lines.isEmpty()) {
            return fixes;
        }
        return ranked(fixes, item -> firstQuoted(item, lines));
    }

    /**
     * The notes with the items {@code rank} gives a rank (0 or more) moved ahead in the order of their ranks, the note's
     * order kept among equal ranks and among the items without one ({@code -1}), which follow.
     */
    private static List<FixNote> ranked(List<FixNote> fixes, ToIntFunction<String> rank) {
        List<FixNote> out = new ArrayList<>(fixes.size());
        for (FixNote n : fixes) {
            List<String> items = n.items().isEmpty() ? NoteSection.itemsOf(n.text()) : n.items();
            Map<String, Integer> ranks = new HashMap<>();
            for (String item : items) {
                int r = rank.applyAsInt(item);
                // a fix the job's script already follows stays after the others, whatever it quotes
                ranks.put(item, n.followed(item) ? Integer.MAX_VALUE : r < 0 ? Integer.MAX_VALUE - 1 : r);
            }
            List<String> ordered = new ArrayList<>(items);
            ordered.sort(Comparator.comparing(ranks::get)); // stable: the note's order within a rank
            out.add(ordered.equals(items) ? n : n.withContent(FixFitter.numbered(n.text(), ordered), ordered));
        }
        return List.copyOf(out);
    }

    /** An item that says to wait: {@code wait}, {@code waiting} as a word. */
    private static final Pattern WAIT = Pattern.compile("(?i)\\bwait(?:ing)?\\b(?!\\s+\"?\\$)"); // not the shell's wait "$PID"

    /**
     * For a pending job that will start without changes: the items that say to wait come first, so that the first
     * thing a user reads is not to change a job that needs no change. The note's order is kept within both groups.
     */
    public static List<FixNote> forWaiting(List<FixNote> fixes) {
        return ranked(fixes, item -> WAIT.matcher(item).find() ? 0 : -1);
    }

    /** True when a backticked quote of the item occurs in one of the (normalised) evidence lines. */
    static boolean quotes(String item, List<String> lines) {
        return firstQuoted(item, lines) >= 0;
    }

    /** The index of the first of the (normalised) evidence lines that a backticked quote of the item occurs in, or -1. */
    static int firstQuoted(String item, List<String> lines) {
        // backticks pair up in order: the odd pieces between them are the quotes
        String[] pieces = item.split("`", -1);
        int first = -1;
        for (int i = 1; i < pieces.length - 1; i += 2) {
            String quote = normal(pieces[i]);
            boolean message = quote.indexOf(' ') > 0 || REASON.matcher(pieces[i].strip()).matches();
            if (quote.length() < MIN_QUOTE || !message) {
                continue;
            }
            for (int l = 0; l < lines.size() && (first < 0 || l < first); l++) {
                if (lines.get(l).contains(quote)) {
                    first = l;
                    break;
                }
            }
        }
        return first;
    }

    private static String normal(String s) {
        return SPACE.matcher(s.strip()).replaceAll(" ").toLowerCase(Locale.ROOT);
    }
}
