package io.slurmwise.backend.real;

/**
 * The only programs the real backend ever runs. There is no way to name any other executable: the runner takes
 * one of these constants, never a string, and {@link Allowlist} decides which arguments each may get.
 */
public enum SlurmTool {
    /** Accounting records (slurmdbd). */
    SACCT("sacct"),
    /** {@code show job|partition|node} and {@code write batch_script <id> -} (slurmctld). */
    SCONTROL("scontrol"),
    /** Partitions and their limits (slurmctld). */
    SINFO("sinfo"),
    /** Pending reasons of queued jobs (slurmctld). */
    SQUEUE("squeue"),
    /** The QOSes' MaxWall, {@code show qos} only (slurmdbd). */
    SACCTMGR("sacctmgr"),
    /** An account's TRES-minute allocation and its use (slurmctld's association records). */
    SSHARE("sshare");

    private final String executable;

    SlurmTool(String executable) {
        this.executable = executable;
    }

    /** The file name looked up on PATH. */
    public String executable() {
        return executable;
    }

    /** Whether the command asks slurmctld (which may be down or slow) rather than slurmdbd. */
    public boolean asksController() {
        return this != SACCT && this != SACCTMGR;
    }
}
