package io.slurmwise.classify;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Extracts, from an RE2 pattern, literals at least one of which every match must contain (compared ignoring
 * ASCII case). Conservative: when in doubt a run is cut short; when an alternative has no literal the pattern
 * gets none and is tested on every line.
 */
final class Literals {

    /** The shortest literal worth prefiltering on, in UTF-8 bytes (the automaton's unit): 3 letters, or one ideograph. */
    private static final int MIN = 3;

    private Literals() {
    }

    /**
     * One literal per top-level alternative, or an empty list when some alternative has no usable literal. A
     * pattern that starts with a group of literal alternatives followed by literal text, {@code (sbatch|salloc):
     * error: ...}, gets one literal per alternative with that text ({@code sbatch: error: }, {@code salloc: error: })
     * when those are longer than its longest single run ({@code : error: }): a rarer literal sends fewer lines to
     * the regex.
     */
    static List<String> required(String pattern) {
        List<String> alternatives = splitTopLevel(pattern);
        List<String> out = new ArrayList<>();
        for (String alt : alternatives) {
            String lit = longestRun(alt);
            if (utf8Length(lit) < MIN && !(lit.length() > 0 && isRarePunctuation(lit))) {
                return List.of();
            }
            out.add(distinctive(alt, lit).toLowerCase(java.util.Locale.ROOT));
        }
        if (out.size() == 1) {
            List<String> led = ledLiterals(pattern);
            if (!led.isEmpty() && led.stream().allMatch(l -> l.length() > out.get(0).length())) {
                return led;
            }
        }
        return out;
    }

    /**
     * What every match of {@code pattern} needs in the line, as a condition on its text (ASCII-lowered for a
     * {@code (?i)} pattern): each literal
     * run that no quantifier makes optional, in every group that is not optional, and for an alternation one of its
     * alternatives' conditions. GNU grep reads a regex's "must" strings the same way. The prefilter's one literal
     * picks the lines to test; this rejects most of them before the regex runs: a line that has
     * {@code srun: error:} but not {@code invalid}, a line with {@code timeout} but not {@code TIMEOUT}. Exact
     * (never rejects a line the regex matches) on ASCII text only: Unicode case folding matches {@code k} with
     * the Kelvin sign, so a caller applies it to ASCII lines.
     */
    static Requirement requirement(String pattern) {
        boolean folds = pattern.startsWith("(?i)");
        String p = folds ? pattern.substring(4) : pattern;
        if (p.contains("\\Q")) {
            return Requirement.NONE; // a quoted block's quantifier touches only its last char: not worth the care
        }
        boolean caseSensitive = !folds && !p.contains("(?i");
        Predicate<String> test = requirementOf(p, 0, caseSensitive);
        return test == null ? Requirement.NONE : new Requirement(caseSensitive, test);
    }

    /**
     * A condition on a line's text that every match of a pattern meets.
     *
     * @param caseSensitive whether it reads the text as it is (a pattern without {@code (?i)}); else the text with
     *                      ASCII letters lowered
     */
    record Requirement(boolean caseSensitive, Predicate<String> test) {
        /** No condition: the regex must decide. */
        static final Requirement NONE = new Requirement(false, text -> true);

        boolean metBy(String text) {
            return test.test(text);
        }
    }

    /** The condition of a pattern, or null for none. */
    private static Predicate<String> requirementOf(String p, int depth, boolean caseSensitive) {
        List<String> alternatives = splitTopLevel(p);
        if (alternatives.size() > 1) {
            List<Predicate<String>> any = new ArrayList<>();
            for (String alt : alternatives) {
                Predicate<String> r = sequenceRequirement(alt, depth, caseSensitive);
                if (r == null) {
                    return null; // one alternative needs nothing: nor does the whole
                }
                any.add(r);
            }
            return text -> {
                for (Predicate<String> r : any) {
                    if (r.test(text)) {
                        return true;
                    }
                }
                return false;
            };
        }
        return sequenceRequirement(p, depth, caseSensitive);
    }

    /** The condition of one alternative: its mandatory runs, and the conditions of its mandatory groups. */
    private static Predicate<String> sequenceRequirement(String p, int depth, boolean caseSensitive) {
        List<Predicate<String>> all = new ArrayList<>();
        List<String> words = new ArrayList<>();
        for (String run : runs(p)) {
            if (run.length() >= MIN && run.chars().allMatch(c -> c < 128)) {
                words.add(caseSensitive ? run : run.toLowerCase(java.util.Locale.ROOT));
            }
        }
        if (depth < 8) {
            for (int i = 0; i < p.length(); i++) {
                char c = p.charAt(i);
                if (c == '\\') {
                    i++;
                } else if (c == '[') {
                    i = skipClass(p, i) - 1;
                } else if (c == '(') {
                    int end = skipGroup(p, i);
                    char q = end < p.length() ? p.charAt(end) : 0;
                    boolean optional = q == '?' || q == '*' || (q == '{' && p.startsWith("{0", end));
                    String inner = end - 1 > i && p.charAt(end - 1) == ')' ? p.substring(i + 1, end - 1) : null;
                    if (inner != null && inner.startsWith("?:")) {
                        inner = inner.substring(2);
                    } else if (inner != null && inner.startsWith("?")) {
                        inner = null; // a flag or named group
                    }
                    if (!optional && inner != null) {
                        Predicate<String> r = requirementOf(inner, depth + 1, caseSensitive);
                        if (r != null) {
                            all.add(r);
                        }
                    }
                    i = end - 1;
                }
            }
        }
        if (words.isEmpty() && all.isEmpty()) {
            return null;
        }
        String[] must = words.toArray(String[]::new);
        @SuppressWarnings("unchecked")
        Predicate<String>[] groups = all.toArray(Predicate[]::new);
        return text -> {
            for (String w : must) {
                if (!text.contains(w)) {
                    return false;
                }
            }
            for (Predicate<String> r : groups) {
                if (!r.test(text)) {
                    return false;
                }
            }
            return true;
        };
    }

    /**
     * The C library's words for common errors, which many lines of a log carry (a library that a plugin loader did
     * not find, a file a tool looked for first): a literal made of one of them sends all those lines to the regex.
     */
    private static final List<String> COMMON = List.of("no such file or directory", "permission denied",
            "no space left on device", "cannot allocate memory", "input/output error", "connection refused",
            "connection timed out", "resource temporarily unavailable", "operation not permitted");
    /** The shortest other run worth prefiltering on instead of a common one. */
    private static final int DISTINCTIVE = 8;

    /**
     * {@code longest}, unless it is mostly the C library's words for a common error and {@code alt} has another run
     * of at least {@link #DISTINCTIVE} characters: {@code \berror opening\b.*No such file or directory} is
     * prefiltered on {@code error opening}.
     */
    private static String distinctive(String alt, String longest) {
        String low = longest.toLowerCase(java.util.Locale.ROOT).strip();
        boolean common = COMMON.stream().anyMatch(c -> c.contains(low) || low.contains(c) && low.length() < c.length() + 8);
        if (!common) {
            return longest;
        }
        String best = "";
        for (String run : runs(alt)) {
            String r = run.toLowerCase(java.util.Locale.ROOT);
            boolean runCommon = COMMON.stream().anyMatch(c -> r.contains(c) || c.contains(r.strip()));
            if (!runCommon && run.strip().length() >= DISTINCTIVE && run.length() > best.length()) {
                best = run;
            }
        }
        return best.isEmpty() ? longest : best;
    }

    /** Each leading alternative joined with the literal text that follows the group, or empty. */
    private static List<String> ledLiterals(String pattern) {
        List<String> lead = leading(pattern);
        if (lead.isEmpty()) {
            return List.of();
        }
        String p = pattern.startsWith("(?i)") ? pattern.substring(4) : pattern;
        int i = p.startsWith("\\b") ? 2 : 0;
        String after = firstRun(p.substring(skipGroup(p, i))).toLowerCase(java.util.Locale.ROOT);
        List<String> out = new ArrayList<>();
        for (String l : lead) {
            out.add(l + after);
        }
        return out;
    }

    /** The literal text a pattern starts with (before any class, group, anchor or quantified character). */
    private static String firstRun(String p) {
        StringBuilder run = new StringBuilder();
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            char lit;
            int consumed;
            if (c == '\\' && i + 1 < p.length() && p.charAt(i + 1) < 128 && !Character.isLetterOrDigit(p.charAt(i + 1))) {
                lit = p.charAt(i + 1);
                consumed = 2;
            } else if (c < 128 && (Character.isLetterOrDigit(c) || " '_-:,/=\"!#%&;<>@`~".indexOf(c) >= 0)) {
                lit = c;
                consumed = 1;
            } else {
                break;
            }
            int next = i + consumed;
            if (next < p.length() && "?*+{".indexOf(p.charAt(next)) >= 0) {
                break; // the character is optional or repeated: the run ends before it
            }
            run.append(lit);
            i = next - 1;
        }
        return run.toString();
    }

    /**
     * The literals (lowercase) one of which every match starts with: when the pattern is, after an optional leading
     * {@code (?i)} and {@code \b}, a group of plain literal alternatives followed by the rest, as in
     * {@code (?i)\b(Prolog|Epilog) failed}; empty otherwise. A regex with such a start has no literal prefix for RE2J
     * to skip to, so the caller starts it at the first of these literals, or not at all when none is there.
     */
    static List<String> leading(String pattern) {
        String p = pattern.startsWith("(?i)") ? pattern.substring(4) : pattern;
        int i = p.startsWith("\\b") ? 2 : 0;
        if (splitTopLevel(p).size() != 1 || i >= p.length() || p.charAt(i) != '(') {
            return List.of();
        }
        int end = skipGroup(p, i);
        if (p.charAt(end - 1) != ')' || (end < p.length() && "?*{".indexOf(p.charAt(end)) >= 0)) {
            return List.of(); // unclosed, or an optional group: a match need not start with it
        }
        String inner = p.substring(i + 1, end - 1);
        if (inner.startsWith("?:")) {
            inner = inner.substring(2);
        } else if (inner.startsWith("?")) {
            return List.of(); // a flag or named group
        }
        List<String> out = new ArrayList<>();
        for (String alt : splitTopLevel(inner)) {
            String lit = plainLiteral(alt);
            if (lit == null || lit.isEmpty()) {
                return List.of();
            }
            out.add(lit.toLowerCase(java.util.Locale.ROOT));
        }
        return out;
    }

    /** The text {@code alt} matches when it is a plain ASCII literal (escaped punctuation allowed), else null. */
    private static String plainLiteral(String alt) {
        StringBuilder b = new StringBuilder(alt.length());
        for (int i = 0; i < alt.length(); i++) {
            char c = alt.charAt(i);
            if (c == '\\' && i + 1 < alt.length() && alt.charAt(i + 1) < 128
                    && !Character.isLetterOrDigit(alt.charAt(i + 1))) {
                b.append(alt.charAt(++i));
            } else if ((c < 128 && Character.isLetterOrDigit(c)) || " '_-:,/=\"".indexOf(c) >= 0) {
                b.append(c);
            } else {
                return null;
            }
        }
        return b.toString();
    }

    /** Short literals of punctuation only ({@code *}, {@code ***}) are rare enough in logs to prefilter on. */
    private static boolean isRarePunctuation(String lit) {
        return lit.chars().allMatch(c -> c == '*' || c == '#' || c == '@' || c == '%' || c == '^' || c == '~');
    }

    private static List<String> splitTopLevel(String p) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        boolean inClass = false;
        int start = 0;
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c == '\\') {
                i++;
                continue;
            }
            if (inClass) {
                if (c == ']') {
                    inClass = false;
                }
                continue;
            }
            switch (c) {
                case '[' -> {
                    inClass = true;
                    if (i + 1 < p.length() && p.charAt(i + 1) == '^') {
                        i++;
                    }
                    if (i + 1 < p.length() && p.charAt(i + 1) == ']') {
                        i++;
                    }
                }
                case '(' -> depth++;
                case ')' -> depth--;
                case '|' -> {
                    if (depth == 0) {
                        parts.add(p.substring(start, i));
                        start = i + 1;
                    }
                }
                default -> {
                }
            }
        }
        parts.add(p.substring(start));
        return parts;
    }

    private static String longestRun(String p) {
        String best = "";
        for (String r : runs(p)) {
            best = longer(best, r);
        }
        return best;
    }

    /** Every literal run of {@code p}, in order. */
    private static List<String> runs(String p) {
        List<String> runs = new ArrayList<>();
        StringBuilder run = new StringBuilder();
        int i = 0;
        while (i < p.length()) {
            char c = p.charAt(i);
            int consumed;
            Character literal = null;
            if (c == '\\') {
                if (i + 1 >= p.length()) {
                    break;
                }
                char e = p.charAt(i + 1);
                consumed = escapeLength(p, i);
                if (!Character.isLetterOrDigit(e) && e < 128) {
                    literal = e;
                } else if (e == 'Q') {
                    int end = p.indexOf("\\E", i + 2);
                    String quoted = end < 0 ? p.substring(i + 2) : p.substring(i + 2, end);
                    runs.add(run.toString());
                    run.setLength(0);
                    // a quoted block is a run of its own; quantifiers after it touch only its last char
                    run.append(quoted);
                    i = end < 0 ? p.length() : end + 2;
                    continue;
                }
            } else if (c == '[') {
                consumed = skipClass(p, i) - i;
            } else if (c == '(') {
                consumed = skipGroup(p, i) - i;
                if (p.startsWith("(?i)", i) || p.startsWith("(?s)", i) || p.startsWith("(?m)", i)) {
                    i += consumed;
                    continue; // a flag group changes no literal (the prefilter ignores case anyway)
                }
            } else if (".^$|)".indexOf(c) >= 0) {
                consumed = 1;
            } else if ("?*+{".indexOf(c) >= 0) {
                consumed = 1; // a quantifier on something that was not a literal char
            } else if (c < 128 || keepsCase(c)) {
                literal = c;
                consumed = 1;
            } else {
                consumed = 1; // a capital non-ASCII letter: the automaton folds only ASCII, so end the run here
            }
            int next = i + consumed;
            char q = next < p.length() ? p.charAt(next) : 0;
            boolean optional = q == '?' || q == '*' || (q == '{' && p.startsWith("{0", next));
            boolean repeated = q == '+' || (q == '{' && !optional);
            if (literal != null && !optional) {
                run.append(literal);
                if (repeated) {
                    runs.add(run.toString());
                    run.setLength(0);
                }
            } else {
                runs.add(run.toString());
                run.setLength(0);
            }
            i = next;
            if (optional || repeated) {
                i = skipQuantifier(p, i);
            }
        }
        runs.add(run.toString());
        runs.removeIf(String::isEmpty);
        return runs;
    }

    /**
     * The length of the escape at {@code i}: two chars, or with its argument for those that take one ({@code \x41},
     * {@code \x{2019}}, {@code \pL}, {@code \p{Greek}}, octal {@code \101}), so that the argument is never read as
     * literal text (a run "41..." that no line has would make the signature miss every line).
     */
    private static int escapeLength(String p, int i) {
        if (i + 1 >= p.length()) {
            return 1;
        }
        char e = p.charAt(i + 1);
        int j = i + 2;
        if ((e == 'x' || e == 'p' || e == 'P') && j < p.length() && p.charAt(j) == '{') {
            int close = p.indexOf('}', j);
            return (close < 0 ? p.length() : close + 1) - i;
        }
        if (e == 'x') {
            while (j < p.length() && j < i + 4 && Character.digit(p.charAt(j), 16) >= 0) {
                j++;
            }
            return j - i;
        }
        if (e == 'p' || e == 'P') {
            return Math.min(p.length(), j + 1) - i;
        }
        if (e >= '0' && e <= '7') {
            while (j < p.length() && j < i + 4 && p.charAt(j) >= '0' && p.charAt(j) <= '7') {
                j++;
            }
            return j - i;
        }
        return 2;
    }

    private static int utf8Length(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    /**
     * Whether a non-ASCII character can stay in a literal the automaton compares byte for byte after folding only
     * ASCII case: one without case (CJK ideographs, kana, Hangul, full-width punctuation) always matches itself, and a
     * small letter ({@code ü é ç ł ı}, Cyrillic {@code ж}) matches the text as programs print it and as a tool
     * lowercases it. A capital non-ASCII letter ends the run, since the lowercased literal would miss it; so does a
     * small one when the text is all capitals, the one case where the regex alone would have matched.
     */
    static boolean keepsCase(char c) {
        return Character.toLowerCase(c) == c
                && (Character.toUpperCase(c) == c || Character.isLowerCase(c) && !Character.isSurrogate(c));
    }

    private static int skipQuantifier(String p, int i) {
        if (i >= p.length()) {
            return i;
        }
        if (p.charAt(i) == '{') {
            int end = p.indexOf('}', i);
            i = end < 0 ? p.length() : end + 1;
        } else {
            i++;
        }
        if (i < p.length() && (p.charAt(i) == '?' || p.charAt(i) == '+')) {
            i++; // lazy or possessive marker
        }
        return i;
    }

    private static int skipClass(String p, int i) {
        int j = i + 1;
        if (j < p.length() && p.charAt(j) == '^') {
            j++;
        }
        if (j < p.length() && p.charAt(j) == ']') {
            j++;
        }
        while (j < p.length() && p.charAt(j) != ']') {
            if (p.charAt(j) == '\\') {
                j++;
            } else if (p.charAt(j) == '[' && j + 1 < p.length() && p.charAt(j + 1) == ':') {
                int end = p.indexOf(":]", j + 2);
                j = end < 0 ? j : end + 1;
            }
            j++;
        }
        return Math.min(p.length(), j + 1);
    }

    private static int skipGroup(String p, int i) {
        int depth = 0;
        for (int j = i; j < p.length(); j++) {
            char c = p.charAt(j);
            if (c == '\\') {
                j++;
            } else if (c == '[') {
                j = skipClass(p, j) - 1;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (--depth == 0) {
                    return j + 1;
                }
            }
        }
        return p.length();
    }

    private static String longer(String a, String b) {
        return b.length() > a.length() ? b : a;
    }
}
