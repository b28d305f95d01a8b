package io.slurmwise.eval;

import java.util.List;

/** A benchmark file that cannot be scored, with every problem found: {@code cases.jsonl:12: unknown label 'oomm'}. */
public final class CaseFileException extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private final transient List<String> problems;

    public CaseFileException(String name, List<String> problems) {
        super(name + " is not a valid benchmark file (" + problems.size() + " problem" + (problems.size() == 1 ? "" : "s")
                + "; format in benchmark/README.md):\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** Each problem as {@code <file>:<line>: <what>}. */
    public List<String> problems() {
        return problems;
    }
}
