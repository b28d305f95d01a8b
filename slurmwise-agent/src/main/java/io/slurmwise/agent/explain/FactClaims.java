package io.slurmwise.agent.explain;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import io.slurmwise.job.DataSize;
import io.slurmwise.job.SlurmTime;
import io.slurmwise.patch.HostList;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The job's facts as an answer states them, each in its role, and the names and settings it gives. A number the
 * material holds in another role is as invented as one it does not hold (an outside audit, a model that disagrees: "it
 * ran the full 08:00:00" of a job that ran 00:41:12 of an 08:00:00 limit, "peak 48G of 32G" beside a patch to 48G, "it
 * ran on partition long for 22:00:00" from the patch's proposal, node gpua012 of a job on other nodes,
 * {@code expandable_segments:False} where the patch sets True).
 */
final class FactClaims {

    private FactClaims() {
    }

    // -- durations: how long the job ran, and its time limit

    /**
     * Words right before a duration that make it how long the job ran ("ran the full", "after only"); not "stopped at",
     * which is as often the time of day ("stopped at 22:01:50 on 2026-11-24", set5).
     */
    private static final Pattern RAN_BEFORE = Pattern.compile("(?i)\\b(ran|lasted|elapsed|running|after)(?:\\s+(?:for|the|its|a|an|full|whole|entire|complete|all|only|just|about"
            + "|around|roughly|nearly|almost|some|over|under|exactly|of))*\\s*$");
    private static final Pattern RAN_AFTER = Pattern.compile("(?i)^\\s*(?:elapsed\\b|in\\b|into\\b)");
    /** After how long it ran, the limit it ran against: "00:41:12 of 08:00:00", "12:00:03 against a limit of 12:00:00". */
    private static final Pattern AGAINST = Pattern.compile("(?i)^\\s*(?:of|against|vs\\.?|versus|over|out of)\\s+(?:(?:a|an|the|its"
            + "|their|your|allowed|allotted|requested|time|wall-?clock|limit|allowance|of)\\s+)*$");
    /** Words right before a duration that make it the job's own limit: "its time limit of", "its". */
    private static final Pattern LIMIT_BEFORE = Pattern.compile("(?i)\\b(?:its|the job's|your job's)\\s+(?:(?:time|wall[- ]?(?:clock"
            + "|time)|run ?time)\\s+)?limit(?:\\s+(?:of|was|is|:))?\\s*$");
    private static final Pattern ITS = Pattern.compile("(?i)\\b(?:its|the job's|your job's)\\s+$");
    private static final Pattern LIMIT_AFTER = Pattern.compile("(?i)^[\\s-]*(?:(?:time|wall[- ]?(?:clock|time)|run ?time)[\\s-]+)?limit\\b");
    /** A length written as an adjective, joined to its unit: "30-minute", "12-hour". */
    private static final Pattern ATTRIBUTIVE = Pattern.compile("(?i)\\d+(?:\\.\\d+)?-[a-z]+");
    /** A noun right after a length: what the length is of. */
    private static final Pattern ATTRIBUTE_NOUN = Pattern.compile("(?i)^\\s+[a-z]");
    /** A clause that is about what to do or what would happen, not what did. */
    private static final Pattern PROPOSAL = Pattern.compile("(?i)\\b(would|could|should|will|can|may|might|needs?|next|new|resubmit\\w*"
            + "|request|ask|set|give|raise|increase|extend)\\b");

    private enum Role { RAN, LIMIT }

    private static boolean near(Duration v, Duration fact, Duration precision) {
        long tolerance = Math.max(precision.toSeconds(), fact.toSeconds() / 20);
        return Math.abs(v.toSeconds() - fact.toSeconds()) <= tolerance;
    }

    /** The clause the text before {@code at} ends with: from the last sentence or clause break. */
    private static String clauseBefore(String text, int at) {
        int from = Math.max(0, at - 60);
        String s = text.substring(from, at);
        int cut = -1;
        for (int i = 0; i < s.length(); i++) {
            if (clauseBreak(s, i)) {
                cut = i;
            }
        }
        return s.substring(cut + 1);
    }

    /** Whether {@code s} breaks a clause at {@code i}: a new line, or a stop or comma before a space or the end. */
    private static boolean clauseBreak(String s, int i) {
        char ch = s.charAt(i);
        boolean breakAfter = i + 1 >= s.length() || Character.isWhitespace(s.charAt(i + 1));
        return ch == '\n' || ((ch == '.' || ch == ';' || ch == '!' || ch == '?' || ch == ',' || ch == ':') && breakAfter);
    }

    private static Optional<String> durationProblem(String answer, JobFacts facts, String material) {
        List<Duration> given = Quantities.runDurations(material).stream().map(Quantities.Span::value).toList();
        List<Quantities.Span> spans = Quantities.runDurations(answer);
        for (Quantities.Span s : spans) {
            String before = clauseBefore(answer, s.start());
            String after = answer.substring(s.end());
            Role role = null;
            if (RAN_BEFORE.matcher(before).find() || RAN_AFTER.matcher(after).find()) {
                role = Role.RAN;
            } else if (LIMIT_BEFORE.matcher(before).find() || (ITS.matcher(before).find() && LIMIT_AFTER.matcher(after).find())) {
                role = Role.LIMIT;
            } else {
                // the limit of a pair: "00:41:12 of 08:00:00"
                for (Quantities.Span x : spans) {
                    if (x.end() <= s.start() && AGAINST.matcher(answer.substring(x.end(), s.start())).find()) {
                        role = Role.LIMIT;
                    }
                }
                // the run of a pair
                for (Quantities.Span y : spans) {
                    if (y.start() >= s.end() && AGAINST.matcher(answer.substring(s.end(), y.start())).find()) {
                        role = role == null ? Role.RAN : role;
                    }
                }
            }
            if (role == null || PROPOSAL.matcher(before).find()) {
                continue;
            }
            // a length joined to its noun ("the 30-minute timeout", "a 12-hour limit") is that noun's: the job's limit
            // where the noun is a limit, nothing of the job's otherwise
            if (ATTRIBUTIVE.matcher(answer.substring(s.start(), s.end())).matches() && ATTRIBUTE_NOUN.matcher(after).lookingAt()
                    && !LIMIT_AFTER.matcher(after).lookingAt()) {
                continue;
            }
            Duration fact = role == Role.RAN ? facts.elapsed() : facts.limit();
            if (fact == null || near(s.value(), fact, s.precision())) {
                continue;
            }
            // a time the job's data gives in another role (its limit, the patch's proposal): a fact misplaced
            Optional<Duration> other = given.stream().filter(d -> !near(d, fact, Duration.ZERO))
                    .filter(d -> near(s.value(), d, s.precision())).findFirst();
            if (other.isPresent()) {
                String written = answer.substring(s.start(), s.end());
                return Optional.of(role == Role.RAN
                        ? "it says the job ran " + written + ", but it ran " + SlurmTime.format(fact)
                        + (facts.limit() != null && near(s.value(), facts.limit(), s.precision())
                        ? " (" + written + " is its time limit)" : "")
                        : "it gives the job's time limit as " + written + ", but its limit was " + SlurmTime.format(fact));
            }
        }
        return Optional.empty();
    }

    // -- memory: the job's peak against its limit

    private static final Pattern SIZE_AGAINST = Pattern.compile("(?i)^\\s*(?:of|out of|against|vs\\.?|versus)\\s+(?:(?:a|an|the|its"
            + "|their|your|allowed|requested|limit|memory|host|mem)\\s+)*$");
    private static final Pattern PEAK_BEFORE = Pattern.compile("(?i)(?:\\b(?:peak(?:ed)?|maxrss)(?:\\s+(?:memory|use|usage|rss|was|of|at"
            + "|reached|hit|is|:|=))*|\\b(?:used|consumed)(?:\\s+(?:only|about|around|nearly|just))*)\\s*$");

    private static Optional<String> memoryProblem(String answer, JobFacts facts, String material) {
        if (facts.peak() == null || facts.memoryLimits().isEmpty()) {
            return Optional.empty();
        }
        List<DataSize> given = Quantities.sizes(material).stream().map(Quantities.Size::value).toList();
        List<Quantities.Size> all = Quantities.sizes(answer);
        for (int i = 0; i < all.size(); i++) {
            Quantities.Size x = all.get(i);
            boolean xPeak = Quantities.near(x.value(), facts.peak());
            boolean xGiven = given.stream().anyMatch(g -> Quantities.near(x.value(), g));
            if (!xPeak && xGiven && PEAK_BEFORE.matcher(clauseBefore(answer, x.start())).find()) {
                return Optional.of("it gives the job's memory peak as " + answer.substring(x.start(), x.end()).strip()
                        + ", but its peak was " + facts.peak());
            }
            if (i + 1 < all.size() && SIZE_AGAINST.matcher(answer.substring(x.end(), all.get(i + 1).start())).find()) {
                Quantities.Size y = all.get(i + 1);
                boolean yLimit = facts.memoryLimits().stream().anyMatch(l -> Quantities.near(y.value(), l));
                boolean yGiven = given.stream().anyMatch(g -> Quantities.near(y.value(), g));
                if (yLimit && !xPeak && xGiven) {
                    return Optional.of("it gives the job's memory peak as " + answer.substring(x.start(), x.end()).strip()
                            + ", but its peak was " + facts.peak());
                }
                if (xPeak && !yLimit && yGiven) {
                    return Optional.of("it gives the job's memory limit as " + answer.substring(y.start(), y.end()).strip()
                            + ", but its limit was " + facts.memoryLimits().get(0));
                }
                // the two swapped: "used 128G against its 1023.6M limit" of a peak of 1023.6M under 128G per node
                boolean xLimit = facts.memoryLimits().stream().anyMatch(l -> Quantities.near(x.value(), l));
                boolean yPeak = Quantities.near(y.value(), facts.peak());
                if (xLimit && !xPeak && yPeak && !yLimit) {
                    return Optional.of("it gives the job's memory peak as " + answer.substring(x.start(), x.end()).strip()
                            + " and its limit as " + answer.substring(y.start(), y.end()).strip() + ", but its peak was "
                            + facts.peak() + " of " + facts.memoryLimits().get(0));
                }
            }
        }
        return Optional.empty();
    }

    // -- the partition and the nodes it ran on

    /** A name as SLURM writes one: a node ({@code gpua012}, {@code cn[041-044]}) or partition with a digit in it. */
    private static final String NAME = "[A-Za-z][A-Za-z\\-]*\\d[\\w\\-]*(?:\\[[\\d,\\-]+\\][\\w\\-]*)?";
    private static final Pattern NODE = Pattern.compile("(?i)\\b(?:nodes?|hosts?)\\s+`?(" + NAME + ")|\\b(" + NAME + ")`?\\s+nodes?\\b"
            + "|--(?:exclude|nodelist)[= ]`?(" + NAME + ")");
    /** "on gpua012": only a lower-case name, as hosts are (not "on A100 GPUs"). */
    private static final Pattern ON_HOST = Pattern.compile("\\bon\\s+`?([a-z][a-z\\-]*\\d[a-z\\d\\-]*(?:\\[[\\d,\\-]+\\])?)(?:$|[^\\w\\[])");
    /**
     * Words after "on" that have a host's shape but name hardware, a number format or a device: "trained on bf16",
     * "runs on a100s", "on gpu0", "on rank3", "on python3" are no node names.
     */
    private static final Pattern NOT_HOST = Pattern.compile("(?:fp|bf|tf|int|uint|float)\\d+"
            + "|(?:gpu|cuda|rank|device|cpu|core|socket|numa|ib|eth|sm_?|py|python|gcc)\\d[\\d.\\-]*"
            + "|(?:a|h|v|l|b|p|k|mi)\\d{2,3}[a-z]?s?");
    private static final Pattern HOSTLIST = Pattern.compile("[A-Za-z][\\w\\-]*\\[[\\d,\\-]+\\][\\w\\-]*");
    /** Where the answer says the job ran: "it ran on partition long", "was submitted to the cpu partition". */
    private static final Pattern RAN_ON = Pattern.compile("(?i)\\b(?:ran|was running|were running|was submitted|submitted|was queued"
            + "|was scheduled|started|was|were)\\s+(?:\\w+\\s+){0,2}?(?:on|in|to)\\s+(?:the\\s+)?(?:partition\\s+`?([\\w.\\-]+)|`?([\\w.\\-]+)`?"
            + "\\s+partition\\b)");
    /** "ran on gpuH100x8": where the answer says the job ran, without the word partition (a name checked as one below). */
    private static final Pattern RAN_ON_NAME = Pattern.compile("(?i)\\b(?:ran|was running|were running|was submitted|submitted"
            + "|was queued|was scheduled|started|was|were)\\s+(?:\\w+\\s+){0,2}?(?:on|in|to)\\s+(?:the\\s+)?`?([\\w.\\-]+)");
    /** The partitions the material names as such: "--partition=gpuH100x8 (was gpuA100x4)", "partition gpuA100x4". */
    private static final Pattern PARTITION_GIVEN = Pattern.compile("(?i)--partition[= ]`?([\\w.\\-]+)(?:\\s+\\(was\\s+([\\w.\\-]+)\\))?"
            + "|\\bpartition\\s+`?([\\w.\\-]+)");
    private static final Set<String> NOT_NAMES = Set.of("a", "an", "the", "this", "that", "its", "your", "which", "whose", "where",
            "or", "and", "with", "limits", "limit", "nodes", "same");
    /** A partition named as such: "--partition=long", "-p long", "partition gpuA100x4" (a name with a digit). */
    private static final Pattern PARTITION = Pattern.compile("(?i)--partition[= ]`?([\\w.\\-]+)|(?:^|\\s)-p\\s+`?([\\w.\\-]+)"
            + "|\\bpartition\\s+`?(" + NAME + ")|\\b(" + NAME + ")`?\\s+partition\\b");

    /**
     * Where the answer places the job in prose, without "ran": "timed out on the long partition", "in partition cpu".
     * Not "jobs on the long partition" (jobs in general).
     */
    private static final Pattern ON_PARTITION = Pattern.compile("(?i)(?:^|[^\\w])(jobs\\s+)?(?:on|in|into|to|from|under|within)\\s+"
            + "(?:(?:(?:the|its|their|your|a|an)\\s+)?`?([\\w.\\-]+)`?\\s+partition\\b|partition\\s+`?([\\w.\\-]+))");
    /** Words before "partition" that name none: "a different partition", "the same partition", "a longer partition". */
    private static final Set<String> NO_PARTITION = Set.of("same", "different", "other", "another", "wrong", "right",
            "correct", "default", "new", "old", "older", "newer", "larger", "bigger", "longer", "shorter", "smaller",
            "faster", "slower", "whole", "entire", "one", "any", "each", "every", "this", "that", "these", "those",
            "which", "what", "your", "my", "its", "their", "our", "the", "a", "an", "busy", "free", "idle", "full",
            "main", "proper", "appropriate", "suitable", "given", "requested", "target", "original", "current",
            "separate", "shared", "specific", "single", "some", "no", "job's", "own", "next", "such", "slurm");
    /** A clause about where the job could go, not where it was: "move it to", "use", "or run it on", "fits better in". */
    private static final Pattern MOVE = Pattern.compile("(?i)\\b(?:move|moving|switch\\w*|use|using|try|trying|submit|run"
            + "|put|send|choose|pick|consider|prefer|target|fits?|instead|rather|or|if|unless|better|available|allows?"
            + "|offers?|maximum|max(?:time)?)\\b");
    /** What says what the job did where the clause places it: "timed out on", "ran in", "hit its limit on". */
    private static final Pattern WAS = Pattern.compile("(?i)\\b(?:ran|was|were|had|hit|got|died|failed|timed|stopped|ended"
            + "|crashed|started|waited|lost|reached|spent|sat)\\b");

    /**
     * A partition the answer places the job on in prose ("hit its 08:00:00 limit on the long partition") that is not
     * the one it ran on, in a clause that says what the job did there and is no proposal, or empty: the patch's
     * {@code --partition=long} said as where the job timed out, or a partition the job's data never gave.
     */
    private static Optional<String> proseProblem(String answer, JobFacts facts, String material) {
        if (facts.partition() == null) {
            return Optional.empty();
        }
        String own = facts.partition().toLowerCase(Locale.ROOT);
        Set<String> known = partitionsNamed(material);
        Matcher m = ON_PARTITION.matcher(answer);
        while (m.find()) {
            String name = (m.group(2) != null ? m.group(2) : m.group(3)).replaceAll("[.`]+$", "");
            String l = name.toLowerCase(Locale.ROOT);
            if (m.group(1) != null || l.isEmpty() || NO_PARTITION.contains(l) || NOT_NAMES.contains(l) || l.startsWith("<")
                    || own.contains(l) || !(known.contains(l) || l.matches(".*\\d.*"))) {
                continue; // "on the GPU partition" of gpuA100x4, "on the A100 partition", "a partition whose nodes"
            }
            if (!says(answer, m.start(), m.end(), null)) {
                continue;
            }
            return Optional.of("it places the job on partition " + name + ", but it ran on " + facts.partition());
        }
        return Optional.empty();
    }

    /**
     * More names the material gives as partitions than {@link #PARTITION_GIVEN}'s: {@code "partition":"cpu"} (a tool's
     * JSON), "the long partition", "long (MaxTime 7-00:00:00)" (the notes' list of longer partitions).
     */
    private static final Pattern PARTITION_NAMED = Pattern.compile("(?i)\"partition\"\\s*:\\s*\"([\\w.\\-]+)\""
            + "|\\b([\\w.\\-]+)`?\\s+partition\\b|\\b([\\w.\\-]+)\\s+\\(MaxTime\\b");

    /** The partitions the material names as such ({@link #PARTITION_GIVEN}, {@link #PARTITION_NAMED}). */
    private static Set<String> partitionsNamed(String material) {
        Set<String> out = names(PARTITION_GIVEN, material);
        out.addAll(names(PARTITION_NAMED, material));
        return out;
    }

    /** Every name {@code pattern}'s groups take in {@code text}, lower case, without the words that name none. */
    private static Set<String> names(Pattern pattern, String text) {
        Set<String> out = new HashSet<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            for (int g = 1; g <= m.groupCount(); g++) {
                if (m.group(g) != null) {
                    out.add(m.group(g).toLowerCase(Locale.ROOT));
                }
            }
        }
        out.removeAll(NOT_NAMES);
        return out;
    }

    /** The clause the text after {@code at} starts with: to the next sentence or clause break. */
    private static String clauseAfter(String text, int at) {
        String s = text.substring(at, Math.min(text.length(), at + 60));
        for (int i = 0; i < s.length(); i++) {
            if (clauseBreak(s, i)) {
                return s.substring(0, i);
            }
        }
        return s;
    }

    private static boolean nodeGiven(String name, String lowerMaterial, Set<String> expanded, JobFacts facts) {
        for (String n : HostList.expand(name)) {
            String l = n.toLowerCase(Locale.ROOT);
            if (!lowerMaterial.contains(l) && !expanded.contains(l) && !facts.nodes().contains(l)) {
                return false;
            }
        }
        return true;
    }

    private static Optional<String> placeProblem(String answer, JobFacts facts, String material) {
        String lower = material.toLowerCase(Locale.ROOT);
        Set<String> expanded = new HashSet<>();
        Matcher h = HOSTLIST.matcher(material);
        while (h.find()) {
            HostList.expand(h.group()).forEach(n -> expanded.add(n.toLowerCase(Locale.ROOT)));
        }
        Matcher r = RAN_ON.matcher(answer);
        while (r.find()) {
            String before = clauseBefore(answer, r.start()) + answer.substring(r.start(), r.end());
            String name = (r.group(1) != null ? r.group(1) : r.group(2)).replaceAll("[.`]+$", "");
            boolean keyword = r.group(1) != null;
            String l = name.toLowerCase(Locale.ROOT);
            boolean named = !NOT_NAMES.contains(l) && (keyword || containsWord(lower, l) || l.matches(".*\\d.*"));
            if (facts.partition() != null && named && !l.equals(facts.partition().toLowerCase(Locale.ROOT))
                    && !PROPOSAL.matcher(before).find()) {
                return Optional.of("it says the job ran on partition " + name + ", but it ran on " + facts.partition());
            }
        }
        Set<String> partitions = names(PARTITION_GIVEN, material);
        Matcher ro = RAN_ON_NAME.matcher(answer);
        while (ro.find()) {
            String l = ro.group(1).replaceAll("[.`]+$", "").toLowerCase(Locale.ROOT);
            String before = clauseBefore(answer, ro.start()) + answer.substring(ro.start(), ro.end());
            if (facts.partition() != null && partitions.contains(l) && !l.equals(facts.partition().toLowerCase(Locale.ROOT))
                    && !PROPOSAL.matcher(before).find()) {
                return Optional.of("it says the job ran on partition " + ro.group(1).replaceAll("[.`]+$", "")
                        + ", but it ran on " + facts.partition());
            }
        }
        Matcher p = PARTITION.matcher(answer);
        while (p.find()) {
            String name = first(p);
            if (name.startsWith("<")) {
                continue;
            }
            String n = name.replaceAll("[.`]+$", "");
            if (!n.isEmpty() && !lower.contains(n.toLowerCase(Locale.ROOT))) {
                return Optional.of("it names the partition " + n + ", which is not in the job's data or the notes");
            }
        }
        for (Pattern pattern : new Pattern[] {NODE, ON_HOST}) {
            Matcher m = pattern.matcher(answer);
            while (m.find()) {
                String name = first(m).replaceAll("[.\\-]+$", "");
                if (pattern == ON_HOST && NOT_HOST.matcher(name).matches()) {
                    continue;
                }
                if (!nodeGiven(name, lower, expanded, facts)) {
                    return Optional.of("it names the node " + name + ", which is not in the job's data or the notes");
                }
                boolean option = pattern == NODE && m.group(3) != null; // --exclude=, --nodelist=: a proposal
                if (!option && !facts.nodes().isEmpty() && !ownNodes(name, facts) && says(answer, m.start(), m.end(), NODE_ADVICE)) {
                    return Optional.of("it places the job on node " + name + ", but it ran on "
                            + String.join(",", new java.util.TreeSet<>(facts.nodes())));
                }
            }
        }
        return Optional.empty();
    }

    /** Whether every node {@code name} gives is one the job ran on. */
    private static boolean ownNodes(String name, JobFacts facts) {
        return HostList.expand(name).stream().allMatch(n -> facts.nodes().contains(n.toLowerCase(Locale.ROOT)));
    }

    /** Nodes said of the job in words about what to avoid or report, not where it was: "exclude node gpua033". */
    private static final Pattern NODE_ADVICE = Pattern.compile("(?i)\\b(?:exclude\\w*|avoid\\w*|drain\\w*|report\\w*"
            + "|other|another|different)\\b");

    /**
     * Whether the clause around {@code start..end} says what the job did there ("lost its link on gpua033", "timed out
     * on the long partition"): a fact verb, and no proposal, no move and nothing {@code not} matches.
     */
    private static boolean says(String answer, int start, int end, Pattern not) {
        String clause = clauseBefore(answer, start) + answer.substring(start, end) + clauseAfter(answer, end);
        return WAS.matcher(clause).find() && !PROPOSAL.matcher(clause).find() && !MOVE.matcher(clause).find()
                && (not == null || !not.matcher(clause).find());
    }

    private static String first(Matcher m) {
        for (int g = 1; g <= m.groupCount(); g++) {
            if (m.group(g) != null) {
                return m.group(g);
            }
        }
        return "";
    }

    private static boolean containsWord(String text, String word) {
        return Pattern.compile("(?:^|[^\\w-])" + Pattern.quote(word) + "(?:$|[^\\w-])").matcher(text).find();
    }

    // -- settings: KEY=VALUE, key:value

    /**
     * An environment variable set ({@code NCCL_DEBUG=INFO}), and a snake_case key given a value
     * ({@code expandable_segments:True}, {@code drop_last=True}), also inside the first.
     */
    private static final List<Pattern> SETTINGS = List.of(
            Pattern.compile("(?:^|[^\\w\\-$])([A-Z][A-Z0-9_]{2,})=([^\\s`'\",;)]+)"),
            Pattern.compile("(?:^|[^\\w\\-$])([a-z][a-z0-9]*_[a-z0-9_]+)[:=]([^\\s`'\",;)]+)"));

    private static Optional<String> settingProblem(String answer, String material) {
        for (Pattern setting : SETTINGS) {
            Matcher m = setting.matcher(answer);
            while (m.find()) {
                String key = m.group(1);
                String value = m.group(2).replaceAll("[.:]+$", "");
                Set<String> given = new HashSet<>();
                boolean variable = false;
                Matcher g = setting.matcher(material);
                while (g.find()) {
                    if (g.group(1).equals(key)) {
                        String v = g.group(2).replaceAll("[.:]+$", "");
                        given.add(v.toLowerCase(Locale.ROOT));
                        variable |= v.startsWith("$") || v.startsWith("<");
                    }
                }
                // a value the notes leave to the job ($SLURM_CPUS_PER_TASK, <n>) may be the job's own
                if (given.isEmpty() || variable || given.contains(value.toLowerCase(Locale.ROOT))
                        || offeredNear(material, key, value)) {
                    continue;
                }
                return Optional.of("it gives " + key + " the value " + value + ", where the notes and the patch give "
                        + String.join(" or ", new java.util.TreeSet<>(given)));
            }
        }
        return Optional.empty();
    }

    /** Whether the material offers {@code value} as an alternative close after {@code key} ("NCCL_SOCKET_IFNAME=ib0 (or eth0)"). */
    private static boolean offeredNear(String material, String key, String value) {
        for (int i = material.indexOf(key); i >= 0; i = material.indexOf(key, i + 1)) {
            String window = material.substring(i, Math.min(material.length(), i + key.length() + 80));
            if (containsWord(window.toLowerCase(Locale.ROOT), value.toLowerCase(Locale.ROOT))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why the answer's facts, names or settings are not the job's, or empty.
     *
     * @param material everything the model was given
     * @param facts    the job's facts, {@link JobFacts#NONE} where only the material is known (the role checks need
     *                 them)
     */
    static Optional<String> problem(String answer, String material, JobFacts facts) {
        return durationProblem(answer, facts, material)
                .or(() -> memoryProblem(answer, facts, material))
                .or(() -> placeProblem(answer, facts, material))
                .or(() -> proseProblem(answer, facts, material))
                .or(() -> settingProblem(answer, material));
    }
}
