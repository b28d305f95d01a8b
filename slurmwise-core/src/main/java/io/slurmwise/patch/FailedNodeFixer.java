package io.slurmwise.patch;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code exclude_failed_node}: excludes the node SLURM reported as failed (the only one, or the one named). */
final class FailedNodeFixer implements Fixer {

    private final Patterns patterns;

    FailedNodeFixer(Patterns patterns) {
        this.patterns = patterns;
    }

    @Override
    public String name() {
        return "exclude_failed_node";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        return failedNode(cx).map(n -> ExcludeNode.exclude(cx, s, n, "SLURM reported node " + n + " as failed during the job"))
                .orElse(Step.none(s));
    }

    private Optional<String> failedNode(FixContext cx) {
        List<String> nodes = HostList.expand(cx.job().nodeList());
        Set<String> named = new LinkedHashSet<>();
        for (String l : cx.logLines()) {
            patterns.find("node.failed", l).ifPresent(m -> named.add(m.group(1)));
        }
        named.removeIf(n -> !nodes.isEmpty() && !nodes.contains(n));
        if (named.size() == 1) {
            return Optional.of(named.iterator().next());
        }
        return named.isEmpty() && nodes.size() == 1 ? Optional.of(nodes.get(0)) : Optional.empty();
    }
}
