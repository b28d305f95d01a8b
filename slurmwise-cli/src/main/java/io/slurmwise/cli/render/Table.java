package io.slurmwise.cli.render;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain aligned table; cells may carry ANSI colour, which does not count toward their width. */
public final class Table {

    private final Style style;
    private final String[] header;
    private final List<String[]> rows = new ArrayList<>();

    public Table(Style style, String... header) {
        this.style = style;
        this.header = header;
    }

    public Table row(String... cells) {
        if (cells.length != header.length) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, header " + header.length);
        }
        rows.add(cells);
        return this;
    }

    public void print(PrintWriter out) {
        int[] w = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            w[i] = header[i].length();
        }
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                w[i] = Math.max(w[i], Math.min(40, visible(r[i])));
            }
        }
        out.println(style.bold(line(header, w)));
        for (String[] r : rows) {
            out.println(line(r, w));
        }
        out.flush();
    }

    private static String line(String[] cells, int[] w) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            String c = cells[i];
            int len = visible(c);
            if (len > 40) {
                c = c.substring(0, 39) + "…";
                len = 40;
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
