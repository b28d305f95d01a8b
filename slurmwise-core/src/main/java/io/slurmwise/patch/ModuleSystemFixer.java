package io.slurmwise.patch;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * {@code module_system}: a login shell where {@code module} was undefined, and {@code || exit 1} with a comment on
 * a {@code module load} of a name the module system does not know.
 */
final class ModuleSystemFixer implements Fixer {

    private final Patterns patterns;

    ModuleSystemFixer(Patterns patterns) {
        this.patterns = patterns;
    }

    @Override
    public String name() {
        return "module_system";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        Step step = Step.none(s);
        List<String> log = cx.logLines();
        if (log.stream().anyMatch(l -> patterns.matches("module.undefined", l))) {
            Optional<String> shebang = s.shebang();
            boolean login = shebang.map(x -> x.matches("#!\\s*\\S*/(?:env\\s+)?(?:ba)?sh\\s+-l.*")).orElse(false);
            if (!login) {
                BatchScript next = shebang.isPresent() ? s.withLine(0, "#!/bin/bash -l")
                        : s.insertLines(0, List.of("#!/bin/bash -l"));
                step = step.change(next, "#!/bin/bash -l (was " + shebang.orElse("(none)") + ")", "`module` is a shell"
                        + " function that a login shell defines; the job's shell did not have it (module: command not found)");
            } else {
                step = step.advise("`module` is undefined even in a login shell: initialise it with"
                        + " `source /etc/profile.d/modules.sh` (or Lmod's `source $LMOD_PKG/init/bash`) before the loads.");
            }
        }
        Set<String> unknown = new LinkedHashSet<>();
        for (String l : log) {
            patterns.find("module.unknown", l).ifPresent(m -> unknown.add(m.group(1)));
        }
        // Lmod prints the unknown name on the line after the message
        for (int i = 0; i + 1 < log.size(); i++) {
            Optional<Matcher> m = patterns.find("module.unknown", log.get(i));
            if (m.isPresent() && m.get().group(1).isEmpty()) {
                String next = log.get(i + 1).strip().replace("\"", "");
                if (!next.isEmpty() && !next.contains(" ")) {
                    unknown.add(next);
                }
            }
        }
        unknown.remove("");
        for (String name : unknown) {
            BatchScript cur = step.script();
            for (int i = cur.headerEnd(); i < cur.lines().size(); i++) {
                String l = cur.lines().get(i);
                if (patterns.matches("script.module.load", l) && ScriptEdits.containsWord(l, name) && !l.contains("||")) {
                    String family = name.contains("/") ? name.substring(0, name.indexOf('/')) : name;
                    // two comment lines at the load's indentation: one of 117 columns was wider than any view of
                    // the diff (1031; an outside audit)
                    String indent = l.substring(0, l.length() - l.stripLeading().length());
                    BatchScript next = cur.withLine(i, l.stripTrailing() + " || exit 1")
                            .insertLines(i, List.of(indent + "# slurmwise: '" + name + "' is unknown to the module"
                                    + " system here;", indent + "# find its current name with: module spider " + family));
                    // a guard, not the fix: the job as changed fails again, at the load (an outside audit read the
                    // guard said as 1031's fix); the name only the site's module system knows is the user's to write
                    step = step.change(next, "guard: module load ... || exit 1, with a comment on " + name, "'" + name
                            + "' is unknown on the node, and the job went on without it; with `|| exit 1` it stops at"
                            + " the load with the module system's error").warn("This guard alone does not fix the job:"
                            + " it fails again, at the load, until the line names a module that exists. Find the"
                            + " current name with `module spider " + family + "` and write it on the line.");
                    break;
                }
            }
        }
        return step;
    }
}
