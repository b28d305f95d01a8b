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
        String module = py.get().group(1).split("\\.")[0];
        String activation = s.lines().stream().skip(s.headerEnd())
                .filter(l -> patterns.matches("script.activate", l)).map(String::strip).reduce((a, b) -> b).orElse(null);
        return Step.none(s).advise(activation == null
                ? "Python cannot import `" + module + "` and the script activates no environment: add the activation"
                + " of the environment that has it (`source /path/to/env/bin/activate` or `conda activate <env>`)"
                + " before the command."
                : "Python cannot import `" + module + "` in the environment the script activates (`" + activation
                + "`): install it there (`python -m pip install " + module + "` after that line, once, on a login"
                + " node), or activate the environment that has it.");
    }
}
