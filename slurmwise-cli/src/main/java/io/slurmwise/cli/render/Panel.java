package io.slurmwise.cli.render;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A boxed block of text for the terminal: a title line, labelled rows with wrapped values, and a footer.
 * Box drawing stays without colour; NO_COLOR turns off colour only.
 */
public final class Panel {

    private final Style style;
    private final String title;
    private final List<String> lines = new ArrayList<>();
    private String footer = "";

    public Panel(Style style, String title) {
        this.style = style;
        this.title = title;
    }

    /** A labelled row: the label in a fixed column, the value wrapped beside it. */
    public Panel row(String label, String value) {
        List<String> wrapped = wrap(value, style.width() - 16);
        for (int i = 0; i < wrapped.size(); i++) {
            String l = i == 0 ? pad(label, 12) : pad("", 12);
            lines.add(style.bold(l) + " " + wrapped.get(i));
        }
        return this;
    }

    /** A heading row inside the panel. */
    public Panel heading(String text) {
        lines.add(style.bold(text));
        return this;
    }

    /** An indented line, wrapped, with a hanging indent for continuation lines. */
    public Panel item(String prefix, String text) {
        int indent = 2 + visibleLength(prefix) + 1;
        List<String> wrapped = wrap(text, style.width() - indent - 4);
        for (int i = 0; i < wrapped.size(); i++) {
            lines.add((i == 0 ? "  " + prefix + " " : " ".repeat(indent)) + wrapped.get(i));
        }
        return this;
    }

    /** A line shown exactly as given (indented, never wrapped): diffs and code that must stay copyable. */
    public Panel verbatim(String text) {
        lines.add("  " + text);
        return this;
    }

    public Panel blank() {
        lines.add("");
        return this;
    }

    public Panel footer(String text) {
        this.footer = text;
        return this;
    }

    public void print(PrintWriter out) {
        out.println(style.dim("╭─ ") + style.bold(title));
        for (String l : lines) {
            out.println(style.dim("│ ") + l);
        }
        out.println(style.dim("╰─ " + footer));
        out.flush();
    }

    static String pad(String s, int n) {
        return s.length() >= n ? s : s + " ".repeat(n - s.length());
    }

    private static int visibleLength(String s) {
        return s.replaceAll("\u001b\\[[0-9;]*m", "").length();
    }

    /** Word-wraps each line of {@code text} to {@code width} columns, keeping existing line breaks. */
    public static List<String> wrap(String text, int width) {
        List<String> out = new ArrayList<>();
        int w = Math.max(20, width);
        for (String para : text.split("\n", -1)) {
            if (para.length() <= w) {
                out.add(para);
                continue;
            }
            String lead = para.replaceAll("^(\\s*).*$", "$1");
            StringBuilder line = new StringBuilder();
            for (String word : para.strip().split(" ")) {
                if (line.length() > 0 && line.length() + 1 + word.length() > w) {
                    out.add(line.toString());
                    line.setLength(0);
                    line.append(lead);
                } else if (line.length() > 0) {
                    line.append(' ');
                } else {
                    line.append(lead);
                }
                line.append(word);
            }
            if (line.length() > 0) {
                out.add(line.toString());
            }
        }
        return out;
    }
}
