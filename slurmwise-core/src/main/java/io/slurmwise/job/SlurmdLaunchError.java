package io.slurmwise.job;

import java.util.Map;
import java.util.Optional;

/**
 * A batch job that slurmd could not launch ends with slurmd's error number as its exit status, which SLURM's tools
 * then read as a wait status. slurmd reports the failure (src/slurmd/slurmd/req.c, {@code _launch_job_fail}) with the
 * errno as the job's return code; slurmctld stores it as the job's exit code and, since {@code WIFSIGNALED} holds for
 * it, the reason {@code RaisedSignal:N} with {@code N = errno & 0x7f}; sacct and scontrol print {@code 0:N}. So
 * {@code ESLURMD_IO_ERROR} (4021 in slurm/slurm_errno.h since 22.05: slurmstepd could not open the job's
 * {@code --output}/{@code --error} file) shows as {@code FAILED 0:53}, {@code Reason=RaisedSignal:53} after a run of
 * no time, and slurmd's own log says {@code job_rc = 4021}. Signal 53 is a real-time signal (SIGRTMIN+19) that no
 * SLURM command or common program sends, so the record alone names the error.
 *
 * <p>Only errors seen in real records this way are listed; an errno whose low seven bits collide with a signal jobs
 * really die of (4, 6, 7, 8, 9, 11, 15) would be ambiguous and is not.
 *
 * @param errno   slurmd's error number
 * @param name    its name in slurm_errno.h
 * @param message its text in src/common/slurm_errno.c, as the notes' signatures read it
 */
public record SlurmdLaunchError(int errno, String name, String message) {

    private static final Map<Integer, SlurmdLaunchError> BY_SIGNAL = Map.of(
            53, new SlurmdLaunchError(4021, "ESLURMD_IO_ERROR", "Slurmd could not connect IO"));

    /** The launch error an exit code stands for: {@code 0:53} is 4021, ESLURMD_IO_ERROR. */
    public static Optional<SlurmdLaunchError> of(ExitCode e) {
        if (e == null || e.code() != 0) {
            return Optional.empty();
        }
        return Optional.ofNullable(BY_SIGNAL.get(e.signal()));
    }

    /** How the record shows it, for evidence: {@code ExitCode=0:53 (slurmd's launch error 4021, ESLURMD_IO_ERROR, ...)}. */
    public String describe(ExitCode e) {
        return "ExitCode=" + e + " (slurmd's launch error " + errno + ", " + name + " \"" + message
                + "\", which SLURM shows as signal " + (errno & 0x7f) + ")";
    }
}
