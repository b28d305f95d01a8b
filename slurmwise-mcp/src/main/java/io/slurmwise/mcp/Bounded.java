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

    /** Every answer stays under this many bytes of compact JSON unless the caller asks for more. */
    static final int DEFAULT_BYTES = 16 * 1024;
    /** The most a caller may ask for. */
    static final int MAX_BYTES = 256 * 1024;

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
     * anything was cut, or when it already was) and {@code count} to the entries kept.
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
