package io.slurmwise.patch;

import io.slurmwise.classify.Evidence;
import io.slurmwise.classify.Finding;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code scratch_caches}: the job's own output that the failed write names, when the script puts it under the home
 * directory through a variable ({@code OUT=$HOME/ckpt_export/run2}), moves to scratch; caches and TMPDIR that the
 * script points at the home directory or /tmp move to scratch, and the caches pip, Hugging Face and PyTorch write by
 * default get a place on scratch.
 */
final class CachesFixer implements Fixer {

    private static final List<String> CACHE_VARS = List.of("TMPDIR", "HF_HOME", "TORCH_HOME", "XDG_CACHE_HOME",
            "PIP_CACHE_DIR", "TRANSFORMERS_CACHE", "HF_DATASETS_CACHE", "CONDA_PKGS_DIRS", "APPTAINER_CACHEDIR");

    private final ScriptEdits edits;

    CachesFixer(ScriptEdits edits) {
        this.edits = edits;
    }

    @Override
    public String name() {
        return "scratch_caches";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        Step step = Step.none(s);
        String text = s.text();
        String wd = cx.job().workDir() == null ? "" : cx.job().workDir();
        String base = text.contains("$SCRATCH") || text.contains("${SCRATCH}") ? "$SCRATCH"
                : text.contains("/scratch/") || wd.startsWith("/scratch/") ? "/scratch/$USER" : "${SCRATCH:-/scratch/$USER}";
        // the write that failed, when the deciding line names it: moving caches does not free the quota that the
        // job's own output fills (an outside audit: 1027 wrote 15 shards to $HOME/ckpt_export and was told of ~/.cache)
        Optional<String> failed = failedPath(cx.finding());
        String user = cx.job().user();
        String home = user == null ? null : failed.flatMap(f -> homeIn(f, user)).orElse("/home/" + user);
        boolean homeOutput = failed.isPresent() && home != null && failed.get().startsWith(home + "/")
                && !failed.get().startsWith(home + "/.");
        if (homeOutput) {
            Optional<int[]> at = outputVariable(s, failed.get(), home);
            if (at.isPresent()) {
                String line = s.lines().get(at.get()[0]);
                String moved = line.substring(0, at.get()[1]) + base + line.substring(at.get()[2]);
                step = step.change(s.withLine(at.get()[0], moved), line.strip() + " -> " + moved.strip(), "the write"
                        + " that failed is this job's own output under the home directory (" + failed.get() + "),"
                        + " whose quota it filled; scratch has room: copy back what you keep");
            } else {
                step = step.advise("The write that failed is " + failed.get() + ", under your home directory: write"
                        + " the job's outputs to scratch (" + base + "/...) and copy back what you keep; moving caches"
                        + " does not free that quota.");
            }
        }
        List<String> rewritten = new ArrayList<>();
        BatchScript next = step.script();
        // caches already exported to the home directory or /tmp move to scratch
        for (String var : CACHE_VARS) {
            Optional<Integer> at = edits.exported(next, var);
            if (at.isEmpty()) {
                continue;
            }
            String line = next.lines().get(at.get());
            Matcher m = edits.patterns().find("script.export", line).orElseThrow();
            String value = m.group(2).strip();
            if (value.startsWith("/tmp") || value.startsWith("$HOME") || value.startsWith("${HOME}") || value.startsWith("~")) {
                String target = var.equals("TMPDIR") ? base + "/tmp/$SLURM_JOB_ID" : base + "/.cache/" + cacheName(var);
                next = next.withLine(at.get(), line.substring(0, m.start(2)) + target);
                rewritten.add(var + " " + value + " -> " + target);
            }
        }
        // a write that failed on the node's /tmp (1026's HDF5 file under /tmp/erik_1026): the node's disk, not a quota
        boolean nodeTmp = failed.isPresent() && (failed.get().startsWith("/tmp/") || failed.get().startsWith("/var/tmp/"));
        if (!rewritten.isEmpty()) {
            step = step.change(next, String.join("; ", rewritten), nodeTmp
                    ? "the write failed on the node's /tmp, small and shared by the jobs on the node (" + failed.get()
                    + "); scratch has room"
                    : "the home directory and a node's /tmp are small; scratch has room");
        }
        // the caches pip, Hugging Face and PyTorch keep in ~/.cache fill the home quota: moved when that is the quota
        // that filled, or when the line names no path; not for a write that failed elsewhere (1026's /tmp)
        boolean underHome = failed.isPresent() && home != null && failed.get().startsWith(home + "/");
        if (failed.isEmpty() || underHome) {
            ScriptEdits.Exported e = edits.exportMissing(step.script(), List.of(new String[] {"XDG_CACHE_HOME", base + "/.cache"},
                    new String[] {"PIP_CACHE_DIR", base + "/.cache/pip"}, new String[] {"HF_HOME", base + "/.cache/huggingface"},
                    new String[] {"TORCH_HOME", base + "/.cache/torch"}));
            if (!e.added().isEmpty()) {
                step = step.change(e.script(), String.join("; ", e.added()), "pip, Hugging Face and PyTorch write their"
                        + " caches to ~/.cache by default, on the home quota" + (homeOutput ? " too" : "")
                        + "; on scratch they have room");
            }
        }
        // what the patch does is said only of a patch that changed something (the real lab's dd into a full
        // /var/tmp was told "the patch uses $SCRATCH ... as the patch does" beside "no mechanical change")
        boolean changed = !step.changes().isEmpty();
        if (changed && base.startsWith("${SCRATCH:-")) {
            step = step.advise("The patch uses $SCRATCH (or /scratch/$USER): replace it with your site's scratch path if"
                    + " it differs.");
        }
        if (nodeTmp) {
            String tmp = failed.get().startsWith("/var/tmp/") ? "/var/tmp" : "/tmp";
            return step.advise("The node's " + tmp + " filled up" + (cx.job().nodeList() == null ? "" : " on "
                    + cx.job().nodeList()) + ": keep temporary files on scratch" + (changed ? ", as the patch does" : "")
                    + "; where your site gives jobs node-local disk, `#SBATCH --tmp=<size>` asks for a node with that"
                    + " much.");
        }
        return step.advise("Free space now: `du -sh ~/.cache/* | sort -h`, then `pip cache purge`, `conda clean --all`,"
                + " or remove old outputs; check the quota with your site's quota command.");
    }

    /**
     * {@code Disk quota exceeded: '/home/alice/out/x'}, {@code No space left on device: "/home/..."}: the path; or the
     * file the line names before the message, as HDF5 does ({@code filename = '/tmp/erik_1026/x.nc', ... error message
     * = 'No space left on device'}).
     */
    private static final Pattern FAILED_PATH = Pattern.compile(
            "(?i)(?:quota exceeded|No space left on device)\\W{0,4}(/[^'\"\\s;,)]+)");
    private static final Pattern NAMED_FILE = Pattern.compile("(?i)\\b(?:file ?name|path)\\s*[=:]\\s*['\"]?(/[^'\"\\s;,)]+)");
    /**
     * The path before the message, as coreutils and tar write it: {@code dd: error writing '/x/ckpt.bin': No space left
     * on device}, {@code cp: cannot create regular file '/x': Disk quota exceeded}, {@code tar: /x: Cannot write: No
     * space left on device} (the real lab's dd was told to move caches it never wrote).
     */
    private static final Pattern PATH_BEFORE = Pattern.compile(
            "(?i)['\"\u2018]?(/[^'\"\u2019\\s:;,()]+)['\"\u2019]?: (?:[A-Za-z ]{1,40}: )?(?:No space left on device|Disk quota exceeded)");

    /** The path the deciding line says a write failed on, when it names one. */
    static Optional<String> failedPath(Finding f) {
        Evidence e = f == null ? null : f.decidingLine();
        if (e == null || !e.isLogLine()) {
            return Optional.empty();
        }
        Matcher m = FAILED_PATH.matcher(e.text());
        if (m.find()) {
            return Optional.of(m.group(1));
        }
        Matcher named = NAMED_FILE.matcher(e.text());
        if (named.find()) {
            return Optional.of(named.group(1));
        }
        Matcher before = PATH_BEFORE.matcher(e.text());
        return before.find() ? Optional.of(before.group(1)) : Optional.empty();
    }

    /** A directory that holds homes: {@code /home}, {@code /home1} (TACC), {@code /u} (NCSA), {@code /global/homes} (NERSC). */
    private static final Pattern HOME_ROOT = Pattern.compile("(?i)homes?\\d*|u|users?");

    /**
     * The user's home directory as a path under it names it: the path up to the directory named for the user, when a
     * directory above that holds homes ({@code /home/alice}, {@code /u/alice}, {@code /home1/01234/alice},
     * {@code /global/homes/a/alice}); empty for a path elsewhere (scratch, project space).
     */
    static Optional<String> homeIn(String path, String user) {
        String[] seg = path.split("/");
        for (int i = 1; i < seg.length - 1; i++) {
            if (seg[i].equals(user)) {
                for (int j = 1; j < i; j++) {
                    if (HOME_ROOT.matcher(seg[j]).matches()) {
                        return Optional.of(String.join("/", Arrays.copyOf(seg, i + 1)));
                    }
                }
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    /** {@code OUT=$HOME/ckpt_export/run2}, {@code export DST="~/results"}: a variable set to a path in the home. */
    private static final Pattern HOME_VAR = Pattern.compile(
            "^\\s*(?:export\\s+)?[A-Za-z_]\\w*=[\"']?(\\$HOME|\\$\\{HOME}|~)(/[^\"'\\s;]*)?[\"']?\\s*$");

    /**
     * The script line setting a variable to the home-directory path the failed write is in (the longest such), as
     * {line, start, end} of the home part to replace; empty when no variable holds it.
     */
    static Optional<int[]> outputVariable(BatchScript s, String failed, String home) {
        int[] best = null;
        int bestLen = -1;
        List<String> lines = s.lines();
        for (int i = 0; i < lines.size(); i++) {
            Matcher m = HOME_VAR.matcher(lines.get(i));
            if (!m.find()) {
                continue;
            }
            String rest = m.group(2) == null ? "" : m.group(2);
            String dir = home + rest;
            if ((failed.equals(dir) || failed.startsWith(dir.endsWith("/") ? dir : dir + "/")) && rest.length() > bestLen) {
                best = new int[] {i, m.start(1), m.end(1)};
                bestLen = rest.length();
            }
        }
        return Optional.ofNullable(best);
    }

    private static String cacheName(String var) {
        return switch (var) {
            case "HF_HOME", "TRANSFORMERS_CACHE" -> "huggingface";
            case "HF_DATASETS_CACHE" -> "huggingface/datasets";
            case "TORCH_HOME" -> "torch";
            case "PIP_CACHE_DIR" -> "pip";
            case "CONDA_PKGS_DIRS" -> "conda/pkgs";
            case "APPTAINER_CACHEDIR" -> "apptainer";
            default -> "";
        };
    }
}
