package io.slurmwise.patch;

import java.util.List;

/**
 * {@code nccl_env}: NCCL's debug log and PyTorch's async error handling, so a failed collective says where and
 * ends the job; advice for the InfiniBand path and for collective timeouts when the logs show them.
 */
final class NcclEnvFixer implements Fixer {

    private final ScriptEdits edits;

    NcclEnvFixer(ScriptEdits edits) {
        this.edits = edits;
    }

    @Override
    public String name() {
        return "nccl_env";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        Step step = Step.none(s);
        ScriptEdits.Exported e = edits.exportMissing(s, List.of(new String[] {"NCCL_DEBUG", "INFO"},
                new String[] {"TORCH_NCCL_ASYNC_ERROR_HANDLING", "1"}));
        if (!e.added().isEmpty()) {
            step = step.change(e.script(), String.join("; ", e.added()), "NCCL then logs which rank, device and network"
                    + " path failed, and a failed collective ends the job with an error instead of hanging until the"
                    + " time limit");
        }
        Patterns patterns = edits.patterns();
        if (cx.logLines().stream().anyMatch(l -> patterns.matches("nccl.ib", l) && !l.contains("NCCL INFO"))) {
            step = step.advise("The errors are on the InfiniBand path (NET/IB, IBV_WC_*): rerun once with"
                    + " `export NCCL_IB_DISABLE=1` (slower, over sockets) to confirm, and pin the interface with"
                    + " `export NCCL_SOCKET_IFNAME=<ib0|hsn0|...>`; if one node is always involved, exclude it and report it.");
        }
        if (cx.logLines().stream().anyMatch(l -> patterns.matches("nccl.timeout", l))) {
            step = step.advise("A collective timed out: if a rank was only slow (checkpointing, evaluation on rank 0),"
                    + " raise the timeout in `init_process_group(timeout=timedelta(hours=1))` and give every rank the"
                    + " same number of batches (`drop_last=True`).");
        }
        return step;
    }
}
