package io.slurmwise.backend.real;

import io.slurmwise.job.SacctReader;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the columns of {@code sacct -P} output that {@link io.slurmwise.job.SacctReader} does not keep (JobIDRaw,
 * SubmitLine), per allocation row. The backend asks sacct for {@link SacctReader#DELIMITER} between fields;
 * with sacct's default '|' (a fixture, an older caller), rows whose last column (SubmitLine, free text) contains
 * '|' are repaired so the reader does not skip them.
 */
final class SacctRows {

    /** The extra columns of one allocation row. */
    record Extras(String jobIdRaw, String submitLine) {
    }

    private final String readable;
    private final Map<String, Extras> extras;

    private SacctRows(String readable, Map<String, Extras> extras) {
        this.readable = readable;
        this.extras = extras;
    }

    static SacctRows parse(String text) {
        String[] lines = text.split("\n", -1);
        if (lines.length == 0 || lines[0].isBlank()) {
            return new SacctRows(text, Map.of());
        }
        String sep = lines[0].contains(SacctReader.DELIMITER) ? SacctReader.DELIMITER : "|";
        String[] header = SacctReader.split(lines[0], sep);
        int width = header.length;
        int jobId = -1;
        int raw = -1;
        int submit = -1;
        for (int i = 0; i < width; i++) {
            switch (header[i].strip().toLowerCase(Locale.ROOT)) {
                case "jobid" -> jobId = i;
                case "jobidraw" -> raw = i;
                case "submitline" -> submit = i;
                default -> { }
            }
        }
        boolean freeLast = submit == width - 1;
        StringBuilder out = new StringBuilder(text.length());
        out.append(lines[0]).append('\n');
        Map<String, Extras> extras = new HashMap<>();
        for (int li = 1; li < lines.length; li++) {
            String line = lines[li];
            if (line.isEmpty()) {
                continue;
            }
            String[] f = SacctReader.split(line, sep);
            if (freeLast && f.length > width) {
                // the free-text last column held the separator: glue it back
                String[] g = java.util.Arrays.copyOf(f, width);
                g[width - 1] = String.join(sep, java.util.Arrays.asList(f).subList(width - 1, f.length));
                f = g;
            }
            if (freeLast && f.length == width) {
                // blank the free-text column for the reader, which ignores it anyway
                int cut = line.length() - f[width - 1].length();
                line = line.substring(0, cut);
            }
            out.append(line).append('\n');
            if (jobId >= 0 && f.length == width && !f[jobId].contains(".")) {
                extras.put(f[jobId].strip(), new Extras(raw >= 0 ? f[raw].strip() : null,
                        submit >= 0 ? f[submit].strip() : null));
            }
        }
        return new SacctRows(out.toString(), extras);
    }

    /** The output with every row the reader can take. */
    String readable() {
        return readable;
    }

    Extras extras(String jobId) {
        return extras.getOrDefault(jobId, new Extras(null, null));
    }
}
