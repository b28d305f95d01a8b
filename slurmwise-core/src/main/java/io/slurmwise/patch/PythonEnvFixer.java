package io.slurmwise.patch;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;

/** {@code python_env}: where to install a Python module that could not be imported, given what the script activates. */
final class PythonEnvFixer implements Fixer {

    private final Patterns patterns;

    PythonEnvFixer(Patterns patterns) {
        this.patterns = patterns;
    }

    @Override
    public String name() {
        return "python_env";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        List<String> where = new ArrayList<>(cx.evidenceLines());
        where.addAll(cx.logLines());
        Optional<Matcher> py = patterns.first("python.missing", where);
        if (py.isEmpty()) {
            return Step.none(s);
        }
        String name = py.get().group(1).replaceAll("\\.+$", "");
        String module = name.split("\\.")[0];
        if (name.contains(".") && !module.isEmpty()) {
            // `import a.b` imports a first, and a missing a is reported as "No module named 'a'": a dotted name means
            // Python found the package and not the module in it (the real lab's 'proj.utils' was told to activate an
            // environment that has `proj`; a pickle's 'numpy.core._multiarray_umath' is a numpy of another version)
            return Step.none(s).advise("Python found `" + module + "` but not `" + name + "` in it: the `" + module
                    + "` it imported is not the one that has it (a directory or another version named `" + module
                    + "` earlier on the path; `python -c 'import " + module + "; print(" + module + ".__file__, getattr("
                    + module + ", \"__version__\", \"\"))'` in the job shows which), or that module is missing from it.");
        }
        String activation = s.lines().stream().skip(s.headerEnd())
                .filter(l -> patterns.matches("script.activate", l)).map(String::strip).reduce((a, b) -> b).orElse(null);
        // the name pip installs is not always the name Python imports (cv2 is opencv-python, sklearn scikit-learn,
        // yaml PyYAML), and `pip install <import name>` can fetch an unrelated project of that name
        String install = "install the package that provides it there (`python -m pip install <package>` after that"
                + " line, once, on a login node; its name on the package index may differ from `" + module + "`: `cv2` is"
                + " opencv-python, `sklearn` scikit-learn, `yaml` PyYAML; check the project's install instructions)";
        return Step.none(s).advise(activation == null
                ? "Python cannot import `" + module + "` and the script activates no environment: add the activation"
                + " of the environment that has it (`source /path/to/env/bin/activate` or `conda activate <env>`)"
                + " before the command."
                : "Python cannot import `" + module + "` in the environment the script activates (`" + activation
                + "`): " + install + ", or activate the environment that has it.");
    }
}
