package io.slurmwise.patch;

import java.util.Optional;

/** Adds one node to the script's {@code --exclude}: shared by the fixers that blame a node. */
final class ExcludeNode {

    private ExcludeNode() {
    }

    static Step exclude(BatchScript s, String node, String why) {
        Optional<BatchScript.Option> ex = s.option("exclude");
        BatchScript next;
        if (ex.isPresent() && ex.get().value() != null) {
            if (HostList.expand(ex.get().value()).contains(node)) {
                return Step.none(s);
            }
            next = s.withOption("exclude", ex.get().value() + "," + node);
        } else {
            next = s.withOption("exclude", node);
        }
        return Step.none(s).change(next, "--exclude=" + node, why + "; report the node to your admins with the job id");
    }
}
