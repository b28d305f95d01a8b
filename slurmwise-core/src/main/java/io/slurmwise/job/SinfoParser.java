package io.slurmwise.job;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parses partitions from {@code sinfo -o '%R|%l|%D|%c|%m|%G|%a'} (or {@code %P}, whose default partition carries
 * a {@code *}). The first line may be the header {@code PARTITION|TIMELIMIT|NODES|CPUS|MEMORY|GRES|AVAIL}; rows
 * of the same partition (one per node state) are merged.
 */
public final class SinfoParser {

    public static final String FORMAT = "%P|%l|%D|%c|%m|%G|%a";

    private SinfoParser() {
    }

    /**
     * What {@link #read} made of sinfo's output.
     *
     * @param header      whether the first line was sinfo's header (it always is without {@code -h})
     * @param unreadLines lines that are no partition row: the wrong number of fields, a name or node count that
     *                    is not printable text or a number (output cut short, or not sinfo's)
     * @param firstUnread the first of them, as a printable excerpt with its line number; null when none
     */
    public record Read(List<Partition> partitions, boolean header, int unreadLines, String firstUnread) {
        public Read {
            partitions = List.copyOf(partitions);
        }
    }

    public static List<Partition> parse(String text) {
        return read(text).partitions();
    }

    /** Parses and says which lines could not be read, so a cut or garbled answer is not taken for a cluster. */
    public static Read read(String text) {
        Map<String, Partition> byName = new LinkedHashMap<>();
        Map<String, Integer> col = null;
        int width = 0;
        boolean header = false;
        int unread = 0;
        String firstUnread = null;
        int lineNo = 0;
        for (String raw : text.split("\\R")) {
            lineNo++;
            String line = raw.strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\\|", -1);
            if (col == null) {
                col = new HashMap<>();
                if (f[0].equalsIgnoreCase("PARTITION")) {
                    for (int i = 0; i < f.length; i++) {
                        col.put(f[i].strip().toUpperCase(Locale.ROOT), i);
                    }
                    width = f.length;
                    header = true;
                    continue;
                }
                String[] names = {"PARTITION", "TIMELIMIT", "NODES", "CPUS", "MEMORY", "GRES", "AVAIL"};
                for (int i = 0; i < names.length; i++) {
                    col.put(names[i], i);
                }
                width = names.length;
            }
            String name = field(f, col, "PARTITION");
            if (f.length != width || !printable(name) || !field(f, col, "NODES").matches("\\d*")) {
                unread++;
                if (firstUnread == null) {
                    firstUnread = "line " + lineNo + ": `" + Excerpt.of(line, 120) + "`";
                }
                continue;
            }
            if (name.isEmpty()) {
                continue;
            }
            boolean isDefault = name.endsWith("*");
            if (isDefault) {
                name = name.substring(0, name.length() - 1);
            }
            Partition p = new Partition(name, isDefault, TimeLimit.parse(field(f, col, "TIMELIMIT")),
                    intOf(field(f, col, "NODES")), intOf(field(f, col, "CPUS").replaceAll("\\+$", "")),
                    DataSize.tryParse(field(f, col, "MEMORY").replaceAll("\\+$", "")).orElse(null),
                    normaliseGres(field(f, col, "GRES")), !field(f, col, "AVAIL").equalsIgnoreCase("down"));
            Partition prev = byName.get(name);
            if (prev != null) {
                p = new Partition(name, prev.isDefault() || isDefault, prev.maxTime(), prev.nodes() + p.nodes(),
                        Math.max(prev.cpusPerNode(), p.cpusPerNode()), prev.memoryPerNode(), prev.gres(), prev.up());
            }
            byName.put(name, p);
        }
        return new Read(new ArrayList<>(byName.values()), header, unread, firstUnread);
    }

    private static boolean printable(String s) {
        return s.chars().noneMatch(c -> Character.isISOControl(c) || c == '\uFFFD');
    }

    private static String normaliseGres(String g) {
        return g.equals("(null)") ? "" : g;
    }

    private static String field(String[] f, Map<String, Integer> col, String name) {
        Integer i = col.get(name);
        return i == null || i >= f.length ? "" : f[i].strip();
    }

    private static int intOf(String s) {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
