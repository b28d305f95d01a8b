#!/usr/bin/env bash
# Submit the slurmwise failure scenarios as the unprivileged test user on the
# cluster started by setup.sh, drive them to their final (or pending) state,
# check what SLURM recorded, and write the manifest the integration tests read:
#
#   $LAB_STATE/scenarios.tsv   scenario, jobid, expected_state, expected_kind, workdir
#   $LAB_STATE/observed.tsv    what sacct / squeue really showed at the end
#
# Jobs of earlier runs are cancelled first; each run gets a fresh work dir
# $LAB_STATE/work/run-<timestamp> (symlink $LAB_STATE/work/latest). Jobs that
# can never start are LEFT PENDING on purpose: tests inspect their reasons.
# Takes ~3 min: the 1-minute TIMEOUT jobs set the pace (the deadline_cut job
# starts only once the time_limit job has left its CPU).
#
# Environment: LAB_STATE (/var/tmp/slurmwise-lab), SCENARIO_TIMEOUT (360 s),
# LENIENT=1 to exit 0 even when SLURM recorded something unexpected.
set -euo pipefail
LAB_SCRIPT=scenarios
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lab-common.sh
source "$HERE/lab-common.sh"
require_root

[[ -r $LAB_STATE/lab.env ]] || die "$LAB_STATE/lab.env not found: run setup.sh first"
# shellcheck disable=SC1091
source "$LAB_STATE/lab.env"
: "${MODE:?$LAB_STATE/lab.env has no MODE: rerun setup.sh}"
DEADLINE=$(($(date +%s) + ${SCENARIO_TIMEOUT:-360}))

for d in slurmdbd slurmctld slurmd; do daemon_alive "$d" || die "$d is not running: run setup.sh first"; done
timeout 30 scontrol ping >/dev/null 2>&1 || die "slurmctld does not answer 'scontrol ping'"
wait_node_ready 30

# ------------------------------------------------------------------ helpers
USER_HOME=$(getent passwd "$TEST_USER" | cut -d: -f6)
# run as the test user with a clean environment: sbatch exports it to the job,
# and the job must see the system python3 (no torch), not root's PATH
asuser() {
  runuser -u "$TEST_USER" -- env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$USER_HOME" \
    USER="$TEST_USER" LOGNAME="$TEST_USER" SHELL=/bin/bash LANG=C.UTF-8 "$@"
}
left() { echo $((DEADLINE - $(date +%s))); }
check_deadline() {
  (($(date +%s) < DEADLINE)) && return 0
  squeue -o '%.10i %.22j %.9T %.10M %r' >&2 || true
  die "global timeout (${SCENARIO_TIMEOUT:-360}s) while $1"
}
# submit SCENARIO SBATCH-ARGS... : print the job id (dies when sbatch refuses)
submit() {
  local name=$1 out; shift
  out=$(asuser sbatch --parsable -D "$WORK" "$@" 2>&1) || die "sbatch refused scenario $name: $out"
  out=${out%%;*}
  [[ $out =~ ^[0-9]+$ ]] || die "unexpected sbatch output for $name: $out"
  echo "$out"
}
sq_state() { squeue -h -j "$1" -o %T 2>/dev/null | head -1 || true; }
sq_reason() { squeue -h -j "$1" -o %r 2>/dev/null | head -1 || true; }
sacct_state() { sacct -X -n -P -j "$1" -o State 2>/dev/null | head -1 | awk '{print $1}'; }
wait_state() { # JOBID STATE WHAT
  until [[ $(sq_state "$1") == "$2" ]]; do check_deadline "waiting for $3 (job $1) to be $2"; sleep 0.5; done
}
wait_gone() { # wait until none of the jobs is in squeue any more
  local j busy
  while :; do
    busy=()
    for j in "$@"; do [[ -z $(squeue -h -j "$j" -o %i 2>/dev/null) ]] || busy+=("$j"); done
    ((${#busy[@]})) || return 0
    check_deadline "waiting for jobs ${busy[*]} to end"
    sleep 1
  done
}

# manifest rows, in submission order
ROW_NAME=() ROW_ID=() ROW_STATE=() ROW_KIND=()
declare -A WANT_REASON=()   # jobid -> pending reason squeue must show
add_row() { ROW_NAME+=("$1"); ROW_ID+=("$2"); ROW_STATE+=("$3"); ROW_KIND+=("$4"); say "  $1 -> job $2 (expect $3, $4)"; }

# ------------------------------------------------------------------ clean up earlier runs
old=$(squeue -h -u "$TEST_USER" -o %i | tr '\n' ' ')
if [[ -n ${old// /} ]]; then
  say "cancelling jobs of earlier runs: $old"
  scancel -u "$TEST_USER"
  for ((i = 0; i < 60; i++)); do [[ -z $(squeue -h -u "$TEST_USER" -o %i) ]] && break; sleep 0.5; done
fi

RUN=run-$(date +%Y%m%d-%H%M%S)
WORK=$LAB_STATE/work/$RUN
install -d -o "$TEST_USER" -g "$TEST_USER" -m 0755 "$WORK"
ln -sfn "$RUN" "$LAB_STATE/work/latest"
say "work dir $WORK (MODE=$MODE, node $NODE)"

# ------------------------------------------------------------------ job scripts
w() { cat >"$WORK/$1"; }   # write one file into the work dir

w train.py <<'EOF'
import os
print(f"loading dataset on {os.uname().nodename}", flush=True)
import torch  # not installed on the cluster -> ModuleNotFoundError
print("torch", torch.__version__)
EOF

w eat_memory.py <<'EOF'
import time
chunks = []
for i in range(1, 161):                  # up to 4 GB in 25 MB chunks
    chunks.append(b"\x01" * (25 << 20))   # written bytes -> resident memory
    print(f"allocated {i * 25} MB", flush=True)
    time.sleep(0.2)
print("finished without being killed", flush=True)
EOF

w completes.sbatch <<'EOF'
#!/bin/bash
#SBATCH --job-name=completes
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err
#SBATCH --time=00:05:00
#SBATCH --mem=200M
echo "job $SLURM_JOB_ID on $(hostname) in partition $SLURM_JOB_PARTITION"
python3 -c 'import time; data = b"x" * (100 << 20); print("epoch 1/1 loss=0.123", flush=True); time.sleep(4)'
echo "training finished"
EOF

w import_error.sbatch <<'EOF'
#!/bin/bash
#SBATCH --job-name=import_error
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err
#SBATCH --time=00:05:00
#SBATCH --mem=200M
echo "job $SLURM_JOB_ID: starting training"
python3 train.py
EOF

w time_limit.sbatch <<'EOF'
#!/bin/bash
#SBATCH --job-name=time_limit
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err
#SBATCH --time=00:01:00
#SBATCH --mem=100M
echo "job $SLURM_JOB_ID: 600 steps of 1 s with a 1-minute limit"
for i in $(seq 1 600); do echo "step $i/600"; sleep 1; done
EOF

w oom.sbatch <<'EOF'
#!/bin/bash
#SBATCH --job-name=oom
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err
#SBATCH --time=00:05:00
#SBATCH --mem=200M
echo "job $SLURM_JOB_ID with --mem=200M"
python3 eat_memory.py
EOF

w segfault.sbatch <<'EOF'
#!/bin/bash
#SBATCH --job-name=segfault
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err
#SBATCH --time=00:05:00
#SBATCH --mem=200M
echo "calling native code"
python3 -X faulthandler -c 'import ctypes; ctypes.string_at(0)'
EOF

w segfault_signal.sbatch <<'EOF'
#!/bin/bash
#SBATCH --job-name=segfault_signal
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err
#SBATCH --time=00:05:00
#SBATCH --mem=100M
echo "the batch shell itself dies of SIGSEGV"
kill -SEGV $$
EOF

w long.sbatch <<'EOF'
#!/bin/bash
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err
#SBATCH --time=00:10:00
#SBATCH --mem=100M
echo "job $SLURM_JOB_ID running on $SLURM_JOB_NODELIST"
for i in $(seq 1 600); do echo "tick $i"; sleep 1; done
EOF

w quick.sbatch <<'EOF'
#!/bin/bash
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err
#SBATCH --mem=100M
echo "job $SLURM_JOB_ID ($SLURM_JOB_NAME) ran"
EOF

# SLURM's default log name on purpose: no --output/--error, so slurm-%j.out
w file_not_found.sbatch <<'EOF'
#!/bin/bash
#SBATCH --job-name=file_not_found
#SBATCH --time=00:05:00
#SBATCH --mem=100M
echo "reading the input table"
cat /nonexistent/input.csv
EOF

w disk_quota.sbatch <<EOF
#!/bin/bash
#SBATCH --job-name=disk_quota
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err
#SBATCH --time=00:05:00
#SBATCH --mem=100M
echo "writing a 4 MB checkpoint to $DISKFULL_DIR (a 1 MB filesystem)"
dd if=/dev/zero of=$DISKFULL_DIR/checkpoint-\$SLURM_JOB_ID.bin bs=256K count=16
EOF

# array: %A_%a log names; task 2 cannot write its result (read-only results/)
w array.sbatch <<'EOF'
#!/bin/bash
#SBATCH --job-name=array
#SBATCH --array=1-3
#SBATCH --output=%x-%A_%a.out
#SBATCH --error=%x-%A_%a.err
#SBATCH --time=00:05:00
#SBATCH --mem=100M
echo "task $SLURM_ARRAY_TASK_ID of array job $SLURM_ARRAY_JOB_ID (job $SLURM_JOB_ID)"
if [[ $SLURM_ARRAY_TASK_ID == 2 ]]; then
  echo "task 2 writes to results/ ($(stat -c '%U %A' results))"
  echo "id,score" > results/task_2.csv
else
  echo "id,score" > "task_$SLURM_ARRAY_TASK_ID.csv"
fi
EOF

# SLURM's filename patterns in full: %u in a directory, %N %n %t %J %%, zero padding (%4j, %2t);
# a relative --output/--error resolves against the work dir
w log_patterns.sbatch <<'EOF'
#!/bin/bash
#SBATCH --job-name=log_patterns
#SBATCH -o logs-%u/%x.%N.%4j.out
#SBATCH --error=logs-%u/%x.%J.t%2t.n%n.%%.err
#SBATCH --time=00:05:00
#SBATCH --mem=100M
echo "job $SLURM_JOB_ID: loading the run configuration"
python3 -c 'open("config.yaml")'
EOF

# a step killed for memory inside a job whose batch script goes on and exits 0: the job is COMPLETED 0:0, its
# step 0 OUT_OF_MEMORY 0:125 (cgroup mode)
w step_oom.sbatch <<'EOF'
#!/bin/bash
#SBATCH --job-name=step_oom
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err
#SBATCH --time=00:05:00
#SBATCH --mem=200M
echo "job $SLURM_JOB_ID: the training step runs under srun, the script goes on whatever it returns"
srun python3 eat_memory.py
echo "srun returned $?; writing the summary"
EOF

# the script asks 10 minutes; scenarios.sh gives sbatch --time=00:01:00, which overrides the #SBATCH line
w time_override.sbatch <<'EOF'
#!/bin/bash
#SBATCH --job-name=time_override
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err
#SBATCH --time=00:10:00
#SBATCH --mem=100M
echo "job $SLURM_JOB_ID: 600 steps of 1 s, the script asks 10 minutes"
for i in $(seq 1 600); do echo "step $i/600"; sleep 1; done
EOF

# 10 minutes at most, 1 minute at least: with a --deadline on sbatch's command line less than 2 minutes ahead,
# slurmctld cuts TimeLimit to the whole minutes left before it (TimeMin=00:01:00, Deadline=...), and the job ends
# TIMEOUT at that cut limit, before the deadline
w deadline_cut.sbatch <<'EOF'
#!/bin/bash
#SBATCH --job-name=deadline_cut
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err
#SBATCH --time=00:10:00
#SBATCH --time-min=00:01:00
#SBATCH --mem=100M
echo "job $SLURM_JOB_ID: 600 steps of 1 s, at most 10 minutes, at least 1"
for i in $(seq 1 600); do echo "step $i/600"; sleep 1; done
EOF

w gpu.sbatch <<'EOF'
#!/bin/bash
#SBATCH --job-name=gpu_completes
#SBATCH --partition=gpuA100x4
#SBATCH --gres=gpu:a100:2
#SBATCH --output=%x-%j.out
#SBATCH --error=%x-%j.err
#SBATCH --time=00:05:00
#SBATCH --mem=200M
echo "CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-unset} SLURM_JOB_GPUS=${SLURM_JOB_GPUS:-unset}"
sleep 2
EOF

install -d -o "$TEST_USER" -g "$TEST_USER" -m 0755 "$WORK/logs-$TEST_USER"   # --output dirs must exist
chown -R "$TEST_USER:$TEST_USER" "$WORK"
install -d -o root -g root -m 0755 "$WORK/results"   # read-only for the test user
if mountpoint -q "${DISKFULL_DIR:-/nonexistent}"; then
  find "$DISKFULL_DIR" -mindepth 1 -delete   # empty it again after an earlier run
else
  DISKFULL_DIR=""
  warn "no small filesystem mounted (setup.sh): skipping disk_quota"
fi

# ------------------------------------------------------------------ 1. NODE_FAIL (first: a DOWN node kills every job on it)
say "node_fail: submit, wait until running, set node $NODE DOWN, resume"
NF=$(submit node_fail --job-name=node_fail --no-requeue long.sbatch)
wait_state "$NF" RUNNING node_fail
sleep 2
scontrol update NodeName="$NODE" State=DOWN Reason="slurmwise-lab simulated node failure"
wait_gone "$NF"
scontrol update NodeName="$NODE" State=RESUME
wait_node_ready "$(left)"
add_row node_fail "$NF" NODE_FAIL node_fail

# ------------------------------------------------------------------ 2. everything else, concurrently where 2 CPUs allow
say "submitting the other scenarios"
TL=$(submit time_limit time_limit.sbatch)                     # CPU 1 for ~60-90 s
CANCEL=$(submit cancelled --job-name=cancelled long.sbatch)   # CPU 2 until scancel
wait_state "$TL" RUNNING time_limit
wait_state "$CANCEL" RUNNING cancelled

PYERR=$(submit import_error import_error.sbatch)
DEP=$(submit dependency --job-name=dependency --dependency=afterok:"$PYERR" quick.sbatch)
OK=$(submit completes completes.sbatch)
OOM=$(submit oom oom.sbatch)
SEGV=$(submit segfault segfault.sbatch)
SEGV2=$(submit segfault_signal segfault_signal.sbatch)
FNF=$(submit file_not_found file_not_found.sbatch)
# a '|' in the job name: sacct -P's own separator inside a field (slurmwise asks sacct for another delimiter)
PIPE=$(submit pipe_in_name --job-name='prep|v2 run' file_not_found.sbatch)
[[ -z $DISKFULL_DIR ]] || DQ=$(submit disk_quota disk_quota.sbatch)
ARR=$(submit array array.sbatch)
PAT=$(submit log_patterns log_patterns.sbatch)
GPU=$(submit gpu_completes gpu.sbatch)
PTL=$(submit partition_time_limit --job-name=partition_time_limit -p gpuA100x4 --gres=gpu:a100:1 --time=01:00:00 quick.sbatch)
PCF=$(submit partition_config --job-name=partition_config -c 16 quick.sbatch)
QOS=$(submit qos_limit --job-name=qos_limit --qos=short --time=00:30:00 quick.sbatch)
EXH=$(submit allocation_exhausted --job-name=allocation_exhausted -A exhausted --time=00:10:00 quick.sbatch)
STEPOOM=$(submit step_oom step_oom.sbatch)
# slurmctld cancels it once import_error has failed (CANCELLED, Reason=Dependency, no canceller named)
DEPKILL=$(submit dep_cancelled --job-name=dep_cancelled --kill-on-invalid-dep=yes --dependency=afterok:"$PYERR" quick.sbatch)
# 10 minutes asked, a deadline one minute ahead: slurmctld ends it DEADLINE without starting it (a deadline already
# past is refused by sbatch: "Requested time limit is invalid")
DLNEVER=$(submit deadline_never --job-name=deadline_never --time=00:10:00 \
  --deadline="$(date -d '+60 sec' +%Y-%m-%dT%H:%M:%S)" quick.sbatch)
HELD=$(submit held --job-name=held --hold quick.sbatch)
# a held array: SLURM keeps one row, <id>_[1-3], for its tasks that have not started, and sacct -j <id>_2 lists none
# (slurmdbd selects by the task's own id); slurmwise answers for <id>_2 with the array's row
PARR=$(submit pending_array --job-name=pending_array --hold --array=1-3 quick.sbatch)
BEGIN=$(submit begin_later --job-name=begin_later --begin=now+2hours --time=00:05:00 quick.sbatch)
# behind the short jobs above: a command-line --time overrides the script's #SBATCH --time=00:10:00
OVR=$(submit time_override --time=00:01:00 time_override.sbatch)

# rejected by sbatch, yet slurmctld has given it a job id and accounting records it
SUBMIT_T=$(date -d '-5 sec' +%Y-%m-%dT%H:%M:%S)
if out=$(asuser sbatch --parsable -D "$WORK" --job-name=rejected_mem --mem=100G quick.sbatch 2>&1); then
  die "sbatch accepted --mem=100G (job $out); the node should advertise only a few GB"
fi
printf '%s\n' "$out" >"$WORK/rejected_mem.sbatch-stderr"
say "rejected_mem: sbatch said: $(tr '\n' ' ' <<<"$out")"
REJ=""
until [[ -n $REJ ]]; do
  REJ=$(sacct -X -n -P -u "$TEST_USER" -S "$SUBMIT_T" --name=rejected_mem -o JobID 2>/dev/null | sort -n | tail -1)
  [[ -n $REJ ]] || { check_deadline "looking for the rejected_mem job in sacct"; sleep 0.5; }
done

sleep 3   # let the cancelled job log a few ticks (and be sampled) before scancel
asuser scancel "$CANCEL"
say "scancel $CANCEL as $TEST_USER"

add_row time_limit "$TL" TIMEOUT time_limit
add_row cancelled "$CANCEL" CANCELLED cancelled
add_row completes "$OK" COMPLETED none
add_row import_error "$PYERR" FAILED import_error
if [[ $MODE == cgroup ]]; then add_row oom "$OOM" OUT_OF_MEMORY oom; else add_row oom "$OOM" FAILED oom; fi
add_row segfault "$SEGV" FAILED segfault
add_row segfault_signal "$SEGV2" FAILED segfault
add_row file_not_found "$FNF" FAILED file_not_found
add_row pipe_in_name "$PIPE" FAILED file_not_found
[[ -z $DISKFULL_DIR ]] || add_row disk_quota "$DQ" FAILED disk_quota
add_row array_task_fail "${ARR}_2" FAILED permission
add_row array_task_ok "${ARR}_1" COMPLETED none
add_row log_patterns "$PAT" FAILED file_not_found
add_row gpu_completes "$GPU" COMPLETED none
add_row step_oom "$STEPOOM" COMPLETED oom
add_row dep_cancelled "$DEPKILL" CANCELLED dependency
add_row deadline_never "$DLNEVER" DEADLINE deadline
add_row time_override "$OVR" TIMEOUT time_limit
add_row rejected_mem "$REJ" FAILED resources_unavailable
add_row dependency "$DEP" PENDING dependency;                       WANT_REASON[$DEP]=DependencyNeverSatisfied
add_row partition_time_limit "$PTL" PENDING resources_unavailable;  WANT_REASON[$PTL]=PartitionTimeLimit
add_row partition_config "$PCF" PENDING resources_unavailable;      WANT_REASON[$PCF]=PartitionConfig
add_row qos_limit "$QOS" PENDING qos_limit;                         WANT_REASON[$QOS]=QOSMaxWallDurationPerJobLimit
add_row allocation_exhausted "$EXH" PENDING allocation_exhausted;    WANT_REASON[$EXH]=AssocGrpCPUMinutesLimit
add_row held "$HELD" PENDING none;                                  WANT_REASON[$HELD]=JobHeldUser
add_row pending_array_task "${PARR}_2" PENDING none;                WANT_REASON[${PARR}_2]=JobHeldUser
add_row begin_later "$BEGIN" PENDING none;                          WANT_REASON[$BEGIN]=BeginTime

# ------------------------------------------------------------------ 3. wait for final states
say "waiting for the running jobs to end (the time_limit job needs 60-90 s)"
RUNNABLE=("$TL" "$CANCEL" "$PYERR" "$OK" "$OOM" "$SEGV" "$SEGV2" "$FNF" "$PIPE" "$ARR" "$PAT" "$GPU" "$STEPOOM"
  "$DEPKILL" "$DLNEVER")
[[ -z $DISKFULL_DIR ]] || RUNNABLE+=("$DQ")
wait_gone "${RUNNABLE[@]}"
# the deadline's cut needs a CPU free at once (time_override holds the other one): submitted only now, with a
# deadline 110 s ahead, it starts within a second or two, is given TimeLimit=00:01:00 (the whole minutes left) and
# ends TIMEOUT 60-90 s later, before its deadline
say "deadline_cut: --deadline 110 s ahead of a script asking --time=00:10:00 --time-min=00:01:00"
DLCUT=$(submit deadline_cut --deadline="$(date -d '+110 sec' +%Y-%m-%dT%H:%M:%S)" deadline_cut.sbatch)
add_row deadline_cut "$DLCUT" TIMEOUT time_limit
wait_gone "$OVR" "$DLCUT"
# accounting is written asynchronously: wait until sacct has every final state
for i in "${!ROW_ID[@]}"; do
  [[ ${ROW_STATE[$i]} == PENDING ]] && continue
  while :; do
    case $(sacct_state "${ROW_ID[$i]}") in
      "" | PENDING | RUNNING | COMPLETING | REQUEUED) ;;
      *) break ;;
    esac
    check_deadline "waiting for sacct to record job ${ROW_ID[$i]}"; sleep 0.5
  done
done
# pending jobs get their final reason once the scheduler has looked at them
for j in "${!WANT_REASON[@]}"; do
  until [[ $(sq_reason "$j") == "${WANT_REASON[$j]}" ]]; do
    [[ $(sq_state "$j") == PENDING ]] || break
    (($(date +%s) < DEADLINE - 10)) || break
    sleep 0.5
  done
done

# ------------------------------------------------------------------ 4. manifest + check
{
  printf 'scenario\tjobid\texpected_state\texpected_kind\tworkdir\n'
  for i in "${!ROW_ID[@]}"; do
    printf '%s\t%s\t%s\t%s\t%s\n' "${ROW_NAME[$i]}" "${ROW_ID[$i]}" "${ROW_STATE[$i]}" "${ROW_KIND[$i]}" "$WORK"
  done
} >"$LAB_STATE/scenarios.tsv.tmp"
mv "$LAB_STATE/scenarios.tsv.tmp" "$LAB_STATE/scenarios.tsv"
cp "$LAB_STATE/scenarios.tsv" "$WORK/scenarios.tsv"

# a maintenance window 30 days ahead, past any job of the lab's partitions (MaxTime 2 h): the real backend reads it
# back with `scontrol show reservation` (RealClusterScenariosTest); an admin's command, run here by the lab, never by
# slurmwise
scontrol delete ReservationName=slurmwise_maint >/dev/null 2>&1 || true
if scontrol create reservation ReservationName=slurmwise_maint StartTime=now+30days Duration=120 Nodes=ALL \
    Flags=MAINT,IGNORE_JOBS Users=root >/dev/null; then
  say "reservation slurmwise_maint: a maintenance window 30 days ahead"
else
  warn "could not create reservation slurmwise_maint: RealClusterScenariosTest's reservation check will fail"
fi

bad=0
{
  printf 'scenario\tjobid\tstate\texit_code\tnodelist\tpending_reason\tok\n'
  for i in "${!ROW_ID[@]}"; do
    id=${ROW_ID[$i]}
    st=- ec=- nl=-
    row=$(sacct -X -n -P -j "$id" -o State,ExitCode,NodeList | head -1) || true
    # a task still waiting in its pending array's row has no row of its own: the array's is its
    [[ -n $row || $id != *_* ]] || row=$(sacct -X -n -P -j "${id%%_*}" -o State,ExitCode,NodeList | head -1) || true
    IFS='|' read -r st ec nl <<<"$row" || true
    reason=$(sq_reason "$id"); reason=${reason:--}
    ok=yes
    [[ ${st%% *} == "${ROW_STATE[$i]}" ]] || ok=no
    [[ -z ${WANT_REASON[$id]:-} || $reason == "${WANT_REASON[$id]}" ]] || ok=no
    [[ $ok == yes ]] || bad=$((bad + 1))
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${ROW_NAME[$i]}" "$id" "$st" "$ec" "$nl" "$reason" "$ok"
  done
} >"$LAB_STATE/observed.tsv"
if command -v column >/dev/null; then column -t -s $'\t' "$LAB_STATE/observed.tsv"; else cat "$LAB_STATE/observed.tsv"; fi

say "manifest: $LAB_STATE/scenarios.tsv (${#ROW_ID[@]} scenarios), observed: $LAB_STATE/observed.tsv"
say "pending jobs left pending on purpose: $(squeue -h -u "$TEST_USER" -t PENDING -o %i | tr '\n' ' ')"
if ((bad)); then
  if [[ -n ${LENIENT:-} ]]; then warn "$bad scenario(s) differ from the expectation (LENIENT=1: exit 0)"
  else die "$bad scenario(s) differ from the expectation: see the 'ok' column above"; fi
fi
say "all scenarios as expected, done in $(elapsed)s"
