package io.slurmwise.backend;

import java.time.LocalDateTime;

/**
 * When slurmctld lets a queued job start at the earliest, as {@code scontrol show job} says it: {@code EligibleTime=}
 * (its {@code --begin}, or the hold SLURM puts on a job it requeued) and {@code Restarts=} (how often it was requeued).
 * Both read {@code Reason=BeginTime}: a requeued job waits about two minutes (the real lab's 323: requeued at
 * 15:11:31, {@code EligibleTime=2026-12-07T15:13:32 Restarts=1}) though its user asked for no --begin.
 *
 * @param at       the earliest start
 * @param restarts how often the job was requeued (0: never, so the time is its own --begin)
 */
public record EligibleTime(LocalDateTime at, int restarts) {

    public boolean requeued() {
        return restarts > 0;
    }
}
