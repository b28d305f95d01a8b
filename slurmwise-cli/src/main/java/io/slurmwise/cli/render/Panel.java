package io.slurmwise.cli.render;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A boxed block of text for the terminal: a title line, labelled rows with wrapped values, and a footer. No line
 * is wider than the style's width: text wraps between words (an inline `code` span or command is one word and
 * never split), lines that must stay whole (a diff) are cut with {@code …}. Box drawing stays without colour;
 * NO_COLOR turns off colour only.
 */
public final class Panel {

    private final Style style;
    private final String title;
    private final List<String> lines = new ArrayList<>();
    private String footer = "";

    public Panel(Style style, String title) {
        this.style = style;
        this.title = title;
    }

    /** A labelled row: the label in a fixed column, the value wrapped beside it. */
    public Panel row(String label, String value) {
        List<String> wrapped = wrap(value, style.width() - 16);
        for (int i = 0; i < wrapped.size(); i++) {
            String l = i == 0 ? pad(label, 12) : pad("", 12);
            lines.add(style.bold(l) + " " + wrapped.get(i));
        }
        return this;
    }

    /** A heading row inside the panel, wrapped when too wide. */
    public Panel heading(String text) {
        for (String l : fit(text, style.width() - 2)) {
            lines.add(style.bold(l));
        }
        return this;
    }

    /** An indented line, wrapped, with a hanging indent for continuation lines. */
    public Panel item(String prefix, String text) {
        int indent = 2 + visibleLength(prefix) + 1;
        List<String> wrapped = wrap(text, style.width() - indent - 4);
        for (int i = 0; i < wrapped.size(); i++) {
            lines.add((i == 0 ? "  " + prefix + " " : " ".repeat(indent)) + wrapped.get(i));
        }
        return this;
    }

    /** A line shown as given (indented, never wrapped): diffs and code that must stay copyable; cut with … when too wide. */
    public Panel verbatim(String text) {
        return line("  " + text);
    }

    /** One line as given, cut with … when wider than the panel. */
    public Panel line(String text) {
        int room = style.width() - 2;
        lines.add(visibleLength(text) <= room ? text : truncate(stripAnsi(text), room));
        return this;
    }

    public Panel blank() {
        lines.add("");
        return this;
    }

    public Panel footer(String text) {
        this.footer = text;
        return this;
    }

    public void print(PrintWriter out) {
        String t = visibleLength(title) <= style.width() - 3 ? title : truncate(stripAnsi(title), style.width() - 3);
        out.println(style.dim("╭─ ") + style.bold(t));
        for (String l : lines) {
            out.println(style.dim("│ ") + l);
        }
        List<String> foot = wrap(stripAnsi(footer).equals(footer) ? footer : stripAnsi(footer), style.width() - 3);
        for (int i = 0; i < foot.size(); i++) {
            out.println(style.dim((i == 0 ? "╰─ " : "   ") + foot.get(i)));
        }
        out.flush();
    }

    static String pad(String s, int n) {
        return s.length() >= n ? s : s + " ".repeat(n - s.length());
    }

    /** Prints {@code text} (lines) fitted to {@code width}: see {@link #fit}. */
    public static void println(PrintWriter out, String text, int width) {
        for (String line : text.split("\n", -1)) {
            fit(line, width).forEach(out::println);
        }
    }

    /**
     * One line fitted to {@code width} columns: as it is when it fits, else wrapped between words with a hanging
     * indent under its value ({@code Energy       263.9 kWh ...} continues under {@code 263.9}). A too-wide line
     * loses its colour.
     */
    public static List<String> fit(String line, int width) {
        if (visibleLength(line) <= width) {
            return List.of(line);
        }
        String plain = stripAnsi(line);
        java.util.regex.Matcher label = java.util.regex.Pattern.compile("^(\\s*\\S+(?: \\S+)*\\s{2,})\\S").matcher(plain);
        int hang = label.find() && label.group(1).length() < width / 2 ? label.group(1).length()
                : plain.length() - plain.stripLeading().length();
        List<String> out = new ArrayList<>();
        String head = plain.substring(0, hang);
        List<String> body = wrap(plain.substring(hang), width - hang);
        for (int i = 0; i < body.size(); i++) {
            out.add((i == 0 ? head : " ".repeat(hang)) + body.get(i));
        }
        return out;
    }

    /** Length on screen: ANSI colour codes take no room. */
    public static int visibleLength(String s) {
        return stripAnsi(s).length();
    }

    static String stripAnsi(String s) {
        return s.replaceAll("\u001b\\[[0-9;]*m", "");
    }

    /** {@code s} in at most {@code width} columns: cut at the last word that fits, then {@code …}. */
    public static String truncate(String s, int width) {
        if (s.length() <= width) {
            return s;
        }
        int w = Math.max(2, width);
        String cut = s.substring(0, w - 1);
        int space = cut.lastIndexOf(' ');
        if (space > w / 2) {
            cut = cut.substring(0, space);
        }
        return cut.stripTrailing() + "…";
    }

    /**
     * {@code text} wrapped to {@code width} in at most {@code maxLines} lines (joined by newlines); when it is
     * longer the last line ends with {@code … suffix}, cut between words.
     */
    public static String truncateLines(String text, int width, int maxLines, String suffix) {
        List<String> wrapped = wrap(text, width);
        if (wrapped.size() <= maxLines) {
            return String.join("\n", wrapped);
        }
        String tail = "…" + (suffix.isEmpty() ? "" : " " + suffix);
        List<String> words = words(wrapped.get(maxLines - 1));
        StringBuilder last = new StringBuilder();
        for (String w : words) {
            if (last.length() + (last.length() > 0 ? 1 : 0) + w.length() + 1 + tail.length() > Math.max(20, width)) {
                break;
            }
            last.append(last.length() > 0 ? " " : "").append(w);
        }
        List<String> out = new ArrayList<>(wrapped.subList(0, maxLines - 1));
        out.add(last.append(last.length() > 0 ? " " : "").append(tail).toString());
        return String.join("\n", out);
    }

    /**
     * A log line in at most {@code maxLines} lines of {@code width} columns, as a log line: broken at spaces, never
     * read as Markdown (a {@code `GLIBCXX_3.4.29'} quote is not inline code), a word wider than the line broken where
     * it must. When the line does not fit, the part shown is the one with {@code match} (the words that decided),
     * marked {@code …} where cut: the reader sees "No space left on device" of a 300-character HDF5 report, not its
     * file name.
     */
    public static String logLine(String text, String match, int width, int maxLines) {
        int w = Math.max(20, width);
        List<String> all = plainWrap(text, w);
        if (all.size() <= maxLines) {
            return String.join("\n", all);
        }
        int room = (int) Math.min(Integer.MAX_VALUE / 2, (long) w * maxLines) - 2; // less the two ellipses, at most
        int at = match == null || match.isEmpty() ? -1 : text.indexOf(match);
        String body = text;
        int shownMatch = Math.min(match == null ? 0 : match.length(), Math.max(20, w - 10));
        if (at > 0 && at + shownMatch > room * 9 / 10) {
            // start a little before the match, at a word's start when one is near
            int from = Math.max(0, at - Math.min(w / 3, Math.max(0, room - shownMatch) / 2));
            int space = text.indexOf(' ', from);
            if (space >= 0 && space < at && space - from < w / 4) {
                from = space + 1;
            }
            body = "…" + text.substring(from);
        }
        List<String> lines = plainWrap(body, w);
        if (lines.size() <= maxLines) {
            return String.join("\n", lines);
        }
        String withReason = keepingReason(body, match, w, maxLines);
        if (withReason != null) {
            return withReason;
        }
        List<String> out = new ArrayList<>(lines.subList(0, maxLines));
        String last = out.get(maxLines - 1);
        if (last.length() + 1 > w) {
            int cut = last.lastIndexOf(' ', w - 2);
            last = last.substring(0, cut > w / 2 ? cut : w - 1);
        }
        out.set(maxLines - 1, last.stripTrailing() + "…");
        return String.join("\n", out);
    }

    /** Longest reason kept at a cut line's end, as a share of the column's width. */
    private static final int REASON_SHARE = 2;

    /**
     * A line that ends in a short reason keeps it, its middle cut instead: the reason after its last {@code ": "}
     * ({@code mkdir: cannot create directory '/projects/.../panoptic_cache': Permission denied}), or a closing
     * parenthesis whose path keeps its last parts ({@code not found (required by …/regrid2/lib/libesmf.so)}). The reason is
     * what the line says, and a cut at the end dropped it (1010's evidence stopped at the path, 1037's before the
     * library; an outside audit). Null when the line has no such reason, or the match would not be shown whole.
     */
    private static String keepingReason(String body, String match, int w, int maxLines) {
        int colon = body.lastIndexOf(": ");
        String shown = colon < 0 ? null
                : keeping(body, match, colon + 2, body.substring(colon + 2).strip(), w, maxLines, w / REASON_SHARE);
        int paren = body.endsWith(")") ? body.lastIndexOf(" (") : -1;
        // a parenthesis that names a path (not "(attempt 1/20)"), with as much of the path as fits
        if (shown == null && paren > 0 && body.indexOf(" /", paren) > 0) {
            for (int max = w - 4; shown == null && max >= w / REASON_SHARE; max -= 4) {
                shown = keeping(body, match, paren + 1, shortPath(body.substring(paren + 1), max), w, maxLines, max);
            }
        }
        return shown;
    }

    /** The line's head up to {@code from}, cut as much as it must, then {@code reason}, in {@code maxLines}; or null. */
    private static String keeping(String body, String match, int from, String reason, int w, int maxLines,
                                  int maxReason) {
        int at = match == null || match.isEmpty() ? -1 : body.indexOf(match);
        // a match before the reason is kept whole; one in the reason is kept with it (1010's match is the reason)
        int keep = at < 0 ? 0 : at >= from ? Math.min(from, w / 2) : at + match.length();
        if (at >= 0 && at < from && keep > from) {
            return null; // the match runs into the reason
        }
        if (reason.length() < 3 || reason.length() > maxReason || reason.chars().noneMatch(Character::isLetter)
                || (at >= from && !reason.contains(match))) {
            return null;
        }
        for (int cut = from; cut > keep; cut--) {
            String head = cut == from ? body.substring(0, from) : body.substring(0, cut).stripTrailing() + "… ";
            List<String> lines = plainWrap(head + reason, w);
            if (lines.size() <= maxLines) {
                return String.join("\n", lines);
            }
        }
        return null;
    }

    /** {@code (required by …/regrid2/lib/libesmf.so)}: a parenthesis's last path cut to its last parts within {@code max}. */
    private static String shortPath(String paren, int max) {
        int slash = paren.indexOf('/');
        int space = slash < 0 ? -1 : paren.lastIndexOf(' ', slash);
        if (paren.length() <= max || slash < 0 || space < 0) {
            return paren;
        }
        String lead = paren.substring(0, space + 1) + "…";
        String path = paren.substring(space + 1);
        for (int i = path.indexOf('/', 1); i > 0; i = path.indexOf('/', i + 1)) {
            if (lead.length() + path.length() - i <= max) {
                return lead + path.substring(i);
            }
        }
        return paren;
    }

    /**
     * A log line for a narrow cell that is cut at its end: from the word before {@code match} (marked {@code …})
     * when the match starts more than {@code lead} chars in, else the whole line.
     */
    public static String fromMatch(String text, String match, int lead) {
        int at = match == null || match.isEmpty() ? -1 : text.indexOf(match);
        if (at <= lead) {
            return text;
        }
        int space = text.lastIndexOf(' ', at - 2);
        int from = space >= 0 && at - space <= lead ? space + 1 : at;
        return "…" + text.substring(from);
    }

    /**
     * {@code text} cut into pieces of {@code width} chars, the first as wide as that and the rest two narrower (they go
     * under a continuation mark): a diff line is shown whole, not cut and not broken at its spaces.
     */
    public static List<String> hardWrap(String text, int width) {
        int w = Math.max(20, width);
        List<String> out = new ArrayList<>();
        if (text.length() <= w) {
            out.add(text);
            return out;
        }
        out.add(text.substring(0, w));
        for (int i = w; i < text.length(); i += w - 2) {
            out.add(text.substring(i, Math.min(text.length(), i + w - 2)));
        }
        return out;
    }

    /** {@code text} broken at spaces into lines of at most {@code width} chars; a longer word is broken where it must. */
    static List<String> plainWrap(String text, int width) {
        List<String> out = new ArrayList<>();
        String rest = text.strip();
        while (rest.length() > width) {
            int cut = rest.lastIndexOf(' ', width);
            if (cut < width / 3) {
                cut = width; // no space in reach (a long path): broken as a last resort
                out.add(rest.substring(0, cut));
                rest = rest.substring(cut);
            } else {
                out.add(rest.substring(0, cut).stripTrailing());
                rest = rest.substring(cut + 1).stripLeading();
            }
        }
        if (!rest.isEmpty() || out.isEmpty()) {
            out.add(rest);
        }
        return out;
    }

    /**
     * Words split at spaces outside inline code: `srun --mem=4G prog` is one word. A backtick opens code at a word's
     * start and closes it before a word's end ({@code `version `GLIBCXX_3.4.29' not found`} is one span); a backtick
     * with no such partner is a character (a log's {@code `GLIBCXX_3.4.29'} quote), so the words after it wrap.
     */
    static List<String> words(String s) {
        boolean[] inCode = codeSpans(s);
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ' ' && !inCode[i]) {
                if (w.length() > 0) {
                    out.add(w.toString());
                    w.setLength(0);
                }
            } else {
                w.append(c);
            }
        }
        if (w.length() > 0) {
            out.add(w.toString());
        }
        return out;
    }

    /** Per char of {@code s}: whether it is inside a span of inline code (see {@link #words}). */
    static boolean[] codeSpans(String s) {
        boolean[] in = new boolean[s.length()];
        int i = s.indexOf('`');
        while (i >= 0) {
            boolean opens = i == 0 || " (\"'[{".indexOf(s.charAt(i - 1)) >= 0;
            int close = -1;
            if (opens) {
                for (int j = s.indexOf('`', i + 1); j >= 0; j = s.indexOf('`', j + 1)) {
                    if (j + 1 == s.length() || " .,;:)!?'\"]}".indexOf(s.charAt(j + 1)) >= 0) {
                        close = j;
                        break;
                    }
                }
            }
            if (close < 0) {
                i = s.indexOf('`', i + 1);
                continue;
            }
            for (int k = i; k <= close; k++) {
                in[k] = true;
            }
            i = s.indexOf('`', close + 1);
        }
        return in;
    }

    /**
     * Word-wraps each line of {@code text} to {@code width} columns, keeping existing line breaks and the leading
     * indent of each line. Inline code is never split; only a single word wider than the whole line is broken, and
     * a code span so broken goes on under {@code ↪} (joined where it was cut).
     */
    public static List<String> wrap(String text, int width) {
        return wrap(text, width, true);
    }

    /**
     * A message for standard error (an error, a notice): {@code lead} ({@code slurmwise: }) then {@code text} wrapped
     * to {@code width} between words, as the rest of the output is, its lines under the text after the lead; a word
     * wider than a line (a path, a `command`) stays whole on a line of its own, never broken: an error's path or
     * command is copied from it, and a broken one is a wrong one.
     */
    public static List<String> message(String lead, String text, int width) {
        int hang = lead.length() < width / 2 ? lead.length() : 0;
        List<String> body = wrap(text, width - hang, false);
        List<String> out = new ArrayList<>(body.size());
        for (int i = 0; i < body.size(); i++) {
            out.add((i == 0 ? lead : " ".repeat(hang)) + body.get(i));
        }
        return out;
    }

    /** @param breakWide false keeps a word wider than a line whole, on a line of its own ({@link #message}) */
    private static List<String> wrap(String text, int width, boolean breakWide) {
        List<String> out = new ArrayList<>();
        int w = Math.max(20, width);
        for (String para : text.split("\n", -1)) {
            if (visibleLength(para) <= w) {
                out.add(para);
                continue;
            }
            String lead = para.replaceAll("^(\\s*).*$", "$1");
            StringBuilder line = new StringBuilder();
            for (String word : words(para.strip())) {
                int len = visibleLength(line.toString());
                int wl = visibleLength(word);
                if (len > lead.length() && len + 1 + wl > w) {
                    out.add(line.toString());
                    line.setLength(0);
                    line.append(lead);
                } else if (len > lead.length()) {
                    line.append(' ');
                } else if (line.length() == 0) {
                    line.append(lead);
                }
                // a word wider than a whole line (a long URL): broken as a last resort
                boolean broken = false;
                while (breakWide && visibleLength(line.toString()) + visibleLength(word) > w
                        && word.length() > w - lead.length()) {
                    int room = w - visibleLength(line.toString());
                    // not a line of bare punctuation after it (1021's "`), or cancel it"): break at the span's last space
                    int space = word.lastIndexOf(' ', room - 1);
                    boolean bare = !word.substring(room).codePoints().anyMatch(Character::isLetterOrDigit);
                    int tick = word.indexOf('`');
                    boolean code = broken || tick >= 0 && tick < room; // the cut falls inside a code span
                    out.add(line + word.substring(0, bare && space > 0 ? space : room));
                    word = bare && space > 0 ? word.substring(space + 1) : word.substring(room);
                    line.setLength(0);
                    line.append(lead);
                    // a command cut inside its code span goes on under ↪, as a diff line does: copied, its pieces
                    // join where it was cut (an outside audit copied `wait $PI` and `D`); a bare tail needs none
                    if (code && !(bare && space > 0)) {
                        line.append("↪ ");
                        broken = true;
                    }
                }
                line.append(word);
            }
            if (line.length() > lead.length()) {
                out.add(line.toString());
            }
        }
        return out;
    }
}
