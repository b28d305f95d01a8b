package io.slurmwise.cli.stats;

import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/** Small inline SVG charts for the HTML report, drawn by hand: no script, no network, any browser. */
final class Svg {

    /** One bar: its label, value and the text printed after it. */
    record Bar(String label, double value, String text) {
    }

    private static final int WIDTH = 520;
    private static final int LABEL = 130;
    private static final int ROW = 24;

    private Svg() {
    }

    /** Horizontal bars, largest first as given. */
    static String hbars(String id, List<Bar> bars, String color) {
        if (bars.isEmpty()) {
            return "<p class=\"empty\">nothing to chart</p>";
        }
        double max = bars.stream().mapToDouble(Bar::value).max().orElse(0);
        int h = bars.size() * ROW + 8;
        StringBuilder sb = new StringBuilder();
        sb.append("<svg id=\"").append(id).append("\" class=\"chart\" role=\"img\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(h).append("\" width=\"").append(WIDTH).append("\" height=\"").append(h)
                .append("\" xmlns=\"http://www.w3.org/2000/svg\">");
        int y = 4;
        int room = WIDTH - LABEL - 160; // leaves room for the value text after the longest bar
        for (Bar b : bars) {
            double w = max <= 0 ? 0 : b.value() / max * room;
            sb.append("<text x=\"").append(LABEL - 8).append("\" y=\"").append(y + 16)
                    .append("\" text-anchor=\"end\" class=\"label\">").append(Html.esc(clip(b.label(), 18))).append("</text>");
            sb.append("<rect x=\"").append(LABEL).append("\" y=\"").append(y + 3).append("\" width=\"")
                    .append(f(Math.max(w, b.value() > 0 ? 1 : 0))).append("\" height=\"").append(ROW - 6)
                    .append("\" rx=\"2\" fill=\"").append(color).append("\"><title>").append(Html.esc(b.label() + ": " + b.text()))
                    .append("</title></rect>");
            sb.append("<text x=\"").append(f(LABEL + w + 6)).append("\" y=\"").append(y + 16).append("\" class=\"value\">")
                    .append(Html.esc(b.text())).append("</text>");
            y += ROW;
        }
        return sb.append("</svg>").toString();
    }

    /**
     * Vertical bars over days, with a y axis from 0 to the largest value (or {@code fixedMax}) and the first, middle
     * and last day named under the axis.
     */
    static String columns(String id, List<String> days, List<Double> values, Double fixedMax, DoubleFunction<String> fmt,
                          String color) {
        if (days.isEmpty()) {
            return "<p class=\"empty\">no days in the window</p>";
        }
        int h = 200;
        int left = 56;
        int bottom = 26;
        int plotW = WIDTH - left - 10;
        int plotH = h - bottom - 10;
        double max = fixedMax != null ? fixedMax : values.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        max = nice(max);
        StringBuilder sb = new StringBuilder();
        sb.append("<svg id=\"").append(id).append("\" class=\"chart\" role=\"img\" viewBox=\"0 0 ").append(WIDTH).append(' ')
                .append(h).append("\" width=\"").append(WIDTH).append("\" height=\"").append(h)
                .append("\" xmlns=\"http://www.w3.org/2000/svg\">");
        for (int i = 0; i <= 4; i++) {
            double v = max * i / 4;
            double y = 10 + plotH - plotH * i / 4.0;
            sb.append("<line x1=\"").append(left).append("\" x2=\"").append(WIDTH - 10).append("\" y1=\"").append(f(y))
                    .append("\" y2=\"").append(f(y)).append("\" class=\"grid\"/>");
            sb.append("<text x=\"").append(left - 6).append("\" y=\"").append(f(y + 4))
                    .append("\" text-anchor=\"end\" class=\"axis\">").append(Html.esc(fmt.apply(v))).append("</text>");
        }
        double slot = plotW / (double) days.size();
        double barW = Math.max(1, slot * 0.75);
        for (int i = 0; i < days.size(); i++) {
            double v = values.get(i);
            double bh = Math.min(plotH, v / max * plotH);
            double x = left + i * slot + (slot - barW) / 2;
            sb.append("<rect x=\"").append(f(x)).append("\" y=\"").append(f(10 + plotH - bh)).append("\" width=\"")
                    .append(f(barW)).append("\" height=\"").append(f(Math.max(bh, v > 0 ? 1 : 0))).append("\" fill=\"")
                    .append(color).append("\"><title>").append(Html.esc(days.get(i) + ": " + fmt.apply(v)))
                    .append("</title></rect>");
        }
        int[] named = days.size() == 1 ? new int[] {0} : new int[] {0, days.size() / 2, days.size() - 1};
        for (int i : named) {
            double x = left + i * slot + slot / 2;
            String anchor = i == 0 ? "start" : i == days.size() - 1 ? "end" : "middle";
            double tx = i == 0 ? left : i == days.size() - 1 ? WIDTH - 10 : x;
            sb.append("<text x=\"").append(f(tx)).append("\" y=\"").append(h - 8).append("\" text-anchor=\"").append(anchor)
                    .append("\" class=\"axis\">")
                    .append(Html.esc(days.get(i))).append("</text>");
        }
        return sb.append("</svg>").toString();
    }

    /** The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 x 10^k at or above {@code v}: axis ticks at quarters stay readable. */
    static double nice(double v) {
        if (!(v > 0)) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (m * p >= v * (1 - 1e-12)) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String clip(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "…";
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
