package io.slurmwise.classify;

import com.google.re2j.Pattern;

import java.util.List;

/**
 * How one signature's regex is tested on a line. A pattern written with a leading {@code (?i)} is also compiled
 * once as its lowercase, case-sensitive equivalent and tested on the line with ASCII letters lowered: RE2J's
 * case-folding program is several times slower, and it loses the literal-prefix fast path. The original pattern
 * stays the meaning: it is used on any line with a non-ASCII char, and for any pattern that cannot be lowered
 * exactly (see {@link #lowered(String)}).
 *
 * @param regex    the signature's own compiled regex
 * @param lower    the equivalent case-sensitive regex over ASCII-lowered text, or null when there is none
 * @param anchored whether the pattern has a {@code ^} anchor (so launcher prefixes are peeled off before it)
 * @param leading  lowercase literals one of which every match starts with ({@link Literals#leading}), or empty
 * @param required what every match needs in an ASCII line ({@link Literals#requirement}): checked before the regex
 */
record SignatureRegex(Pattern regex, Pattern lower, boolean anchored, List<String> leading,
                      Literals.Requirement required) {

    private static final String FLAG = "(?i)";

    static SignatureRegex of(String pattern, Pattern regex) {
        String low = lowered(pattern);
        return new SignatureRegex(regex, low == null ? null : Pattern.compile(low), LineText.anchored(pattern),
                Literals.leading(pattern), Literals.requirement(pattern));
    }

    /**
     * The pattern without its leading {@code (?i)}, with every literal ASCII letter lowered, when that matches
     * exactly the ASCII-lowered lines the original matches; null otherwise (no leading flag, other flag groups,
     * escapes that name a char by code or property, non-ASCII, or a class range with a letter at one end only).
     */
    static String lowered(String pattern) {
        if (!pattern.startsWith(FLAG)) {
            return null;
        }
        String p = pattern.substring(FLAG.length());
        StringBuilder out = new StringBuilder(p.length());
        boolean inClass = false;
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (c >= 128) {
                return null;
            }
            if (c == '\\') {
                if (i + 1 >= p.length()) {
                    return null;
                }
                char e = p.charAt(i + 1);
                // \x41, \pL, \Q..\E, \C, octal: a char not written as itself; keep the original engine
                if ("xpPQEC0123456789".indexOf(e) >= 0 || e >= 128) {
                    return null;
                }
                out.append(c).append(e); // \b \s \d \w \B \S \D \W \n \t \. ...: unaffected by case
                i++;
                continue;
            }
            if (inClass) {
                if (c == ']') {
                    inClass = false;
                } else if (c == '[' && i + 1 < p.length() && p.charAt(i + 1) == ':') {
                    return null; // [[:upper:]] folds to letters of both cases
                } else if (c == '-' && i + 1 < p.length() && p.charAt(i + 1) != ']' && out.length() > 0) {
                    char from = p.charAt(i - 1);
                    char to = p.charAt(i + 1);
                    if ((isLetter(from) || isLetter(to)) && !sameCaseLetters(from, to)) {
                        return null; // [0-Z] lowered would mean another set
                    }
                }
                out.append(lower(c));
                continue;
            }
            if (c == '[') {
                inClass = true;
                out.append(c);
                if (i + 1 < p.length() && p.charAt(i + 1) == '^') {
                    out.append('^');
                    i++;
                }
                if (i + 1 < p.length() && p.charAt(i + 1) == ']') {
                    out.append(']');
                    i++;
                }
                continue;
            }
            if (c == '(' && i + 1 < p.length() && p.charAt(i + 1) == '?') {
                if (p.startsWith("(?:", i)) {
                    out.append("(?:");
                    i += 2;
                    continue;
                }
                return null; // another flag group or a named group: keep the original engine
            }
            out.append(lower(c));
        }
        return inClass ? null : out.toString();
    }

    private static boolean isLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean sameCaseLetters(char a, char b) {
        return (a >= 'a' && a <= 'z' && b >= 'a' && b <= 'z') || (a >= 'A' && a <= 'Z' && b >= 'A' && b <= 'Z');
    }

    private static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }
}
