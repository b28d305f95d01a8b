package io.slurmwise.patch;

import java.util.List;

/** {@code cuda_alloc}: PyTorch's expandable segments against fragmentation, and the batch size the script passes. */
final class CudaAllocFixer implements Fixer {

    private final ScriptEdits edits;

    CudaAllocFixer(ScriptEdits edits) {
        this.edits = edits;
    }

    @Override
    public String name() {
        return "cuda_alloc";
    }

    @Override
    public Step apply(FixContext cx, BatchScript s) {
        Step step = Step.none(s);
        ScriptEdits.Exported e = edits.exportMissing(s, List.<String[]>of(new String[] {"PYTORCH_CUDA_ALLOC_CONF",
                "expandable_segments:True"}));
        if (!e.added().isEmpty()) {
            step = step.change(e.script(), e.added().get(0), "PyTorch's allocator then grows segments instead of"
                    + " fragmenting GPU memory, which often frees the last few GiB; it does not change results");
        }
        String batch = step.script().batchSize(edits.patterns()).map(BatchScript.ProgramOption::toString).orElse(null);
        return step.advise("Reduce the per-GPU batch size" + (batch == null ? "" : " (the script passes `" + batch + "`)")
                + " and keep the global batch with gradient accumulation; mixed precision and activation"
                + " checkpointing cut memory further.");
    }
}
