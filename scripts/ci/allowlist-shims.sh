#!/usr/bin/env bash
# The read-only promise proved from outside: runs a command (e.g. the CLI test suites) with a recording shim for
# every SLURM command first on PATH, then fails if anything but sacct, scontrol show ... / write batch_script /
# --version, sinfo, squeue, sacctmgr's QOS read (-n -P show qos format=Name,MaxWall,Preempt) and association read
# (-n -P show assoc where user=NAME format=Account,User,Partition,QOS) or sshare's one account read ran.
#
#   scripts/ci/allowlist-shims.sh ./mvnw -B verify -pl slurmwise-cli -am -Dsurefire.groups= -Dsurefire.excludedGroups=browser,fuzz
#
# Calls of the test harness itself (LabCluster sets SLURMWISE_TEST_HARNESS on its own processes: scontrol ping,
# daemon-ctl.sh) are logged with a [harness] mark and not checked.
#
# Each shim appends its name and arguments (one line, shell-quoted) to the log, then execs the real command found
# further on PATH; where there is none it answers as a missing command does (127). The log is kept in
# $ALLOWLIST_LOG (default: a temporary file, printed at the end). Exit: the command's code if it failed, 1 if a
# forbidden command ran, else 0.
set -uo pipefail

if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi

# every client program SLURM installs (and the daemons): whatever the tool could ever start
tools=(sacct sacctmgr salloc sattach sbatch sbcast scancel scontrol scrontab scrun sdiag seff sgather sh5util
  sinfo sjobexitmod sjstat smail smap sprio squeue sreport srun sshare sstat strigger sview
  slurmctld slurmd slurmdbd slurmrestd slurmstepd sackd)

shim_dir="$(mktemp -d /tmp/slurmwise-shims.XXXXXX)"
log="${ALLOWLIST_LOG:-$shim_dir/calls.log}"
: > "$log"
trap 'rm -rf "$shim_dir/bin"' EXIT
mkdir -p "$shim_dir/bin"

for t in "${tools[@]}"; do
  cat > "$shim_dir/bin/$t" <<SHIM
#!/usr/bin/env bash
# recording shim (scripts/ci/allowlist-shims.sh): log, then run the real $t if there is one
line="\$(printf '%q ' "$t" "\$@")"
# the test harness's own calls (LabCluster: scontrol ping, daemon restarts) carry this mark; slurmwise's never do
printf '%s%s\n' "\${SLURMWISE_TEST_HARNESS:+[harness] }" "\${line% }" >> '$log'
IFS=: read -r -a dirs <<< "\$PATH"
for d in "\${dirs[@]}"; do
  if [ -n "\$d" ] && [ "\$d" != '$shim_dir/bin' ] && [ -x "\$d/$t" ] && [ ! -d "\$d/$t" ]; then
    exec "\$d/$t" "\$@"
  fi
done
echo "$t: command not found" >&2
exit 127
SHIM
  chmod +x "$shim_dir/bin/$t"
done

PATH="$shim_dir/bin:$PATH" "$@"
code=$?

# the allowlist: what the real backend may run (see slurmwise-backend-real AllowlistTest)
allowed() {
  local tool="$1" first="${2:-}" second="${3:-}"
  case "$tool" in
    sacct | sinfo | squeue) return 0 ;;
    scontrol)
      [ "$first" = show ] && return 0
      [ "$first" = --version ] && return 0
      [ "$first" = write ] && [ "$second" = batch_script ] && return 0
      return 1 ;;
    sacctmgr)
      # sacctmgr also adds, modifies and deletes: only the exact QOS read, and --version
      shift
      [ "$*" = "-n -P show qos format=Name,MaxWall,Preempt" ] && return 0
      # a user's associations and their QOSes: one user by name
      [ $# -eq 7 ] && [ "$1 $2 $3 $4 $5" = "-n -P show assoc where" ] && [ "$7" = "format=Account,User,Partition,QOS" ] \
        && [[ "$6" =~ ^user=[A-Za-z0-9_][A-Za-z0-9_.@+-]*$ ]] && return 0
      [ "$*" = "--version" ] && return 0
      return 1 ;;
    sshare)
      # an account's allocation and use (sshare only reads): the one form the backend builds, and --version
      shift
      [ $# -eq 6 ] && [ "$1 $2 $3 $4 $5" = "-n -P -o Account,User,GrpTRESMins,GrpTRESRaw,TRESRunMins -A" ] \
        && [[ "$6" =~ ^[A-Za-z0-9_][A-Za-z0-9_.@+-]*$ ]] && return 0
      [ "$*" = "--version" ] && return 0
      return 1 ;;
    *) return 1 ;;
  esac
}

forbidden=0
harness=0
declare -A counts=()
while IFS= read -r line; do
  [ -z "$line" ] && continue
  if [[ "$line" == "[harness] "* ]]; then
    harness=$((harness + 1))
    continue
  fi
  eval "set -- $line"  # the line was written with printf %q: it splits back into the exact argv
  tool="$1"
  shift
  key="$tool"
  [ "$tool" = scontrol ] && key="scontrol ${1:-}${2:+ $2}"
  [ "$tool" = sacctmgr ] && key="sacctmgr ${*}"
  [ "$tool" = sacctmgr ] && [ "${4:-}" = assoc ] && key="sacctmgr ${*:1:5} user=..."
  [ "$tool" = sshare ] && key="sshare ${*:1:5}"
  counts["$key"]=$(( ${counts["$key"]:-0} + 1 ))
  if ! allowed "$tool" "$@"; then
    echo "allowlist: FORBIDDEN: $line" >&2
    forbidden=$((forbidden + 1))
  fi
done < "$log"

total=$(grep -c . "$log" || true)
echo "allowlist: $total SLURM command runs recorded in $log ($harness by the test harness, not checked)"
for k in "${!counts[@]}"; do
  printf '  %6d  %s\n' "${counts[$k]}" "$k"
done | sort -k2
if [ "$code" -ne 0 ]; then
  echo "allowlist: the command itself failed (exit $code)" >&2
  exit "$code"
fi
if [ "$forbidden" -gt 0 ]; then
  echo "allowlist: $forbidden runs of commands outside the allowlist (sacct, scontrol show/write batch_script/--version, sinfo, squeue, sacctmgr show qos/assoc, sshare -A)" >&2
  exit 1
fi
echo "allowlist: only read-only queries ran"
