# Shared settings and helpers of the slurmwise SLURM lab. Sourced by setup.sh,
# scenarios.sh, teardown.sh and daemon-ctl.sh; not meant to be run on its own.
# shellcheck shell=bash disable=SC2034  # the variables are used by the scripts that source this

LAB_STATE=${LAB_STATE:-/var/tmp/slurmwise-lab}   # manifest, lab.env, work dirs, quota image
TEST_USER=${TEST_USER:-slurmtest}
TEST_UID=${TEST_UID:-1001}
CLUSTER=${CLUSTER:-slurmwise}
ACCOUNT=${ACCOUNT:-research}
NODE=$(hostname -s)

SLURM_ETC=/etc/slurm
SLURM_RUN=/run/slurm
SLURM_LOG=/var/log/slurm
SLURM_SPOOL=/var/spool/slurm

# name -> "process name (/proc/PID/comm)|PID file"; the order is the start order
DAEMONS=(munged mariadbd slurmdbd slurmctld slurmd)
declare -A PIDFILE=(
  [munged]=/run/munge/munged.pid
  [mariadbd]=/run/mysqld/mysqld.pid
  [slurmdbd]=$SLURM_RUN/slurmdbd.pid
  [slurmctld]=$SLURM_RUN/slurmctld.pid
  [slurmd]=$SLURM_RUN/slurmd.pid
)

# timing without bc: EPOCHREALTIME (bash 5) in microseconds
_now_us() { local t=${EPOCHREALTIME/[.,]/}; echo "$t"; }
_LAB_T0=${_LAB_T0:-$(_now_us)}
elapsed() { local d=$(( $(_now_us) - _LAB_T0 )); printf '%d.%d' $((d / 1000000)) $((d % 1000000 / 100000)); }
say() { printf '[%s %6ss] %s\n' "${LAB_SCRIPT:-lab}" "$(elapsed)" "$*"; }
warn() { say "WARNING: $*" >&2; }
die() { say "ERROR: $*" >&2; exit 1; }

require_root() { [[ $(id -u) -eq 0 ]] || die "run me as root (I start daemons and submit as $TEST_USER)"; }

# PID of a daemon if its PID file names a live process with the right name
# (a stale file left by a killed daemon may name a reused PID).
daemon_pid() {
  local name=$1 pf=${PIDFILE[$1]} pid comm
  [[ -s $pf ]] || return 1
  pid=$(tr -dc '0-9' <"$pf")
  [[ -n $pid && -r /proc/$pid/comm ]] || return 1
  comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
  [[ $comm == "$name" ]] || return 1
  echo "$pid"
}
daemon_alive() { daemon_pid "$1" >/dev/null; }

# a process that exited (a zombie nobody reaped yet counts as exited)
proc_gone() { local st; st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 0; [[ -z $st || $st == Z ]]; }

# stop one daemon by its PID file: SIGTERM, wait up to $2 seconds, then SIGKILL
stop_daemon() {
  local name=$1 wait_s=${2:-30} pid i
  if ! pid=$(daemon_pid "$name"); then
    say "$name is not running"; rm -f "${PIDFILE[$name]}"; return 0
  fi
  kill "$pid" 2>/dev/null || true
  for ((i = 0; i < wait_s * 10; i++)); do
    proc_gone "$pid" && { say "$name ($pid) stopped"; rm -f "${PIDFILE[$name]}"; return 0; }
    sleep 0.1
  done
  warn "$name ($pid) ignored SIGTERM for ${wait_s}s: SIGKILL"
  kill -9 "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do proc_gone "$pid" && break; sleep 0.1; done
  rm -f "${PIDFILE[$name]}"
}

# wait_for DESCRIPTION TIMEOUT_S CMD...: retry CMD (output hidden) until it succeeds
wait_for() {
  local what=$1 t=$2 end; shift 2
  end=$(($(date +%s) + t))
  until "$@" >/dev/null 2>&1; do
    (($(date +%s) < end)) || { warn "timed out after ${t}s waiting for $what"; return 1; }
    sleep 0.25
  done
}

# node state as sinfo prints it (idle, mix, alloc, down, drain, idle*, ...)
node_state() { timeout 25 sinfo -h -n "$NODE" -o %t 2>/dev/null | head -1; }
node_usable() { [[ $(node_state) =~ ^(idle|mix|alloc|comp)$ ]]; }

# bring a DOWN/DRAINED node back (setup, NODE_FAIL scenario, slurmctld restart)
resume_node() {
  local st; st=$(node_state)
  if [[ $st =~ (down|drain|drng|fail|inval|maint) ]]; then
    say "node $NODE is '$st': resuming it"
    scontrol update NodeName="$NODE" State=RESUME >/dev/null 2>&1 || true
  fi
}

# start one daemon (if not running) and wait until it answers
start_daemon() {
  local name=$1
  case $name in
    munged)
      if ! daemon_alive munged; then
        install -d -o munge -g munge -m 0755 /run/munge
        runuser -u munge -- /usr/sbin/munged --force
      fi
      wait_for "munge" 15 bash -c 'munge -n | unmunge' || die "munged does not answer (see /var/log/munge/munged.log)"
      ;;
    mariadbd)
      if ! daemon_alive mariadbd; then
        install -d -o mysql -g mysql -m 0755 /run/mysqld
        install -d -m 0755 "$LAB_STATE/logs"
        # setsid + nohup: the server must outlive this script and its terminal
        setsid nohup /usr/sbin/mariadbd --user=mysql --pid-file=/run/mysqld/mysqld.pid \
          --innodb-buffer-pool-size=128M --skip-name-resolve \
          >>"$LAB_STATE/logs/mariadbd.log" 2>&1 </dev/null &
      fi
      wait_for "mariadb" 60 mysqladmin ping || die "mariadbd does not answer (see $LAB_STATE/logs/mariadbd.log)"
      ;;
    slurmdbd)
      daemon_alive slurmdbd || /usr/sbin/slurmdbd
      wait_for "slurmdbd" 60 sacctmgr -n show cluster || die "slurmdbd does not answer (see $SLURM_LOG/slurmdbd.log)"
      ;;
    slurmctld)
      daemon_alive slurmctld || /usr/sbin/slurmctld
      wait_for "slurmctld" 60 scontrol ping || die "slurmctld does not answer (see $SLURM_LOG/slurmctld.log)"
      wait_for "sinfo" 30 sinfo -h || die "sinfo does not answer"
      ;;
    slurmd)
      daemon_alive slurmd || /usr/sbin/slurmd
      ;;
    *) die "unknown daemon '$name' (known: ${DAEMONS[*]})" ;;
  esac
  # the SLURM daemons fork and write their PID file a moment later
  wait_for "$name PID file" 15 daemon_pid "$name" || die "$name did not write a valid PID file ${PIDFILE[$name]} (see its log)"
  local pid; pid=$(daemon_pid "$name")
  say "$name running (pid $pid)"
}

# wait until the node is schedulable again (slurmd registered, not down)
wait_node_ready() {
  local t=${1:-60} end; end=$(($(date +%s) + t))
  until node_usable; do
    resume_node
    (($(date +%s) < end)) || die "node $NODE not usable after ${t}s (state '$(node_state)'; see $SLURM_LOG/slurmd.log and slurmctld.log)"
    sleep 0.5
  done
}
