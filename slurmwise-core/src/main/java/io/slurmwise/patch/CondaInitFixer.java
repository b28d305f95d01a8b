package io.slurmwise.patch;

import java.util.List;

/** {@code conda_init}: conda's shell hook before a {@code conda activate} in a shell where conda was never set up. */
final class CondaInitFixer implements Fixer {

    private final Patterns patterns;

    CondaInitFixer(Patterns patterns) {
        this.patterns = patterns;
    }

    @Override
    public String name() {
        return "conda_init";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        if (cx.logLines().stream().noneMatch(l -> patterns.matches("conda.uninitialized", l))) {
            return Step.none(s);
        }
        for (int i = s.headerEnd(); i < s.lines().size(); i++) {
            if (patterns.matches("script.conda.activate", s.lines().get(i))) {
                for (int j = 0; j < i; j++) {
                    if (patterns.matches("script.conda.init", s.lines().get(j))) {
                        return Step.none(s);
                    }
                }
                return Step.none(s).change(s.insertLines(i, List.of("eval \"$(conda shell.bash hook)\"")),
                        "eval \"$(conda shell.bash hook)\" before conda activate", "conda activate needs conda's"
                                + " shell functions, which a batch shell does not have until they are loaded");
            }
        }
        return Step.none(s);
    }
}
