package io.slurmwise.patch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;

/**
 * {@code scratch_caches}: caches and TMPDIR that the script points at the home directory or /tmp move to
 * scratch, and the caches pip, Hugging Face and PyTorch write by default get a place on scratch.
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
        List<String> rewritten = new ArrayList<>();
        BatchScript next = s;
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
        if (!rewritten.isEmpty()) {
            step = step.change(next, String.join("; ", rewritten), "the home directory and a node's /tmp are small;"
                    + " scratch has room");
        }
        ScriptEdits.Exported e = edits.exportMissing(step.script(), List.of(new String[] {"XDG_CACHE_HOME", base + "/.cache"},
                new String[] {"PIP_CACHE_DIR", base + "/.cache/pip"}, new String[] {"HF_HOME", base + "/.cache/huggingface"},
                new String[] {"TORCH_HOME", base + "/.cache/torch"}));
        if (!e.added().isEmpty()) {
            step = step.change(e.script(), String.join("; ", e.added()), "pip, Hugging Face and PyTorch write their"
                    + " caches to ~/.cache by default, which fills the home quota; on scratch they have room");
        }
        if (base.startsWith("${SCRATCH:-")) {
            step = step.advise("The patch uses $SCRATCH (or /scratch/$USER): replace it with your site's scratch path if"
                    + " it differs.");
        }
        return step.advise("Free space now: `du -sh ~/.cache/* | sort -h`, then `pip cache purge`, `conda clean --all`,"
                + " or remove old outputs; check the quota with your site's quota command.");
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
