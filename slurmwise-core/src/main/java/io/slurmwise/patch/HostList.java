package io.slurmwise.patch;

import io.slurmwise.job.JobRecord;

import java.util.ArrayList;
import java.util.List;

/** SLURM host lists: {@code cn[081-084]}, {@code gpua[030-031,040]}, {@code lm03,cn001}. */
public final class HostList {

    /** Expanding more than this many hosts is pointless for finding one bad node. */
    private static final int MAX_HOSTS = 4096;

    private HostList() {
    }

    /** The host names of a list; empty for null, blank or {@code None assigned}. */
    public static List<String> expand(String list) {
        List<String> out = new ArrayList<>();
        if (list == null || list.isBlank() || JobRecord.noNodeAssigned(list)) {
            return out;
        }
        for (String part : splitTopLevel(list.strip())) {
            int open = part.indexOf('[');
            int close = part.indexOf(']', open + 1);
            if (open < 0 || close < 0) {
                out.add(part);
                continue;
            }
            String prefix = part.substring(0, open);
            String suffix = part.substring(close + 1);
            for (String range : part.substring(open + 1, close).split(",")) {
                String[] ab = range.split("-", 2);
                try {
                    int width = ab[0].length();
                    long a = Long.parseLong(ab[0]);
                    long b = ab.length == 2 ? Long.parseLong(ab[1]) : a;
                    for (long i = a; i <= b && out.size() < MAX_HOSTS; i++) {
                        out.add(prefix + String.format("%0" + width + "d", i) + suffix);
                    }
                } catch (NumberFormatException e) {
                    out.add(prefix + range + suffix);
                }
            }
        }
        return out;
    }

    private static List<String> splitTopLevel(String s) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(s.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(s.substring(start));
        return parts.stream().filter(p -> !p.isBlank()).toList();
    }
}
