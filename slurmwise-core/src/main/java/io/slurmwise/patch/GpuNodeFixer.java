package io.slurmwise.patch;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code exclude_gpu_node}: excludes the node whose GPU reported a hardware error (ECC, Xid, fallen off the bus). */
final class GpuNodeFixer implements Fixer {

    private final Patterns patterns;

    GpuNodeFixer(Patterns patterns) {
        this.patterns = patterns;
    }

    @Override
    public String name() {
        return "exclude_gpu_node";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        return badGpuNode(cx).map(n -> ExcludeNode.exclude(cx, s, n, "the GPU error on " + n
                + " points at its hardware, not your program")).orElse(Step.none(s));
    }

    private Optional<String> badGpuNode(FixContext cx) {
        List<String> hw = cx.logLines().stream().filter(l -> patterns.matches("gpu.hardware", l)).toList();
        if (hw.isEmpty()) {
            return Optional.empty();
        }
        List<String> nodes = HostList.expand(cx.job().nodeList());
        if (nodes.size() == 1) {
            return Optional.of(nodes.get(0));
        }
        Set<String> named = new LinkedHashSet<>();
        for (String l : hw) {
            for (String n : nodes) {
                if (l.contains(n)) {
                    named.add(n);
                }
            }
        }
        return named.size() == 1 ? Optional.of(named.iterator().next()) : Optional.empty();
    }
}
