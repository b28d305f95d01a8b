#!/usr/bin/env bash
# Install and start a single-node SLURM 22.05 cluster with accounting for the
# slurmwise integration tests: munged, mariadbd, slurmdbd, slurmctld, slurmd,
# all from Debian 12 packages, started in the background WITHOUT systemd, each
# with its own PID file.
#
# Idempotent: installs only missing packages, rewrites the config only when it
# changed (and then restarts the SLURM daemons that read it), starts only the
# daemons that are not running, resumes a DOWN/DRAINED node.
#
#   sudo ./setup.sh                  # MODE auto: cgroup when the cgroup v1 memory
#   sudo MODE=linuxproc ./setup.sh   # controller is writable, else linuxproc
#
# Environment: LAB_STATE (/var/tmp/slurmwise-lab), MODE, REALMEM (MB, 4000),
# MIN_JOB_AGE (s, 1800). Writes $LAB_STATE/lab.env for scenarios.sh and tests.
set -euo pipefail
LAB_SCRIPT=setup
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lab-common.sh
source "$HERE/lab-common.sh"
require_root

REALMEM=${REALMEM:-4000}          # MB advertised: small, so --mem=100G is unsatisfiable
MIN_JOB_AGE=${MIN_JOB_AGE:-1800}  # s that slurmctld remembers finished jobs (scontrol StdOut=)
DBPASS=${DBPASS:-slurmwise-lab}   # MariaDB password of the local 'slurm' user (lab only)

# ------------------------------------------------------------------ mode
if [[ -z ${MODE:-} ]]; then
  probe=/sys/fs/cgroup/memory/.slurmwise-probe-$$
  if [[ -d /sys/fs/cgroup/memory ]] && mkdir "$probe" 2>/dev/null; then
    rmdir "$probe"; MODE=cgroup
  else
    MODE=linuxproc
  fi
fi
case $MODE in
  cgroup) say "MODE=cgroup: cgroup v1 memory controller is writable, memory enforced by task/cgroup (OUT_OF_MEMORY)" ;;
  linuxproc) say "MODE=linuxproc: no writable cgroup v1 memory controller, memory enforced by OverMemoryKill (FAILED 0:9)" ;;
  *) die "MODE must be cgroup or linuxproc, not '$MODE'" ;;
esac

# ------------------------------------------------------------------ packages
PKGS=(munge mariadb-server slurmctld slurmd slurmdbd slurm-client
      slurm-wlm-basic-plugins slurm-wlm-mysql-plugin)
missing=()
for p in "${PKGS[@]}"; do
  [[ $(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null) == ii* ]] || missing+=("$p")
done
if ((${#missing[@]})); then
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # no systemd here: keep the packages' maintainer scripts from starting services
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\n# temporary, from slurmwise slurm-lab/setup.sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 0755 /usr/sbin/policy-rc.d
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends -o Dpkg::Use-Pty=0 "${missing[@]}" >"/tmp/slurmwise-lab-apt.$$.log" 2>&1 ||
    { tail -30 "/tmp/slurmwise-lab-apt.$$.log" >&2; die "apt-get install failed"; }
  rm -f "/tmp/slurmwise-lab-apt.$$.log" /usr/sbin/policy-rc.d
  trap - EXIT
else
  say "packages already installed"
fi
say "packages ready: $(dpkg-query -W -f='slurm ${Version}' slurmctld)"

# ------------------------------------------------------------------ test user
if getent passwd "$TEST_USER" >/dev/null; then
  [[ $(id -u "$TEST_USER") == "$TEST_UID" ]] ||
    die "user $TEST_USER exists with uid $(id -u "$TEST_USER"), expected $TEST_UID"
else
  owner=$(getent passwd "$TEST_UID" | cut -d: -f1 || true)
  [[ -z $owner ]] || die "uid $TEST_UID is taken by '$owner'; set TEST_UID or free it"
  getent group "$TEST_UID" >/dev/null && gopt=(-g "$TEST_UID") || gopt=(-U)
  useradd -m -u "$TEST_UID" "${gopt[@]}" -s /bin/bash "$TEST_USER"
  say "created user $TEST_USER (uid $TEST_UID)"
fi

# ------------------------------------------------------------------ dirs
install -d -o slurm -g slurm -m 0755 "$SLURM_RUN" "$SLURM_LOG" "$SLURM_SPOOL" "$SLURM_SPOOL/ctld" "$SLURM_SPOOL/d"
install -d -o munge -g munge -m 0755 /run/munge
install -d -o munge -g munge -m 0700 /var/log/munge /var/lib/munge
install -d -o mysql -g mysql -m 0755 /run/mysqld
install -d -m 0755 "$LAB_STATE" "$LAB_STATE/logs" "$LAB_STATE/work"

# ------------------------------------------------------------------ config
changed=()
# put_file PATH MODE OWNER < content: replace PATH only when the content differs
put_file() {
  local path=$1 mode=$2 owner=$3 tmp; tmp=$(mktemp)
  cat >"$tmp"
  if [[ -f $path ]] && cmp -s "$tmp" "$path"; then rm -f "$tmp"; else
    install -m "$mode" -o "${owner%:*}" -g "${owner#*:}" "$tmp" "$path"; rm -f "$tmp"
    changed+=("$(basename "$path")")
  fi
}

if [[ $MODE == cgroup ]]; then
  PROCTRACK=proctrack/cgroup
  TASK=task/cgroup,task/affinity
  GATHER='# JobAcctGatherParams=OverMemoryKill would be fatal together with task/cgroup'
  PROLOG='PrologFlags=Contain   # gives every job a .extern step, like most real clusters'
else
  PROCTRACK=proctrack/linuxproc
  TASK=task/affinity
  GATHER='JobAcctGatherParams=OverMemoryKill   # no cgroups: slurmstepd kills steps over --mem'
  PROLOG='# PrologFlags=Contain needs proctrack/cgroup'
fi
# node topology exactly as slurmd detects it (else the node registers as inval)
HWLINE=$(slurmd -C | head -1)
HWTOPO=$(grep -oE '(CPUs|Boards|SocketsPerBoard|CoresPerSocket|ThreadsPerCore)=[0-9]+' <<<"$HWLINE" | tr '\n' ' ')
HWMEM=$(grep -oE 'RealMemory=[0-9]+' <<<"$HWLINE" | cut -d= -f2)
((REALMEM <= HWMEM - 256)) || REALMEM=$((HWMEM - 256))

put_file "$SLURM_ETC/slurm.conf" 0644 root:root <<EOF
# slurmwise test lab, written by scripts/slurm-lab/setup.sh (MODE=$MODE)
ClusterName=$CLUSTER
SlurmctldHost=$NODE(127.0.0.1)
SlurmUser=slurm
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
MailProg=/bin/true
StateSaveLocation=$SLURM_SPOOL/ctld
SlurmdSpoolDir=$SLURM_SPOOL/d
SlurmctldPidFile=${PIDFILE[slurmctld]}
SlurmdPidFile=${PIDFILE[slurmd]}
SlurmctldLogFile=$SLURM_LOG/slurmctld.log
SlurmdLogFile=$SLURM_LOG/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ReturnToService=1
$PROLOG

ProctrackType=$PROCTRACK
TaskPlugin=$TASK
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=2
$GATHER

SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=500
GresTypes=gpu

# short timers so the scenarios finish fast
MinJobAge=$MIN_JOB_AGE
KillWait=5
OverTimeLimit=0
InactiveLimit=0
MessageTimeout=10   # SLURM default: with slurmctld down, squeue fails after ~10 s
SlurmctldTimeout=30
SlurmdTimeout=60

AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStorageEnforce=associations,limits,qos
AccountingStorageTRES=gres/gpu
AccountingStoreFlags=job_comment,job_env,job_script
JobCompType=jobcomp/filetxt
JobCompLoc=$SLURM_LOG/jobcomp.log

NodeName=$NODE NodeAddr=127.0.0.1 ${HWTOPO}RealMemory=$REALMEM Gres=gpu:a100:4 State=UNKNOWN
PartitionName=cpu       Nodes=$NODE Default=YES MaxTime=02:00:00 State=UP QOS=labcpu
PartitionName=gpuA100x4 Nodes=$NODE Default=NO  MaxTime=00:30:00 State=UP
EOF

# Fake A100s: slurmd drops GPUs without File= and rejects regular files, so
# give it four character devices that are clones of /dev/null (major 1, minor 3).
install -d -m 0755 "$SLURM_SPOOL/fakegpu"
for i in 0 1 2 3; do
  [[ -c $SLURM_SPOOL/fakegpu/nvidia$i ]] || mknod -m 0666 "$SLURM_SPOOL/fakegpu/nvidia$i" c 1 3
done
put_file "$SLURM_ETC/gres.conf" 0644 root:root <<EOF
AutoDetect=off
NodeName=$NODE Name=gpu Type=a100 File=$SLURM_SPOOL/fakegpu/nvidia[0-3]
EOF

put_file "$SLURM_ETC/cgroup.conf" 0644 root:root <<EOF
CgroupPlugin=cgroup/v1
CgroupMountpoint=/sys/fs/cgroup
ConstrainCores=no
ConstrainDevices=no
ConstrainRAMSpace=yes
ConstrainSwapSpace=yes
AllowedSwapSpace=0
EOF

put_file "$SLURM_ETC/slurmdbd.conf" 0600 slurm:slurm <<EOF
AuthType=auth/munge
DbdHost=$NODE
DbdAddr=127.0.0.1
DbdPort=6819
SlurmUser=slurm
DebugLevel=info
LogFile=$SLURM_LOG/slurmdbd.log
PidFile=${PIDFILE[slurmdbd]}
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageUser=slurm
StoragePass=$DBPASS
StorageLoc=slurm_acct_db
EOF

if ((${#changed[@]})); then
  say "config written: ${changed[*]}"
  # plugins and node definitions need a restart, not 'scontrol reconfigure'
  if [[ " ${changed[*]} " == *" slurmdbd.conf "* ]]; then stop_daemon slurmdbd; fi
  if [[ " ${changed[*]} " =~ \ (slurm|gres|cgroup)\.conf\  ]]; then
    stop_daemon slurmd; stop_daemon slurmctld
  fi
else
  say "config unchanged"
fi

# ------------------------------------------------------------------ a full filesystem for the disk_quota scenario
# A 1 MB tmpfs owned by the test user: writes fail with ENOSPC "No space left on
# device". (A real user quota, EDQUOT, needs CONFIG_QFMT_V2, which this kernel lacks.)
DISKFULL_DIR=$LAB_STATE/diskfull
install -d -m 0755 "$DISKFULL_DIR"
if mountpoint -q "$DISKFULL_DIR" ||
   mount -t tmpfs -o size=1M,mode=0755,uid="$TEST_UID",gid="$(id -g "$TEST_USER")" slurmwise-diskfull "$DISKFULL_DIR"; then
  DISKFULL_KIND=$(findmnt -n -o FSTYPE,SIZE "$DISKFULL_DIR" | tr -s ' ' ' ')
else
  DISKFULL_KIND=none
  warn "cannot mount a 1 MB tmpfs at $DISKFULL_DIR: scenarios.sh will skip disk_quota"
fi
say "disk_quota filesystem: $DISKFULL_DIR ($DISKFULL_KIND)"

# ------------------------------------------------------------------ munge, mariadb, slurmdbd
if [[ ! -s /etc/munge/munge.key ]]; then
  runuser -u munge -- mungekey --create --keyfile=/etc/munge/munge.key 2>/dev/null ||
    { dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none; }
  chown munge:munge /etc/munge/munge.key; chmod 0400 /etc/munge/munge.key
fi
start_daemon munged

if [[ ! -d /var/lib/mysql/mysql ]]; then
  say "initialising the MariaDB data directory"
  mariadb-install-db --user=mysql --datadir=/var/lib/mysql --skip-test-db >"$LAB_STATE/logs/mariadb-install.log" 2>&1
fi
start_daemon mariadbd
mysql -uroot <<EOF
CREATE DATABASE IF NOT EXISTS slurm_acct_db;
CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY '$DBPASS';
ALTER USER 'slurm'@'localhost' IDENTIFIED BY '$DBPASS';
GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost';
EOF

start_daemon slurmdbd

# ------------------------------------------------------------------ associations (before slurmctld registers)
# sacctmgr_ensure "show args" "add args": add only what is missing (quiet on reruns)
sacctmgr_ensure() {
  local show=$1 add=$2
  [[ -n $(eval "sacctmgr -n -P show $show" 2>/dev/null) ]] && return 0
  eval "sacctmgr -i add $add" >/dev/null || die "sacctmgr add $add failed"
  say "sacctmgr add $add"
}
sacctmgr_ensure "cluster $CLUSTER" "cluster $CLUSTER"
sacctmgr_ensure "account $ACCOUNT" "account $ACCOUNT Cluster=$CLUSTER Description=slurmwise-lab Organization=slurmwise"
# extra scenario limits: a QOS capped at 10 minutes, and an account with no CPU minutes left
sacctmgr_ensure "qos short format=name" "qos short MaxWall=00:10:00"
# partition cpu's own QOS (slurm.conf QOS=labcpu; it must exist before slurmctld starts): no limits, so the job's QOS
# still caps there, as in the qos_limit scenario; the backend reads it from scontrol show partition
sacctmgr_ensure "qos labcpu format=name" "qos labcpu"
sacctmgr_ensure "account exhausted" "account exhausted Cluster=$CLUSTER Parent=$ACCOUNT Description=no-cpu-minutes-left Organization=slurmwise GrpTRESMins=cpu=0"
sacctmgr_ensure "user root format=user" "user root Account=$ACCOUNT"
sacctmgr_ensure "user $TEST_USER format=user" "user $TEST_USER Account=$ACCOUNT DefaultAccount=$ACCOUNT"
sacctmgr_ensure "assoc user=$TEST_USER account=exhausted format=user" "user $TEST_USER Account=exhausted"
if ! sacctmgr -n -P show assoc user="$TEST_USER" account="$ACCOUNT" format=qos | grep -qw short; then
  sacctmgr -i modify user "$TEST_USER" set QOS+=short >/dev/null
  say "sacctmgr: $TEST_USER may use QOS short"
fi

# ------------------------------------------------------------------ slurmctld, slurmd
start_daemon slurmctld
start_daemon slurmd
wait_node_ready 60
wait_for "sacct" 30 sacct -X -n -S now-1hour -o JobID || die "sacct does not answer"

cat >"$LAB_STATE/lab.env" <<EOF
# written by scripts/slurm-lab/setup.sh at $(date -Is)
MODE=$MODE
NODE=$NODE
CLUSTER=$CLUSTER
ACCOUNT=$ACCOUNT
TEST_USER=$TEST_USER
TEST_UID=$TEST_UID
SLURM_VERSION=$(sinfo -V | awk '{print $2}')
DISKFULL_KIND='$DISKFULL_KIND'
DISKFULL_DIR=$DISKFULL_DIR
MIN_JOB_AGE=$MIN_JOB_AGE
EOF

say "cluster up in $(elapsed)s: $(sinfo -V), MODE=$MODE, node $NODE $(node_state)"
sinfo
