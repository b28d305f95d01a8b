package io.slurmwise.patch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code shared_libraries}: a {@code module load} for a shared library the program could not open, and the lib
 * directory of the job's own environment first in {@code LD_LIBRARY_PATH} when the node's libstdc++/glibc is older
 * than the environment's.
 */
final class SharedLibraryFixer implements Fixer {

    private final ScriptEdits edits;

    SharedLibraryFixer(ScriptEdits edits) {
        this.edits = edits;
    }

    @Override
    public String name() {
        return "shared_libraries";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        Patterns patterns = edits.patterns();
        Step step = Step.none(s);
        List<String> where = new ArrayList<>(cx.evidenceLines());
        where.addAll(cx.logLines());
        // a shared library that a module provides: load it next to the other modules
        Optional<Matcher> lib = patterns.first("library.missing", where);
        if (lib.isPresent() && !lib.get().group(1).startsWith("libibverbs")) {
            String file = lib.get().group(1);
            String family = file.replaceFirst("^lib", "").replaceFirst("\\.so.*$", "")
                    .replaceFirst("(_mpi|_omp|_threads|_f03|_cpp|_fortran|-[0-9.]+)$", "").replaceFirst("[0-9.]+$", "");
            if (!family.isBlank()) {
                Matcher versioned = Pattern.compile("(?<![\\w/])" + Pattern.quote(family) + "/[\\w.+-]+").matcher(s.text());
                String module = versioned.find() ? versioned.group() : family;
                boolean loaded = s.lines().stream().anyMatch(l -> patterns.matches("script.module.load", l)
                        && ScriptEdits.containsWord(l, module));
                if (!loaded) {
                    int at = -1;
                    for (int i = s.headerEnd(); i < s.lines().size(); i++) {
                        if (patterns.matches("script.module.load", s.lines().get(i))) {
                            at = i + 1;
                        }
                    }
                    BatchScript next = s.insertLines(at < 0 ? edits.launchLine(s) : at, List.of("module load " + module));
                    step = step.change(next, "module load " + module, "the program needs " + file + " at run time, and"
                            + " the script loads no module that provides it" + (module.contains("/")
                            ? " (the script names " + module + ")"
                            : "; the module name is a guess from the library name: check it with `module spider "
                            + family + "`"));
                }
            }
        }
        // the environment ships a newer libstdc++/glibc than the node: put its lib directory first
        Optional<Matcher> ver = patterns.first("library.version", where);
        if (ver.isPresent()) {
            BatchScript cur = step.script();
            String requiredBy = ver.get().group(2);
            int slash = requiredBy.lastIndexOf('/');
            String dir = slash > 0 ? requiredBy.substring(0, slash) : "";
            boolean env = dir.endsWith("/lib") && (dir.contains("/envs/") || dir.contains("conda") || dir.contains("venv")
                    || dir.contains("mamba") || dir.contains("miniforge"));
            if (env && edits.exported(cur, "LD_LIBRARY_PATH").isEmpty()) {
                String line = "export LD_LIBRARY_PATH=" + dir + "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}";
                step = step.change(cur.insertLines(edits.envAnchor(cur), List.of(line)), line, ver.get().group(1)
                        + " is missing from the node's system library, and " + requiredBy + " comes from an environment"
                        + " that ships a newer libstdc++ in " + dir + ": use that one first");
            } else {
                step = step.advise(ver.get().group(1) + " is missing from the node's system library: load a newer"
                        + " compiler module before running (`module load gcc/12`), or rebuild the environment on the cluster.");
            }
        }
        return step;
    }
}
