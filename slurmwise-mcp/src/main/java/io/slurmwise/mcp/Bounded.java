package io.slurmwise.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Keeps a tool's answer under a byte budget: a model's context is small, and a client shows the whole result.
 * The named list is cut from its end until the compact JSON fits, {@code truncated} says it was and {@code omitted}
 * how many entries were cut.
 */
final class Bounded {

    /**
     * Every answer stays under this many bytes unless the caller asks for more: the whole of what a client receives,
     * the compact JSON and the text form together (an outside audit: the text form came on top of a 16 KB JSON).
     */
    static final int DEFAULT_BYTES = 16 * 1024;
    /** The most a caller may ask for. */
    static final int MAX_BYTES = 256 * 1024;
    /** The room an answer keeps for its text form: the JSON's lists are cut to the budget less this. */
    static final int TEXT_BYTES = 2 * 1024;
    /** The least of the text form kept when the JSON takes the rest of the budget: what was cut and where it is. */
    static final int MIN_TEXT_BYTES = 512;

    /** The bytes of compact JSON an answer of {@code answerBytes} leaves after the room for its text form. */
    static int jsonBytes(int answerBytes) {
        return Math.max(answerBytes / 2, answerBytes - TEXT_BYTES);
    }

    /** UTF-8 bytes of {@code s}. */
    static int utf8(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    /**
     * The head of {@code s} that takes at most {@code maxBytes} of UTF-8, cut at a character (never inside a surrogate
     * pair), whole when it fits.
     */
    static String headBytes(String s, int maxBytes) {
        if (utf8(s) <= maxBytes) {
            return s;
        }
        int used = 0;
        int i = 0;
        while (i < s.length()) {
            int cp = s.codePointAt(i);
            int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (used + n > maxBytes) {
                break;
            }
            used += n;
            i += Character.charCount(cp);
        }
        return s.substring(0, i);
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private Bounded() {
    }

    static int size(Object value) {
        try {
            return JSON.writeValueAsBytes(value).length;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tool answer is not serialisable: " + e.getMessage(), e);
        }
    }

    /**
     * Cuts {@code m.get(listKey)} until {@code m} fits in {@code maxBytes}; sets {@code truncated} (true when
     * anything was cut, or when it already was) and {@code count} to the entries kept. When not even the first entry
     * fits, it is kept with its long fields cut ({@link #shortFields}), not left out with the rest.
     */
    static Map<String, Object> fit(Map<String, Object> m, String listKey, int maxBytes) {
        Object v = m.get(listKey);
        List<?> list = v instanceof List<?> l ? new ArrayList<>(l) : List.of();
        boolean cut = Boolean.TRUE.equals(m.get("truncated"));
        if (size(m) > maxBytes && !list.isEmpty()) {
            int omittedBefore = m.get("omitted") instanceof Number n ? n.intValue() : 0;
            // halve, then step back up: a few serialisations, whatever the length; each measured with the count,
            // omitted and truncated it will carry (measured without them, a cut answer came out a few bytes over)
            int lo = 0;
            int hi = list.size();
            while (lo < hi) {
                int mid = (lo + hi + 1) / 2;
                cutTo(m, listKey, list, mid, omittedBefore);
                if (size(m) <= maxBytes) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            cutTo(m, listKey, list, lo, omittedBefore);
            if (lo == 0) {
                // not even one entry fits whole (its fields are 16 K characters each): the first, its fields cut
                cutTo(m, listKey, list, 1, omittedBefore);
                Map<String, Object> shortened = shortFields(m, maxBytes);
                if (!shortened.containsKey("left_out_fields")) {
                    m.clear();
                    m.putAll(shortened);
                } else {
                    cutTo(m, listKey, list, 0, omittedBefore);
                }
            }
            cut = true;
        }
        m.put("truncated", cut);
        return m;
    }

    private static void cutTo(Map<String, Object> m, String listKey, List<?> list, int kept, int omittedBefore) {
        m.put(listKey, new ArrayList<>(list.subList(0, kept)));
        if (m.containsKey("count")) {
            m.put("count", kept);
        }
        // how many were cut, so that a list cut to nothing is not read as "none" (an outside audit)
        m.put("omitted", list.size() - kept + omittedBefore);
        m.put("truncated", true);
    }

    /** The two text contents a client receives for an answer: the compact JSON, then the text form. */
    record Parts(String json, String text) {
        int bytes() {
            return utf8(json) + utf8(text);
        }
    }

    /** The shortest a field is cut to so that one record fits: a path's or a reason's telling head. */
    static final int MIN_FIELD_CHARS = 64;

    /**
     * The answer as a client receives it, both parts together within {@link ToolAnswer#maxBytes()}: every field cut to
     * {@link #MAX_FIELD_CHARS}; when the JSON's lists were cut ({@code omitted}), the text form says so too. When the
     * JSON is still over its share ({@link #jsonBytes}: one record whose name, work dir, node list and reason are 16 K
     * characters each, no list to cut), its long fields are cut shorter, to the longest length that fits, and
     * {@code fields_cut_to} says to what ({@link #shortFields}). When the two still do not fit, the text form is cut
     * (never below {@link #MIN_TEXT_BYTES}), says where, and the JSON says {@code text_truncated: true}.
     */
    @SuppressWarnings("unchecked")
    static Parts parts(ToolAnswer a) {
        int budget = a.maxBytes();
        String under = "under " + (budget % 1024 == 0 ? budget / 1024 + " KiB" : budget + " bytes");
        Map<String, Object> json = json(a);
        String fieldsCut = "";
        if (json.containsKey("fields_cut_to")) { // cut here, or by a tool's list cut (fit)
            fieldsCut = json.get("fields_cut_to") instanceof Number n
                    ? "\n" + note("(the structured answer cuts every field longer than " + n + " characters there,"
                    + " marked '[... more characters cut]', to stay " + under + ": fields_cut_to)") : "";
            if (json.get("left_out_fields") instanceof List<?> left) {
                fieldsCut += "\n" + note("(the structured answer leaves out " + String.join(", ", (List<String>) left)
                        + ": too large to stay " + under + "; left_out_fields)");
            }
        }
        // the text form is for a person, often on a terminal: what a log or a record holds cannot steer it (the JSON
        // escapes control characters itself)
        String body = capped(io.slurmwise.mcp.stdio.Shown.lines(a.summary()), MAX_FIELD_CHARS);
        // the JSON's lists were cut: the text says so, unless the tool's text already does (its note wrapped)
        boolean toolSaysSo = body.replaceAll("\\s+", " ").contains("to stay under");
        String jsonCut = (json.get("omitted") instanceof Number n && n.longValue() > 0 && !toolSaysSo
                ? "\n" + note("(the structured answer leaves out " + n + " entries to stay " + under
                + ": truncated, omitted)") : "") + fieldsCut;
        Parts whole = new Parts(write(json), body + jsonCut);
        if (whole.bytes() <= budget) {
            return whole;
        }
        json.put("text_truncated", true);
        String jsonText = write(json);
        String marker = "\n" + note("[... the text form is cut here to keep the whole answer " + under
                + " (text_truncated in the structured answer)]");
        int room = Math.max(MIN_TEXT_BYTES, budget - utf8(jsonText)) - utf8(marker) - utf8(jsonCut);
        return new Parts(jsonText, headBytes(body, Math.max(0, room)) + marker + jsonCut);
    }

    /** The width of a text form's lines: a note of what was cut fits a terminal as the rest of the text does. */
    static final int COLUMNS = 80;

    /**
     * A note of the text form ("(the structured answer leaves out ...)") wrapped at {@link #COLUMNS}: its words
     * on lines of at most that many characters (a longer word on a line of its own), each line after the first
     * indented by one space.
     */
    static String note(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        int lineStart = 0;
        for (String word : text.split(" ")) {
            if (out.length() > lineStart && out.length() - lineStart + 1 + word.length() > COLUMNS) {
                out.append('\n');
                lineStart = out.length();
                out.append(' ');
            } else if (out.length() > lineStart) {
                out.append(' ');
            }
            out.append(word);
        }
        return out.toString();
    }

    /**
     * The JSON part of the answer a client receives ({@link #parts} without the text form, whose cut it does not
     * mark): every field cut to {@link #MAX_FIELD_CHARS}, and the whole within its share of the budget
     * ({@link #jsonBytes}), long fields cut shorter when it is not ({@link #shortFields}). What a model reads in
     * process is what it reads over MCP.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> json(ToolAnswer a) {
        Map<String, Object> json = (Map<String, Object>) capStrings(a.json(), MAX_FIELD_CHARS);
        int share = jsonBytes(a.maxBytes());
        return size(json) > share ? shortFields(json, share) : json;
    }

    /**
     * {@code json} within {@code maxBytes}: every string cut to the longest length (from {@link #MAX_FIELD_CHARS} down
     * to {@link #MIN_FIELD_CHARS}) at which the whole fits, said in {@code fields_cut_to}; short fields (ids, states,
     * numbers) stay whole. When even that does not fit (a list no tool cut), only the top level's own values are kept,
     * cut to the least, with {@code left_out_fields} naming the rest and {@code truncated: true}: valid JSON either way.
     */
    static Map<String, Object> shortFields(Map<String, Object> json, int maxBytes) {
        Map<String, Object> fits = withCut(json, MIN_FIELD_CHARS);
        if (size(fits) > maxBytes) {
            Map<String, Object> top = new java.util.LinkedHashMap<>();
            List<String> left = new ArrayList<>();
            json.forEach((k, v) -> {
                if (v instanceof Map<?, ?> || v instanceof List<?>) {
                    left.add(k);
                } else {
                    top.put(k, capStrings(v, MIN_FIELD_CHARS));
                }
            });
            top.put("truncated", true);
            top.put("left_out_fields", left);
            top.put("fields_cut_to", MIN_FIELD_CHARS);
            return top;
        }
        // the longest cut that fits: a few serialisations, whatever the record holds
        int lo = MIN_FIELD_CHARS;
        int hi = MAX_FIELD_CHARS;
        while (lo < hi) {
            int mid = (lo + hi + 1) / 2;
            Map<String, Object> tried = withCut(json, mid);
            if (size(tried) <= maxBytes) {
                lo = mid;
                fits = tried;
            } else {
                hi = mid - 1;
            }
        }
        return fits;
    }

    /** {@code json} with every string cut to {@code maxChars} and {@code fields_cut_to} saying so. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> withCut(Map<String, Object> json, int maxChars) {
        Map<String, Object> m = (Map<String, Object>) capStrings(json, maxChars);
        m.put("fields_cut_to", maxChars);
        return m;
    }

    private static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tool answer is not serialisable: " + e.getMessage(), e);
        }
    }

    /**
     * The longest text any one field of an answer carries: a path is at most 4,096 bytes, a job name far less. One
     * limit with the explanation's ({@link io.slurmwise.diagnose.Explanation#MAX_CHARS}), which the CLI applies too.
     */
    static final int MAX_FIELD_CHARS = io.slurmwise.diagnose.Explanation.MAX_CHARS;

    /**
     * {@code value} with every string longer than {@code maxChars} cut there and marked (a record whose job name or
     * work dir is 300 KB made answers of megabytes that no list budget cut); maps keep their keys and order.
     */
    static Object capStrings(Object value, int maxChars) {
        if (value instanceof String str) {
            return capped(str, maxChars);
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new java.util.LinkedHashMap<>();
            map.forEach((k, v) -> out.put(k, capStrings(v, maxChars)));
            return out;
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(v -> out.add(capStrings(v, maxChars)));
            return out;
        }
        return value;
    }

    /** {@code s} cut at {@code maxChars} (never inside a surrogate pair) with how much was left out. */
    static String capped(String s, int maxChars) {
        if (s == null || s.length() <= maxChars) {
            return s;
        }
        int end = Character.isHighSurrogate(s.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
        return s.substring(0, end) + " [... " + (s.length() - end) + " more characters cut]";
    }
}
