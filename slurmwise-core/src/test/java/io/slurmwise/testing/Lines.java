package io.slurmwise.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;


/** Line-level damage of real files (notes, scripts, case files): lines replaced, inserted, dropped, cut, doubled. */
public final class Lines {

    private Lines() {
    }

    /** One of the texts, damaged at up to three places with values of {@code hostile}. */
    public static Function<Random, String> damaged(List<String> texts, Function<Random, String> hostile, String eol) {
        return r -> damage(r, texts.get(r.nextInt(texts.size())), hostile, eol);
    }

    public static String damage(Random r, String text, Function<Random, String> hostile, String eol) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        int edits = r.nextInt(4);
        for (int k = 0; k < edits; k++) {
            int i = lines.isEmpty() ? 0 : r.nextInt(lines.size());
            int op = r.nextInt(7);
            if (lines.isEmpty() && op != 0) {
                op = 0;
            }
            switch (op) {
                case 0 -> lines.add(i, hostile.apply(r));
                case 1 -> lines.set(i, hostile.apply(r));
                case 2 -> lines.remove(i);
                case 3 -> { // a value after a key ("weight: 0.95" -> "weight: <hostile>")
                    String l = lines.get(i);
                    int colon = Math.max(l.indexOf(':'), l.indexOf('='));
                    lines.set(i, colon < 0 ? l + hostile.apply(r) : l.substring(0, colon + 1) + " " + hostile.apply(r));
                }
                case 4 -> lines.add(i, lines.get(i));
                case 5 -> { // cut inside a line
                    String l = lines.get(i);
                    lines.set(i, l.substring(0, r.nextInt(l.length() + 1)));
                }
                default -> { // the whole text cut at a point
                    String all = String.join("\n", lines);
                    all = all.substring(0, r.nextInt(all.length() + 1));
                    lines = new ArrayList<>(List.of(all.split("\n", -1)));
                }
            }
        }
        return String.join(eol, lines);
    }
}
