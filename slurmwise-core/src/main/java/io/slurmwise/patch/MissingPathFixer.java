package io.slurmwise.patch;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * {@code missing_path}: the path a program could not find, read against where the job looked for it. A relative path
 * was looked for under the job's working directory: the script's last {@code cd} before the line that failed (bash's
 * {@code slurm_script: line 15:}, else the first script line that names the path, else the script's end), else its
 * {@code --chdir}, else the WorkDir sacct recorded; an absolute one was not (the directory the job ran in is then not the cause, and the note's
 * "use absolute paths" does not apply). When the job's own log lists other files of the same kind in that directory
 * (its {@code ls -l}), they are named: 4242_3 looked for {@code raw/S03_R1.fastq.gz} after {@code cd /scratch/bob/trim},
 * and its log lists {@code raw/S03_L001_R1.fastq.gz} (an outside audit: the fixes were the note's generic ones while
 * the log held the fact). Advice only: which name is right is the user's to say.
 */
final class MissingPathFixer implements Fixer {

    /** Similar files named at most. */
    private static final int MAX_NAMED = 1;

    private final Patterns patterns;

    MissingPathFixer(Patterns patterns) {
        this.patterns = patterns;
    }

    @Override
    public String name() {
        return "missing_path";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        List<String> where = new ArrayList<>(cx.evidenceLines());
        where.addAll(cx.logLines());
        Optional<String> missing = missingPath(where);
        if (missing.isEmpty()) {
            return Step.none(s);
        }
        String path = missing.get();
        String dir = path.contains("/") ? path.substring(0, path.lastIndexOf('/') + 1) : "";
        // the fact the log holds comes first: the name it lists beside the one looked for
        List<String> similar = similar(path, dir, cx.logLines());
        StringBuilder sb = new StringBuilder("The job looked for ").append(path);
        if (!similar.isEmpty()) {
            sb.append("; its own log lists ").append(String.join(" and ", similar.subList(0,
                    Math.min(MAX_NAMED, similar.size())))).append(similar.size() > MAX_NAMED ? " (and "
                    + (similar.size() - MAX_NAMED) + " more)" : "").append(" there: the name differs. The path is");
        } else {
            sb.append(',');
        }
        if (path.startsWith("/") || path.startsWith("~")) {
            sb.append(" absolute, so the directory the job ran in is not the cause: list what is in ")
                    .append(dir.isEmpty() ? "that directory" : dir).append(" from a compute node (`ls -l ")
                    .append(dir.isEmpty() ? path : dir).append("`)");
            sb.append(similar.isEmpty() ? "; a file an earlier step or job should have written, or a name the program"
                    + " built from its settings, is not there." : ".");
        } else {
            int upTo = failingLine(path, cx, s);
            Optional<String> base = workingDirectory(cx, s, upTo);
            sb.append(" relative, so it was looked for under the directory the job ran in");
            if (base.isPresent()) {
                String rel = path.startsWith("./") ? path.substring(2) : path;
                String full = base.get().endsWith("/") ? base.get() + rel : base.get() + "/" + rel;
                sb.append(" (").append(base.get()).append(cdSource(s, upTo)).append("): ").append(full)
                        .append(". List it (`ls -l ").append(full.substring(0, full.lastIndexOf('/') + 1)).append("`)");
            } else {
                sb.append(" (where sbatch was run, unless the script's `--chdir` or a `cd` says otherwise): list it from"
                        + " there (`ls -l ").append(dir.isEmpty() ? "." : dir).append("`)");
            }
            sb.append(", or give the path from where the file is.");
        }
        return Step.none(s).advise(sb.toString());
    }

    /** The first path the lines say was not found; none for the batch script's own path. */
    Optional<String> missingPath(List<String> lines) {
        for (String l : lines) {
            Optional<Matcher> m = patterns.find("missing.path", l);
            if (m.isPresent()) {
                String p = m.get().group(1).strip();
                if (!p.isEmpty() && !p.contains("slurm_script") && !p.startsWith("/var/spool/") && !p.contains("*")
                        && (p.contains("/") || p.contains("."))) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The script line (0-based, exclusive bound for the {@code cd}s that count) where the path was looked for: bash's
     * {@code slurm_script: line N:} on a line naming the path, else the first line after the directives that names it
     * (the command that was given it), else the script's end.
     */
    int failingLine(String path, FixContext cx, BatchScript s) {
        List<String> where = new ArrayList<>(cx.evidenceLines());
        where.addAll(cx.logLines());
        for (String l : where) {
            Optional<Matcher> m = patterns.find("script.line", l);
            if (m.isPresent() && l.contains(path)) {
                int n = Integer.parseInt(m.get().group(1)); // 1 to 6 digits (script.line): always parses
                if (n >= 1 && n <= s.lines().size()) {
                    return n - 1;
                }
            }
        }
        String rel = path.startsWith("./") ? path.substring(2) : path;
        for (int i = s.headerEnd(); i < s.lines().size(); i++) {
            String line = s.lines().get(i);
            if (line.contains(rel) && patterns.find("script.cd", line).isEmpty() && !line.strip().startsWith("#")) {
                return i;
            }
        }
        return s.lines().size();
    }

    /**
     * Where the job's relative paths start: the script's last {@code cd} before line {@code upTo}, its
     * {@code --chdir}, sacct's WorkDir.
     */
    Optional<String> workingDirectory(FixContext cx, BatchScript s, int upTo) {
        Optional<String> cd = lastCd(s, upTo);
        return cd.isPresent() ? cd : cx.workingDirectory(s);
    }

    private String cdSource(BatchScript s, int upTo) {
        if (lastCd(s, upTo).isPresent()) {
            return ", the script's `cd`";
        }
        return s.option("chdir").isPresent() ? ", the script's `--chdir`" : ", sacct's WorkDir";
    }

    private Optional<String> lastCd(BatchScript s, int upTo) {
        String found = null;
        for (int i = s.headerEnd(); i < Math.min(upTo, s.lines().size()); i++) {
            Optional<Matcher> m = patterns.find("script.cd", s.lines().get(i));
            if (m.isPresent()) {
                String d = m.get().group(1) != null ? m.get().group(1) : m.get().group(2) != null ? m.get().group(2)
                        : m.get().group(3);
                found = d.equals("-") || d.equals("..") ? null : d; // "cd -", "cd ..": no directory to name
            }
        }
        return Optional.ofNullable(found);
    }

    /**
     * Files the log names in the same directory (as written) with the same extension and the same first part of the
     * name as the missing one ({@code raw/S03_L001_R1.fastq.gz} beside {@code raw/S03_R1.fastq.gz}).
     */
    static List<String> similar(String path, String dir, List<String> lines) {
        String name = path.substring(dir.length());
        int dot = name.indexOf('.');
        String ext = dot > 0 ? name.substring(dot) : "";
        String[] parts = name.split("[_.-]");
        if (ext.isEmpty() || parts.length == 0 || parts[0].isEmpty()) {
            return List.of();
        }
        java.util.regex.Pattern file = java.util.regex.Pattern.compile("(?<![\\w/.-])" + java.util.regex.Pattern.quote(dir)
                + "(" + java.util.regex.Pattern.quote(parts[0]) + "[\\w.+-]*" + java.util.regex.Pattern.quote(ext) + ")(?![\\w/.-])");
        Set<String> out = new LinkedHashSet<>();
        for (String l : lines) {
            Matcher m = file.matcher(l);
            while (m.find()) {
                if (!m.group(1).equals(name)) {
                    out.add(dir + m.group(1));
                }
            }
        }
        return List.copyOf(out);
    }
}
