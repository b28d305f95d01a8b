#!/usr/bin/env bash
# Stop or (re)start one daemon of the slurmwise SLURM lab by its PID file, so
# integration tests can check how slurmwise behaves while slurmdbd or slurmctld
# is down. 'start' waits until the daemon answers again and the cluster is
# usable (node back, slurmctld reconnected to slurmdbd).
#
#   daemon-ctl.sh stop slurmdbd|slurmctld      (also: slurmd, mariadbd, munged)
#   daemon-ctl.sh start slurmdbd|slurmctld
#   daemon-ctl.sh restart slurmdbd|slurmctld
#   daemon-ctl.sh status                       one line per daemon: name pid|stopped
set -euo pipefail
LAB_SCRIPT=daemon-ctl
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lab-common.sh
source "$HERE/lab-common.sh"

usage() { echo "usage: $0 stop|start|restart NAME  (NAME: ${DAEMONS[*]})  |  $0 status" >&2; exit 2; }
(($# >= 1)) || usage
action=$1 name=${2:-}

if [[ $action == status ]]; then
  for d in "${DAEMONS[@]}"; do printf '%-9s %s\n' "$d" "$(daemon_pid "$d" || echo stopped)"; done
  exit 0
fi
[[ -n $name && -n ${PIDFILE[$name]:-} ]] || usage
require_root

# slurmctld queues accounting records while slurmdbd is away; wait until it
# has reconnected and sent them (sdiag 'DBD Agent queue size: 0')
wait_dbd_agent() {
  daemon_alive slurmctld || return 0
  wait_for "slurmctld to flush its accounting queue to slurmdbd" 60 \
    bash -c 'sdiag 2>/dev/null | grep -q "DBD Agent queue size: 0"' ||
    warn "slurmctld has not emptied its slurmdbd queue yet (sdiag)"
}

do_start() {
  local deps=()
  case $name in
    mariadbd) deps=(munged) ;;
    slurmdbd) deps=(munged mariadbd) ;;
    slurmctld) deps=(munged) ;;
    slurmd) deps=(munged slurmctld) ;;
  esac
  for d in "${deps[@]}"; do daemon_alive "$d" || die "$name needs $d, which is not running (setup.sh starts everything)"; done
  start_daemon "$name"
  case $name in
    slurmctld | slurmd) wait_node_ready 60; wait_dbd_agent ;;
    slurmdbd) wait_dbd_agent ;;
  esac
  say "$name is back"
}

case $action in
  stop) stop_daemon "$name" 30 ;;
  start) do_start ;;
  restart) stop_daemon "$name" 30; do_start ;;
  *) usage ;;
esac
