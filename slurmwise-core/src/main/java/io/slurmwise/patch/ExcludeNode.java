package io.slurmwise.patch;

import java.util.Optional;

/** Adds one node to the script's {@code --exclude}: shared by the fixers that blame a node. */
final class ExcludeNode {

    private ExcludeNode() {
    }

    /**
     * The script with {@code node} in its {@code --exclude}; only advice when the job's partition would then have
     * fewer nodes than the job needs (a one-node partition: excluding its node leaves the job nowhere to run, as the
     * real lab's node_fail job was told).
     */
    static Step exclude(FixContext cx, BatchScript s, String node, String why) {
        Optional<io.slurmwise.job.Partition> p = cx.partition(s);
        Optional<BatchScript.Option> already = s.option("exclude");
        int excluded = already.map(BatchScript.Option::value).map(v -> HostList.expand(v).size()).orElse(0) + 1;
        int needs = Math.max(1, cx.job().nodes());
        if (p.isPresent() && p.get().nodes() > 0 && p.get().nodes() - excluded < needs) {
            return Step.none(s).advise(why + "; partition " + p.get().name() + " has " + p.get().nodes() + " node"
                    + (p.get().nodes() == 1 ? "" : "s") + ", so excluding " + node + " would leave the job nowhere to"
                    + " run: resubmit when the node is back (`sinfo -N -n " + node + "` shows its state), and report it to"
                    + " your admins with the job id");
        }
        Optional<BatchScript.Option> ex = already;
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
