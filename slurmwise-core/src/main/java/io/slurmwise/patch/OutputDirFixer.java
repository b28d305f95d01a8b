package io.slurmwise.patch;

import io.slurmwise.classify.Evidence;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code output_dir}: a job SLURM could not start because slurmstepd could not open its {@code --output} or
 * {@code --error} file (ESLURMD_IO_ERROR, job_rc 4021, the record's {@code FAILED 0:53}; slurmstepd's "Slurmd could not
 * connect IO"; not a program's own "could not open output file", which is about its own output). SLURM never creates
 * the directory of those files, so the fix is to create it before sbatch, or write where the job may; the job has no
 * log to look at. The directories are read from
 * sacct's StdOut/StdErr (SLURM's %-patterns filled in), else the script's {@code --output}/{@code --error}, relative
 * ones under the script's {@code --chdir} or sacct's WorkDir. Advice only: nothing in the script is wrong as written.
 */
final class OutputDirFixer implements Fixer {

    @Override
    public String name() {
        return "output_dir";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        if (cx.finding() == null || !ioError(cx)) {
            return Step.none(s);
        }
        // sacct's StdOut/StdErr have SLURM's %-patterns filled in; the script's options are the fallback
        Set<String> dirs = new LinkedHashSet<>();
        if (cx.job() != null) {
            for (String p : new String[] {cx.job().stdoutPath(), cx.job().stderrPath()}) {
                FixContext.recordedPath(p).ifPresent(path -> dirs.add(directory(path, cx.workingDirectory(s))));
            }
        }
        if (dirs.isEmpty()) {
            for (String opt : new String[] {"output", "error"}) {
                s.option(opt).map(BatchScript.Option::value).filter(v -> v != null && !v.isBlank())
                        .map(v -> directory(v, cx.workingDirectory(s))).ifPresent(dirs::add);
            }
        }
        dirs.remove("");
        StringBuilder sb = new StringBuilder("SLURM could not open the job's output file, so the job never started and"
                + " wrote no log (slurmd's ESLURMD_IO_ERROR). ");
        if (dirs.isEmpty()) {
            sb.append("The job writes its output in ").append(cx.workingDirectory(s).map(b -> b + " (" + (s.option("chdir")
                    .isPresent() ? "the script's `--chdir`" : "sacct's WorkDir") + ")").orElse("the directory sbatch was"
                    + " run in")).append(": check that it exists, that you can write there and that its file system is"
                    + " not full or over quota.");
        } else {
            // the same code says "does not exist" and "may not write": a missing directory, or one another user or
            // root owns (the real lab's root-owned log directory was told only to mkdir; an outside audit)
            List<String> plain = dirs.stream().filter(d -> !d.contains("%")).toList();
            String which = String.join(" and ", dirs);
            sb.append("SLURM does not create the directory of `--output` and `--error`: if ").append(which)
                    .append(dirs.size() > 1 ? " do" : " does").append(" not exist, create ")
                    .append(dirs.size() > 1 ? "them" : "it").append(" before sbatch");
            if (!plain.isEmpty()) {
                sb.append(" (`mkdir -p ").append(String.join(" ", plain)).append("`)");
            }
            if (plain.size() < dirs.size()) {
                sb.append(", with SLURM's %-patterns filled in as the job would");
            }
            sb.append("; if ").append(dirs.size() > 1 ? "they do" : "it does").append(", check that you can write there");
            if (!plain.isEmpty()) {
                sb.append(" (`ls -ld ").append(String.join(" ", plain)).append("`: one another user or root owns refuses"
                        + " your job)");
            }
            sb.append(" and that its file system is not full or over quota.");
        }
        return Step.none(s).advise(sb.toString());
    }

    /** Whether the finding rests on slurmstepd failing to open the job's output (the record or a log line). */
    private static boolean ioError(FixContext cx) {
        for (Evidence e : cx.finding().evidence()) {
            String t = e.text();
            // SLURM's own words only: a program's "could not open output file" is about its own output
            if (t.contains("ESLURMD_IO_ERROR") || t.contains("Slurmd could not connect IO") || t.contains("job_rc = 4021")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The directory of an output path ({@code logs/%x-%j.out}: {@code logs/}, under {@code base} when relative); empty
     * for a bare name.
     */
    static String directory(String path, Optional<String> base) {
        String p = path.strip();
        int slash = p.lastIndexOf('/');
        String dir = slash < 0 ? "" : p.substring(0, slash + 1);
        if (dir.isEmpty() || dir.startsWith("/") || base.isEmpty()) {
            return dir; // a bare file name is written in the working directory itself, which exists
        }
        String b = base.get().endsWith("/") ? base.get() : base.get() + "/";
        return b + (dir.startsWith("./") ? dir.substring(2) : dir);
    }
}
