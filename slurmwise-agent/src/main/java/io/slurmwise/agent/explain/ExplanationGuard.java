package io.slurmwise.agent.explain;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.slurmwise.classify.Evidence;
import io.slurmwise.classify.Finding;
import io.slurmwise.taxonomy.FailureKind;
import io.slurmwise.taxonomy.Signature;
import io.slurmwise.taxonomy.Taxonomy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a language model's answer against the rules' finding before anyone reads it. The answer is set aside
 * when it names or implies another cause (a kind's id, title, log signatures or the words in
 * {@code guard-words.txt}), unless that kind is a consequence the finding's note {@code explains} (or was seen
 * and judged secondary) and is not presented as the cause; when it denies the rules' cause; or when it cites a
 * number, a path, a flag or a command that is not in the material the model was given.
 *
 * <pre>{@code
 * ExplanationGuard g = ExplanationGuard.of(taxonomy);
 * Optional<String> why = g.problem(answer, finding, prompt);   // empty: the answer may be shown
 * }</pre>
 */
public final class ExplanationGuard {

    private static final String WORDS = "/io/slurmwise/agent/guard-words.txt";
    private static final Pattern SENTENCE = Pattern.compile("(?:[.!?;]\\s+|\\n+)");
    private static final Pattern NUMBER = Pattern.compile("\\d+(?:[.:\\-]\\d+)*");
    private static final Pattern CLOCK = Pattern.compile("^(?:(\\d+)-)?(\\d{1,2}):(\\d{2}):(\\d{2})$");
    private static final Pattern PATH = Pattern.compile("(?:^|[\\s\"'`(=])((?:~|\\.\\.?)?/[\\w.\\-]+(?:/[\\w.\\-]*)*)");
    private static final Pattern FLAG = Pattern.compile("(?:^|[\\s`\"'(])(--[a-zA-Z][\\w-]*)");
    private static final Pattern CODE = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"\\n]{8,})\"|`([^`\\n]+)`");

    private final Map<String, List<Pattern>> mentions;
    private final Map<String, Pattern> topics;
    private final Pattern claim;
    private final Pattern claimAfter;
    private final Pattern negate;
    private final Pattern denyAfter;
    private final Pattern override;
    private final Pattern command;
    private final Pattern unit;
    private final Taxonomy taxonomy;

    private ExplanationGuard(Taxonomy taxonomy, Map<String, List<Pattern>> mentions, Map<String, Pattern> topics,
                             Map<String, Pattern> rules) {
        this.taxonomy = taxonomy;
        this.mentions = mentions;
        this.topics = topics;
        this.claim = rules.get("claim");
        this.claimAfter = rules.get("claim-after");
        this.negate = rules.get("negate");
        this.denyAfter = rules.get("deny-after");
        this.override = rules.get("override");
        this.command = rules.get("command");
        this.unit = rules.get("unit");
    }

    /** A guard over every kind of {@code taxonomy}, with the bundled guard words. */
    public static ExplanationGuard of(Taxonomy taxonomy) {
        Map<String, List<Pattern>> mentions = new LinkedHashMap<>();
        Map<String, Pattern> topics = new LinkedHashMap<>();
        Map<String, Pattern> rules = new LinkedHashMap<>();
        for (FailureKind k : taxonomy.kinds()) {
            if (k.isUnknown()) {
                continue;
            }
            List<Pattern> ps = new ArrayList<>();
            ps.add(ci("\\b" + literal(k.id()).replace("_", "[ _-]?") + "\\b"));
            for (String phrase : titlePhrases(k.title())) {
                ps.add(ci("\\b" + literal(phrase) + "\\b"));
            }
            for (Signature s : k.signatures()) {
                ps.add(s.regex());
            }
            mentions.put(k.id(), ps);
        }
        int lineNo = 0;
        for (String line : resource().split("\n")) {
            lineNo++;
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] parts = l.split("\\s+", 3);
            try {
                switch (parts[0]) {
                    case "kind" -> {
                        if (mentions.containsKey(parts[1])) { // a site may have dropped a kind
                            mentions.get(parts[1]).add(ci(parts[2]));
                        }
                    }
                    case "topic" -> topics.put(parts[1], ci(parts[2]));
                    default -> rules.put(parts[0], ci(l.substring(parts[0].length()).strip()));
                }
            } catch (PatternSyntaxException | ArrayIndexOutOfBoundsException e) {
                throw new IllegalStateException("guard-words.txt:" + lineNo + " is not '<what> [kind] <regex>': " + e.getMessage(), e);
            }
        }
        for (String r : List.of("claim", "claim-after", "negate", "deny-after", "override", "command", "unit")) {
            if (!rules.containsKey(r)) {
                throw new IllegalStateException("guard-words.txt has no '" + r + "' line; rebuild slurmwise-agent");
            }
        }
        return new ExplanationGuard(taxonomy, mentions, topics, rules);
    }

    /**
     * Why {@code answer} must not be shown for {@code finding}, or empty when it may.
     *
     * @param material everything the model was given (its prompt): numbers, paths and commands must come from it
     */
    public Optional<String> problem(String answer, Finding finding, String material) {
        String text = masked(answer, finding, material);
        Matcher o = override.matcher(text);
        if (o.find()) {
            return Optional.of("it sets the rules aside (\"" + o.group() + "\")");
        }
        String own = finding.kindId();
        Set<String> consequences = consequences(finding);
        for (String sentence : sentences(text)) {
            Optional<String> p = sentenceProblem(sentence, own, consequences);
            if (p.isPresent()) {
                return p;
            }
        }
        return invented(answer, material);
    }

    private Optional<String> sentenceProblem(String s, String own, Set<String> consequences) {
        Pattern topic = topics.get(own);
        for (Mention m : mentionsIn(s, own)) {
            boolean denied = negate.matcher(s.substring(0, m.start)).find()
                    || denyAfter.matcher(s.substring(m.end)).find();
            if (related(m.kind, own)) {
                if (denied) {
                    return Optional.of("it denies the rules' cause " + own + " (\"" + context(s, m) + "\")");
                }
            } else if (!consequences.contains(m.kind)) {
                if (!denied) {
                    return Optional.of("it names another cause, " + m.kind + " (\"" + context(s, m) + "\")");
                }
            } else if (!denied && claimed(s, m, own)) {
                return Optional.of("it presents " + m.kind + ", a consequence of " + own + ", as the cause (\""
                        + context(s, m) + "\")");
            }
        }
        if (topic != null) {
            Matcher t = topic.matcher(s);
            while (t.find()) {
                if (negate.matcher(s.substring(0, t.start())).find() || denyAfter.matcher(s.substring(t.end())).find()) {
                    return Optional.of("it denies the rules' cause " + own + " (\"" + s.substring(Math.max(0,
                            t.start() - 20), t.end()).strip() + "\")");
                }
            }
        }
        return Optional.empty();
    }

    /** A consequence is claimed as the cause by words before it (nothing of the rules' kind between) or after it. */
    private boolean claimed(String s, Mention m, String own) {
        Matcher c = claim.matcher(s);
        int lastClaimEnd = -1;
        while (c.find() && c.end() <= m.start) {
            lastClaimEnd = c.end();
        }
        if (lastClaimEnd >= 0) {
            int from = lastClaimEnd;
            boolean ownBetween = mentionsIn(s, own).stream()
                    .anyMatch(x -> related(x.kind, own) && x.start >= from && x.start < m.start);
            if (!ownBetween) {
                return true;
            }
        }
        return claimAfter.matcher(s.substring(m.end)).find();
    }

    private boolean related(String kind, String own) {
        return taxonomy.isA(kind, own) || taxonomy.isA(own, kind);
    }

    /** Kinds the finding may name as what followed: those its note explains, and those seen and judged secondary. */
    private static Set<String> consequences(Finding f) {
        Set<String> out = new HashSet<>(f.kind().explains());
        f.others().forEach(o -> out.add(o.kindId()));
        return out;
    }

    private record Mention(String kind, int start, int end) {
    }

    /** Every kind named in {@code s}: the longest matches win, the finding's own kind on ties. */
    private List<Mention> mentionsIn(String s, String own) {
        List<Mention> all = new ArrayList<>();
        mentions.forEach((kind, ps) -> {
            for (Pattern p : ps) {
                Matcher m = p.matcher(s);
                while (m.find()) {
                    if (m.end() > m.start()) {
                        all.add(new Mention(kind, m.start(), m.end()));
                    }
                }
            }
        });
        all.sort(Comparator.comparingInt((Mention m) -> m.start - m.end)
                .thenComparing(m -> related(m.kind, own) ? 0 : 1));
        List<Mention> kept = new ArrayList<>();
        for (Mention m : all) {
            if (kept.stream().noneMatch(k -> k.start < m.end && m.start < k.end)) {
                kept.add(m);
            }
        }
        kept.sort(Comparator.comparingInt(Mention::start));
        return kept;
    }

    /**
     * The answer with what it quotes from the material blanked out: a quoted evidence line may hold another
     * kind's words ("DataLoader worker ... is killed") without the model claiming anything.
     */
    private static String masked(String answer, Finding f, String material) {
        StringBuilder sb = new StringBuilder(answer);
        Matcher q = QUOTED.matcher(answer);
        while (q.find()) {
            int g = q.group(1) != null ? 1 : 2;
            if (normalized(material).contains(normalized(q.group(g)))) {
                blank(sb, q.start(g), q.end(g));
            }
        }
        for (Evidence e : f.evidence()) {
            String t = e.text() == null ? "" : e.text().strip();
            if (t.length() >= 16) {
                for (int i = answer.indexOf(t); i >= 0; i = answer.indexOf(t, i + 1)) {
                    blank(sb, i, i + t.length());
                }
            }
        }
        return sb.toString();
    }

    private static void blank(StringBuilder sb, int from, int to) {
        for (int i = from; i < to; i++) {
            if (sb.charAt(i) != '\n') {
                sb.setCharAt(i, '_');
            }
        }
    }

    /** A number, path, flag or command in the answer that the material does not hold. */
    private Optional<String> invented(String answer, String material) {
        Set<String> known = numbers(material);
        String norm = normalized(material);
        Matcher n = NUMBER.matcher(answer);
        while (n.find()) {
            String num = canonical(n.group());
            boolean bareCount = num.length() == 1 && !unit.matcher(answer.substring(n.end())).find()
                    && !(n.end() < answer.length() && answer.charAt(n.end()) == '.' && n.end() + 1 < answer.length()
                    && Character.isDigit(answer.charAt(n.end() + 1)));
            boolean partOfWord = n.start() > 0 && Character.isLetter(answer.charAt(n.start() - 1));
            if (!bareCount && !partOfWord && !known.contains(num)) {
                return Optional.of("it cites " + n.group() + ", which is not in the job's data or the notes");
            }
        }
        Matcher p = PATH.matcher(answer);
        while (p.find()) {
            String path = p.group(1).replaceAll("[.,:;]+$", "");
            if (path.length() > 1 && !norm.contains(path)) {
                return Optional.of("it cites the path " + path + ", which is not in the job's data or the notes");
            }
        }
        Matcher fl = FLAG.matcher(answer);
        while (fl.find()) {
            if (!norm.contains(fl.group(1))) {
                return Optional.of("it suggests " + fl.group(1) + ", which no note or job data mentions");
            }
        }
        Matcher code = CODE.matcher(answer);
        while (code.find()) {
            String c = normalized(code.group(1));
            String first = c.split(" ", 2)[0];
            if (!norm.contains(c) && command.matcher(first).find()) {
                return Optional.of("it suggests the command `" + code.group(1) + "`, which is not in the notes");
            }
        }
        Matcher cmd = command.matcher(answer);
        Set<String> seen = new HashSet<>();
        while (cmd.find()) {
            String word = cmd.group().toLowerCase(Locale.ROOT);
            if (seen.add(word) && !Pattern.compile("(?i)\\b" + Pattern.quote(word) + "\\b").matcher(material).find()) {
                return Optional.of("it names the command " + cmd.group() + ", which is not in the notes");
            }
        }
        return Optional.empty();
    }

    /** The numbers of the material, with the hours and days of its SLURM durations (08:00:00 is 8 hours). */
    private static Set<String> numbers(String material) {
        Set<String> out = new HashSet<>();
        Matcher n = NUMBER.matcher(material);
        while (n.find()) {
            String num = n.group();
            out.add(canonical(num));
            for (String part : num.split("[:\\-]")) {
                out.add(canonical(part));
            }
            Matcher c = CLOCK.matcher(num);
            if (c.matches()) {
                int days = c.group(1) == null ? 0 : Integer.parseInt(c.group(1));
                int hours = Integer.parseInt(c.group(2));
                int minutes = Integer.parseInt(c.group(3));
                out.add(Integer.toString(days * 24 + hours));
                out.add(Integer.toString(days * 24 * 60 + hours * 60 + minutes));
                out.add(Integer.toString(minutes));
                if (days > 0) {
                    out.add(Integer.toString(days));
                }
            }
        }
        return out;
    }

    /** {@code 08} is {@code 8}, {@code 31.80} is {@code 31.8}. */
    private static String canonical(String num) {
        if (!num.matches("\\d+(\\.\\d+)?")) {
            return num;
        }
        String s = num.replaceFirst("^0+(?=\\d)", "");
        if (s.contains(".")) {
            s = s.replaceFirst("0+$", "").replaceFirst("\\.$", "");
        }
        return s;
    }

    private static String normalized(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    private static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        for (String s : SENTENCE.split(text)) {
            if (!s.isBlank()) {
                out.add(s);
            }
        }
        return out;
    }

    private static String context(String s, Mention m) {
        int from = Math.max(0, m.start - 30);
        int to = Math.min(s.length(), m.end + 10);
        return (from > 0 ? "…" : "") + s.substring(from, to).strip() + (to < s.length() ? "…" : "");
    }

    /** "Out of memory (host RAM)" -> "out of memory", "host ram"; a parenthesis is a phrase when short. */
    private static List<String> titlePhrases(String title) {
        List<String> out = new ArrayList<>();
        String t = title.toLowerCase(Locale.ROOT);
        int open = t.indexOf('(');
        String main = (open >= 0 ? t.substring(0, open) : t).strip();
        if (main.split(" ").length >= 2) {
            out.add(main);
        }
        if (open >= 0 && t.endsWith(")")) {
            String inner = t.substring(open + 1, t.length() - 1).strip();
            if (!inner.contains(",") && inner.split(" ").length <= 3) {
                out.add(inner);
            }
        }
        return out;
    }

    /** Letters, digits, spaces and underscores as they are; anything else escaped. */
    private static String literal(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (!Character.isLetterOrDigit(c) && c != ' ' && c != '_') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.toString();
    }

    private static Pattern ci(String regex) {
        return Pattern.compile("(?i)" + regex);
    }

    private static String resource() {
        try (InputStream in = ExplanationGuard.class.getResourceAsStream(WORDS)) {
            if (in == null) {
                throw new IllegalStateException(WORDS + " is missing from slurmwise-agent; rebuild the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
