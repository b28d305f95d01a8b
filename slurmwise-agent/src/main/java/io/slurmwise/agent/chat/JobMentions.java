package io.slurmwise.agent.chat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a chat text names jobs, and what it says of each: the ids a question or an answer writes ("job 1001", "jobs
 * 1001 and 1008", or a number written bare that may be a job's), and an answer's sentences split by the job they
 * speak of. Text only: whether a bare number is some job's is the {@link ChatAgent}'s to find out.
 *
 * <pre>{@code
 * JobMentions.jobsNamed("why did jobs 1001 and 1008 fail?", 5);        // [1001, 1008]
 * JobMentions.bareNumbers("what went wrong with 1001 after 48 hours?"); // [1001]
 * JobMentions.byJob("1001, not 1008, ran out of time.", Set.of("1001", "1008")); // {1001=1001, ran out of time.}
 * }</pre>
 */
final class JobMentions {

    private JobMentions() {
    }

    /**
     * Job ids a text names as jobs: after "job" or "jobs" ("job 1001", "jobs 1001 and 1008", "job #1001_7", "job
     * id 123+1"). A bare number is no job ("it used 500 GB", "after 48 hours": read as job 500, a real job of someone
     * else's would have been checked against).
     */
    private static final Pattern NAMED_JOBS = Pattern.compile("(?i)\\bjobs?\\s*(?:ids?\\s*)?"
            + "#?\\s*(\\d+(?:_\\d+|\\+\\d+)?(?:\\s*(?:,|\\band\\b|\\bor\\b|&)\\s*#?\\d+(?:_\\d+|\\+\\d+)?)*)\\b");
    private static final Pattern ONE_ID = Pattern.compile("\\d+(?:_\\d+|\\+\\d+)?");

    /** The job ids {@code text} names as jobs, first ones first, at most {@code most} (see {@link #NAMED_JOBS}). */
    static List<String> jobsNamed(String text, int most) {
        Set<String> ids = new LinkedHashSet<>();
        Matcher m = NAMED_JOBS.matcher(text == null ? "" : text);
        while (m.find() && ids.size() < most) {
            Matcher one = ONE_ID.matcher(m.group(1));
            while (one.find() && ids.size() < most) {
                ids.add(one.group());
            }
        }
        return List.copyOf(ids);
    }

    /**
     * A number written bare that may be a job id: not a quantity ("500 GB", "48 hours", "3 GPUs", "90%"), a decimal,
     * a time or date ("12:30", "2026-12-07"), a money sum or an option's value ("--time=48", "-n 4").
     */
    private static final Pattern BARE_ID = Pattern.compile(
            "(?<![\\w.$=/:+-])(?<!-[a-zA-Z] )(\\d+(?:_\\d+|\\+\\d+)?)(?![\\w.,:/%-]\\d|[\\w%]|\\.\\d)"
            + "(?!\\s*(?i:[kmgtp]i?b|[kmgtp]\\b|bytes?|hours?|hrs?|h\\b|minutes?|mins?|m\\b|seconds?|secs?|s\\b"
            + "|days?|d\\b|weeks?|months?|years?|times?|x\\b|cores?|cpus?|gpus?|nodes?|tasks?|threads?|procs?|processes"
            + "|ranks?|percent|%|gigs?|megs?|steps?|epochs?|iterations?|lines?|files?|jobs?|failures?|tries|attempts?))");
    /**
     * A year after a word of time ("since 2024"), or a number some other word owns ("exit code 137", "signal 9",
     * "line 40", "node 12", "rank 3", "port 8080"): never taken for a job.
     */
    private static final Pattern YEAR = Pattern.compile(
            "(?i)(?:\\b(?:since|in|until|till|before|after|from|of|during)\\s+(?:19|20)\\d\\d"
            + "|\\b(?:code|status|signal|sig|errno|error|port|line|version|rank|node|gpu|step|task|epoch|iteration|pid"
            + "|uid|gid|page|row|column|col|array|index|level)\\s*[#:]?\\s*\\d+)$");

    /** The numbers {@code text} writes bare that may be job ids (see {@link #BARE_ID}), first ones first. */
    static List<String> bareNumbers(String text) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = BARE_ID.matcher(text == null ? "" : text);
        while (m.find()) {
            if (!YEAR.matcher(text.substring(Math.max(0, m.start() - 14), m.end())).find()) {
                out.add(m.group(1));
            }
        }
        return List.copyOf(out);
    }

    /** Where one sentence of an answer ends. */
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+|\\n+");

    /** The sentences of {@code text}. */
    static String[] sentences(String text) {
        return SENTENCE_END.split(text);
    }

    /** Whether {@code text} writes job id {@code id} (not inside a longer number or an array task's id). */
    static boolean mentions(String text, String id) {
        return idPattern(id).matcher(text).find();
    }

    private static Pattern idPattern(String id) {
        return Pattern.compile("(?<![\\d_])" + Pattern.quote(id) + "(?![\\d_])");
    }

    /** What may stand between two jobs' ids said to share one claim: "1001 and 1008", "1001, 1008 & 1012". */
    private static final Pattern JOINED = Pattern.compile(
            "(?i)[\\s,&#()]*(?:(?:and|or|as well as|plus|both|jobs?|ids?)\\b[\\s,&#()]*)*");

    /** Words just before an id that say the claim after it is not of that job: "unlike 1008, 1001 ran out of ...". */
    private static final Pattern CONTRAST = Pattern.compile(
            "(?i)\\b(?:unlike|except(?:\\s+for)?|other\\s+than|apart\\s+from|besides|not|rather\\s+than|instead\\s+of"
            + "|whereas|while|but)\\W*(?:jobs?\\W*)?$");
    /**
     * Words just before an id that take it out of the claim of the id before it: "1001, not 1008, ran out of time",
     * "1001 and 1012 but not 1008 ...", "1001, unlike 1008, ...". Only what negates ("while 1008 ran out of GPU
     * memory" gives 1008 words of its own).
     */
    private static final Pattern NEGATED = Pattern.compile(
            "(?i)\\b(?:unlike|except(?:\\s+for)?|excluding|other\\s+than|apart\\s+from|besides|not|rather\\s+than"
            + "|instead\\s+of)\\W*(?:jobs?\\W*)?$");
    /** What stands between an id and one it is set against when the first has no words of its own: ", not ". */
    private static final Pattern JOINED_NEGATION = Pattern.compile("(?i)[\\s,&#()]*(?:(?:and|or|but|jobs?)\\b"
            + "[\\s,&#()]*)*(?:unlike|except(?:\\s+for)?|excluding|other\\s+than|apart\\s+from|besides|not"
            + "|rather\\s+than|instead\\s+of)\\W*(?:jobs?\\W*)?");

    /**
     * The sentences of {@code answer} by the job they speak of: a sentence that names one of {@code ids} starts that
     * job's part, and the sentences after it belong to it until another is named. A sentence that names several is
     * cut where each id is written: an id followed by only "and", "," or "or" before the next shares that one's words
     * ("jobs 1001 and 1008 both hit their time limits" is said of both), an id followed by words of its own has them
     * ("1001 ran out of memory and 1008 out of GPU memory"), and one set against the next ("unlike 1008, 1001 ran out
     * of memory") has none. An id negated right after another ("1001, not 1008, ran out of time") is left out with
     * its negation: the words after it are the first one's. The sentences after a sentence of several jobs belong to
     * none until one job is named again.
     */
    static Map<String, String> byJob(String answer, Set<String> ids) {
        Map<String, StringBuilder> out = new LinkedHashMap<>();
        String current = null;
        List<String> order = new ArrayList<>(ids);
        for (String written : sentences(answer)) {
            String sentence = withoutNegated(written, order);
            List<int[]> at = positions(sentence, order);
            long distinct = at.stream().mapToInt(a -> a[2]).distinct().count();
            if (distinct == 1) {
                current = order.get(at.get(0)[2]);
            } else if (distinct > 1) {
                current = null;
                claims(sentence, at, order).forEach((id, claim) ->
                        out.computeIfAbsent(id, x -> new StringBuilder()).append(claim).append(' '));
                continue;
            }
            if (current != null) {
                out.computeIfAbsent(current, k -> new StringBuilder()).append(sentence).append(' ');
            }
        }
        Map<String, String> parts = new LinkedHashMap<>();
        out.forEach((id, sb) -> parts.put(id, sb.toString().strip()));
        return parts;
    }

    /** Where {@code sentence} writes each of {@code order}'s ids, in the order written: start, end, index in order. */
    private static List<int[]> positions(String sentence, List<String> order) {
        List<int[]> at = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            Matcher m = idPattern(order.get(i)).matcher(sentence);
            while (m.find()) {
                at.add(new int[] {m.start(), m.end(), i});
            }
        }
        at.sort(Comparator.comparingInt(a -> a[0]));
        return at;
    }

    /**
     * {@code sentence} without each id negated right after another that has no words of its own before it ("1001,
     * not 1008, ran out of time" is "1001, ran out of time", "1001 but not 1008 ran ..." is "1001 ran ..."): the
     * claim is the first one's alone, and no "not" stands before it to read as a denial.
     */
    private static String withoutNegated(String sentence, List<String> order) {
        List<int[]> at = positions(sentence, order);
        for (int k = 1; k < at.size(); k++) {
            String between = sentence.substring(at.get(k - 1)[1], at.get(k)[0]);
            if (at.get(k)[2] != at.get(k - 1)[2] && JOINED_NEGATION.matcher(between).matches()
                    && NEGATED.matcher(between).find()) {
                sentence = sentence.substring(0, at.get(k - 1)[1]) + sentence.substring(at.get(k)[1]);
                at = positions(sentence, order);
                k = 0;
            }
        }
        return sentence;
    }

    /** The words of a sentence that names several jobs said of each (see {@link #byJob}), by id. */
    private static Map<String, String> claims(String sentence, List<int[]> at, List<String> order) {
        Map<String, String> out = new LinkedHashMap<>();
        List<String> sharing = new ArrayList<>();
        int from = -1;
        for (int k = 0; k < at.size(); k++) {
            int end = k + 1 < at.size() ? at.get(k + 1)[0] : sentence.length();
            String before = sentence.substring(k == 0 ? 0 : at.get(k - 1)[1], at.get(k)[0]);
            String own = sentence.substring(at.get(k)[1], end);
            boolean joined = k + 1 < at.size() && JOINED.matcher(own).matches();
            if (joined && CONTRAST.matcher(before).find()) {
                continue; // "unlike 1008, 1001 ran out of memory": the words after 1008 are not said of it
            }
            sharing.add(order.get(at.get(k)[2]));
            from = from < 0 ? at.get(k)[0] : from;
            if (joined) {
                continue; // "1001 and ": its claim is the next id's
            }
            // from the first id sharing the words to the next id's, with the sentence's start when nothing
            // follows the last ("Time limits ended 1001 and 1008.")
            String claim = ((JOINED.matcher(own.replaceAll("[.!?]+$", "")).matches()
                    ? sentence.substring(0, at.get(0)[0]) : "") + sentence.substring(from, end)).strip();
            for (String id : sharing) {
                out.merge(id, claim, (a, b) -> a + " " + b);
            }
            sharing.clear();
            from = -1;
        }
        return out;
    }
}
