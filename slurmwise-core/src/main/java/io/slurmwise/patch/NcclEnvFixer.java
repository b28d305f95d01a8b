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
        // each variable only where the job's facts call for it: NCCL's INFO lines in the log mean its debug log was
        // on already (set outside the script); a job that ended with its error before its time limit did not hang,
        // so the failed collective already ended it (1022: 7 minutes of 12 hours; PyTorch 2.2 and later abort on
        // their own)
        List<String[]> wanted = new java.util.ArrayList<>();
        if (cx.logLines().stream().noneMatch(l -> l.contains("NCCL INFO"))) {
            wanted.add(new String[] {"NCCL_DEBUG", "INFO"});
        }
        boolean hung = ranToItsLimit(cx.job());
        if (hung) {
            wanted.add(new String[] {"TORCH_NCCL_ASYNC_ERROR_HANDLING", "1"});
        }
        ScriptEdits.Exported e = edits.exportMissing(s, wanted);
        if (!e.added().isEmpty()) {
            boolean debug = e.added().stream().anyMatch(a -> a.contains(" NCCL_DEBUG="));
            boolean async = e.added().stream().anyMatch(a -> a.contains(" TORCH_NCCL_ASYNC_ERROR_HANDLING="));
            step = step.change(e.script(), String.join("; ", e.added()),
                    (debug ? "NCCL then logs which rank, device and network path failed" : "")
                    + (debug && async ? ", and " : "")
                    + (async ? "a failed collective ends the job with an error instead of hanging until the time"
                    + " limit, as this one ran until its limit" : ""));
        }
        Patterns patterns = edits.patterns();
        if (cx.logLines().stream().anyMatch(l -> patterns.matches("nccl.ib", l) && !l.contains("NCCL INFO"))) {
            step = step.advise("The errors are on the InfiniBand path (NET/IB, IBV_WC_*): rerun once with"
                    + " `export NCCL_IB_DISABLE=1` (slower, over sockets) to confirm, and pin the interface with"
                    + " `export NCCL_SOCKET_IFNAME=<ib0|hsn0|...>`; if one node is always involved, exclude it and report it.");
        }
        if (cx.logLines().stream().anyMatch(l -> patterns.matches("nccl.timeout", l))) {
            step = step.advise("A collective timed out" + silent(cx.logLines(), patterns) + ": if a rank was only slow"
                    + " (checkpointing, evaluation on rank 0), raise the timeout in"
                    + " `init_process_group(timeout=timedelta(hours=1))` and give every rank the same number of batches"
                    + " (`drop_last=True`).");
        }
        return step;
    }

    /** Whether the job ran until its time limit (TIMEOUT, or an elapsed time at its limit): a hang, not an abort. */
    private static boolean ranToItsLimit(io.slurmwise.job.JobRecord job) {
        if (job == null) {
            return false;
        }
        if (job.state() == io.slurmwise.job.JobState.TIMEOUT) {
            return true;
        }
        java.util.Optional<java.time.Duration> limit = job.timeLimit().limit();
        return job.elapsed() != null && limit.isPresent() && job.elapsed().compareTo(limit.get()) >= 0;
    }

    /** Ranks named beyond this many are counted, not listed. */
    private static final int MAX_NAMED = 4;

    /**
     * ", and rank 11 never reported it (ranks 0-10, 12-15 did): it did not reach the collective, so its last lines
     * and node tell why", when the ranks whose watchdog reported the timeout leave gaps below the highest one. In a
     * collective timeout every rank that reached the collective reports it; the one that did not is the straggler
     * (1041: fifteen of sixteen ranks reported, which folding alike lines hid; an outside audit). Empty without gaps.
     */
    static String silent(List<String> lines, Patterns patterns) {
        java.util.TreeSet<Integer> reported = new java.util.TreeSet<>();
        for (String l : lines) {
            if (patterns.matches("nccl.timeout", l)) {
                patterns.find("nccl.timeout_rank", l).ifPresent(m -> reported.add(Integer.parseInt(m.group(1))));
            }
        }
        if (reported.size() < 2) {
            return "";
        }
        List<Integer> missing = new java.util.ArrayList<>();
        for (int r = 0; r < reported.last(); r++) {
            if (!reported.contains(r)) {
                missing.add(r);
            }
        }
        if (missing.isEmpty() || missing.size() >= reported.size()) {
            return ""; // most ranks silent: a log of a few ranks (one node's, a tail), not a straggler
        }
        String who = missing.size() == 1 ? "rank " + missing.get(0)
                : missing.size() <= MAX_NAMED ? "ranks " + missing.stream().map(String::valueOf)
                .collect(java.util.stream.Collectors.joining(", ")) : missing.size() + " ranks";
        return ", and " + who + " never reported it in the log (ranks " + ranges(reported) + " did): "
                + (missing.size() == 1 ? "it" : "they") + " did not reach the collective, so "
                + (missing.size() == 1 ? "its" : "their") + " last lines and node tell why";
    }

    /** 0-10, 12-15. */
    private static String ranges(java.util.SortedSet<Integer> ranks) {
        List<String> parts = new java.util.ArrayList<>();
        Integer start = null;
        Integer prev = null;
        for (int r : ranks) {
            if (start == null) {
                start = r;
            } else if (r != prev + 1) {
                parts.add(start.equals(prev) ? "" + start : start + "-" + prev);
                start = r;
            }
            prev = r;
        }
        parts.add(start.equals(prev) ? "" + start : start + "-" + prev);
        return String.join(", ", parts);
    }
}
