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

    public static List<Partition> parse(String text) {
        Map<String, Partition> byName = new LinkedHashMap<>();
        Map<String, Integer> col = null;
        for (String raw : text.split("\\R")) {
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
                    continue;
                }
                String[] names = {"PARTITION", "TIMELIMIT", "NODES", "CPUS", "MEMORY", "GRES", "AVAIL"};
                for (int i = 0; i < names.length; i++) {
                    col.put(names[i], i);
                }
            }
            String name = field(f, col, "PARTITION");
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
                p = new Partition(name, prev.isDefault() || isDefault, prev.maxTime(),
                        (int) Math.min(Integer.MAX_VALUE, (long) prev.nodes() + p.nodes()),
                        Math.max(prev.cpusPerNode(), p.cpusPerNode()), prev.memoryPerNode(), prev.gres(), prev.up());
            }
            byName.put(name, p);
        }
        return new ArrayList<>(byName.values());
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
            return Math.max(0, Integer.parseInt(s)); // a count: never negative
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
