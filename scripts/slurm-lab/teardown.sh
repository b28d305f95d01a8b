#!/usr/bin/env bash
# Stop the slurmwise SLURM lab started by setup.sh: cancel every remaining job,
# then stop slurmd, slurmctld, slurmdbd, mariadbd and munged, each by its own
# PID file (SIGTERM, wait for the process to exit, SIGKILL only as a last
# resort). Packages, config, accounting data and $LAB_STATE stay, so setup.sh
# brings the same cluster back in a few seconds. Safe to run twice.
set -euo pipefail
LAB_SCRIPT=teardown
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lab-common.sh
source "$HERE/lab-common.sh"
require_root

if daemon_alive slurmctld && timeout 15 scontrol ping >/dev/null 2>&1; then
  jobs=$(squeue -h -o %A 2>/dev/null | sort -un | tr '\n' ' ' || true)
  if [[ -n ${jobs// /} ]]; then
    say "cancelling jobs: $jobs"
    # shellcheck disable=SC2086
    scancel $jobs 2>/dev/null || true
    # wait for running jobs to finish their epilog, so no slurmstepd outlives slurmd
    # shellcheck disable=SC2016  # expanded by the inner bash, on each retry
    if ! wait_for "jobs to leave the queue" 30 bash -c '[[ -z $(squeue -h -o %i 2>/dev/null) ]]'; then
      warn "still queued: $(squeue -h -o '%i %T' | tr '\n' ' ')"
    fi
  else
    say "no jobs to cancel"
  fi
else
  say "slurmctld is not answering: no jobs cancelled"
fi

for ((k = ${#DAEMONS[@]} - 1; k >= 0; k--)); do stop_daemon "${DAEMONS[$k]}" 30; done

if mountpoint -q "$LAB_STATE/diskfull"; then
  umount "$LAB_STATE/diskfull" && say "unmounted $LAB_STATE/diskfull"
fi
steps=$(for p in /proc/[0-9]*; do [[ $(cat "$p/comm" 2>/dev/null) == slurmstepd ]] && echo "${p#/proc/}"; done | tr '\n' ' ' || true)
[[ -z ${steps// /} ]] || warn "slurmstepd processes still alive (pids $steps): a job did not end"
say "lab stopped in $(elapsed)s (packages, config and accounting data kept)"
