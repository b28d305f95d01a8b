package io.slurmwise.cli.render;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain aligned table, never wider than the style's width: when the columns do not fit, the widest give way
 * and their cells end with {@code …}. Cells may carry ANSI colour, which does not count toward their width.
 */
public final class Table {

    private final Style style;
    private final String[] header;
    private final List<String[]> rows = new ArrayList<>();
    /** Row index -> the line printed under it, across the columns after the first (its evidence). */
    private final java.util.Map<Integer, String> details = new java.util.HashMap<>();
    /** Column index -> the width it may shrink to before the others give way. */
    private final java.util.Map<Integer, Integer> flexible = new java.util.HashMap<>();
    private final java.util.Map<Integer, Integer> kept = new java.util.HashMap<>();

    public Table(Style style, String... header) {
        this.style = style;
        this.header = header;
    }

    /** The columns that give way first when the table is too wide (free text: a name, a title, evidence). */
    public Table flexible(String... headers) {
        for (String h : headers) {
            flexible(h, 8);
        }
        return this;
    }

    /** As {@link #flexible(String...)}, for one column that keeps at least {@code min} columns at first. */
    public Table flexible(String h, int min) {
        int i = java.util.Arrays.asList(header).indexOf(h);
        if (i < 0) {
            throw new IllegalArgumentException("no column " + h);
        }
        flexible.put(i, Math.max(min, h.length()));
        return this;
    }

    /** A column the others give way to before it is cut below {@code min} (a state word: OUT_OF_MEMORY is 13). */
    public Table keep(String h, int min) {
        int i = java.util.Arrays.asList(header).indexOf(h);
        if (i < 0) {
            throw new IllegalArgumentException("no column " + h);
        }
        kept.put(i, min);
        return this;
    }

    public Table row(String... cells) {
        if (cells.length != header.length) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, header " + header.length);
        }
        rows.add(cells);
        return this;
    }

    /**
     * A line of free text under the last row, from the second column to the table's width (cut with … there): text
     * too long for a cell (a log line) that a narrow terminal would cut to a few characters beside the figures.
     */
    public Table detail(String text) {
        if (rows.isEmpty()) {
            throw new IllegalStateException("a detail goes under a row: no row yet");
        }
        if (text != null && !text.isBlank()) {
            details.put(rows.size() - 1, text);
        }
        return this;
    }

    public void print(PrintWriter out) {
        int[] w = widths();
        out.println(style.bold(line(header, w)));
        int indent = w.length > 1 ? w[0] + 2 : 2;
        int room = Math.max(10, style.width() - indent);
        for (int i = 0; i < rows.size(); i++) {
            out.println(line(rows.get(i), w));
            String d = details.get(i);
            if (d != null) {
                String plain = d.replaceAll("\u001b\\[[0-9;]*m", "");
                out.println(" ".repeat(indent) + style.dim(plain.length() <= room ? plain : plain.substring(0, room - 1) + "…"));
            }
        }
        out.flush();
    }

    /**
     * Whether the table fits the style's width with only its flexible (free-text) columns cut, down to their
     * minimum: no figure, state or id would end in {@code …}.
     */
    public boolean fitsCuttingFreeTextOnly() {
        int[] w = natural();
        for (int i = 0; i < w.length; i++) {
            if (flexible.containsKey(i)) {
                w[i] = Math.min(w[i], flexible.get(i));
            }
        }
        return java.util.Arrays.stream(w).sum() + 2 * (header.length - 1) <= style.width();
    }

    private int[] natural() {
        int[] w = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            w[i] = header[i].length();
        }
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                w[i] = Math.max(w[i], Math.min(40, visible(r[i])));
            }
        }
        return w;
    }

    /** Each column as wide as its widest cell (at most 40), then the widest columns narrowed until the table fits. */
    private int[] widths() {
        int[] w = natural();
        int total = java.util.Arrays.stream(w).sum() + 2 * (w.length - 1);
        while (total > style.width()) {
            int widest = widest(w, true, true);
            if (widest < 0) {
                widest = widest(w, false, true);
            }
            if (widest < 0) {
                // only kept columns have room left: they give way too rather than overflow the terminal
                widest = widest(w, false, false);
            }
            if (w[widest] <= 4) {
                break;
            }
            w[widest]--;
            total--;
        }
        return w;
    }

    /** The column with the most room above its minimum (flexible ones only: -1 when none has room left). */
    private int widest(int[] w, boolean flexibleOnly, boolean honourKept) {
        int widest = -1;
        int most = 0;
        for (int i = 0; i < w.length; i++) {
            int room = flexibleOnly ? (flexible.containsKey(i) ? w[i] - flexible.get(i) : 0)
                    : honourKept && kept.containsKey(i) ? Math.max(0, w[i] - kept.get(i)) : w[i];
            if (room > most) {
                widest = i;
                most = room;
            }
        }
        return widest;
    }

    private static String line(String[] cells, int[] w) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            String c = cells[i];
            int len = visible(c);
            if (len > w[i]) {
                String plain = c.replaceAll("\u001b\\[[0-9;]*m", "");
                c = plain.substring(0, w[i] - 1) + "…";
                len = w[i];
            }
            sb.append(c);
            if (i < cells.length - 1) {
                sb.append(" ".repeat(w[i] - len + 2));
            }
        }
        return sb.toString().stripTrailing();
    }

    static int visible(String s) {
        return s.replaceAll("\u001b\\[[0-9;]*m", "").length();
    }
}
