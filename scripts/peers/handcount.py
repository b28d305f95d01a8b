#!/usr/bin/env python3
"""The hand count of the peers' exports, written apart from slurmwise's code, from SLURM's documentation only.

Per file: rows, job rows (a JobID without '.'), step rows, outcomes, CPU- and GPU-hours of ended jobs, the memory
the jobs requested, and jobs that ran with no CPU count. Rules (man sacct, SchedMD commit 2acdf51e9e):
  CPUs    AllocCPUS, or NCPUS (its synonym), else AllocTRES cpu=, else ReqTRES cpu=
  GPUs    AllocTRES gres/gpu=N, else the sum of gres/gpu:<model>=N
  memory  AllocTRES mem=, else ReqTRES mem= (the job's total), else ReqMem: 'n' x nodes, 'c' x CPUs, no suffix
          (21.08+) the total; a bare number is megabytes; 0 is "no value"
  hours   Elapsed x CPUs (GPUs) over ended jobs: completed, failed (FAILED TIMEOUT OUT_OF_MEMORY NODE_FAIL
          BOOT_FAIL DEADLINE), cancelled (CANCELLED REVOKED), preempted
  failed  also a COMPLETED job with a step row in a failed state (its batch script exited 0 after a step failed:
          man sacct, DerivedExitCode "the highest exit code returned by the job's job steps")

    python3 scripts/peers/handcount.py slurmwise-core/src/test/resources/peers/*/*.psv
"""
import re
import sys

UNIT = {"K": 1 / 1024, "M": 1, "G": 1024, "T": 1024 * 1024}
OUTCOME = {"COMPLETED": "completed", "FAILED": "failed", "TIMEOUT": "failed", "OUT_OF_MEMORY": "failed",
           "NODE_FAIL": "failed", "BOOT_FAIL": "failed", "DEADLINE": "failed", "CANCELLED": "cancelled",
           "REVOKED": "cancelled", "PREEMPTED": "preempted", "PENDING": "pending", "REQUEUED": "pending",
           "RUNNING": "running", "SUSPENDED": "running"}
ENDED = {"completed", "failed", "cancelled", "preempted"}


def seconds(t):
    if not t:
        return 0
    days = 0
    if "-" in t:
        d, t = t.split("-", 1)
        days = int(d)
    parts = t.split(":")
    if len(parts) == 3:
        h, m, s = parts
    else:
        h, (m, s) = "0", parts
    return days * 86400 + int(h) * 3600 + int(m) * 60 + float(s)


def tres(s):
    out = {}
    for pair in (s or "").split(","):
        if "=" in pair:
            k, v = pair.split("=", 1)
            out[k.lower()] = v
    return out


def mib(v):
    m = re.fullmatch(r"([0-9.]+)([KMGT]?)", v)
    return float(m.group(1)) * UNIT[m.group(2) or "M"]


def count(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    header = [h.lower() for h in lines[0].split("|")]
    rows = [dict(zip(header, l.split("|"))) for l in lines[1:] if l.strip()]
    jobs = [r for r in rows if "." not in r["jobid"]] if "jobid" in header else []
    # a heterogeneous job's components (1853+0, 1853+1, ...) are one job: counted once, under the worst outcome of
    # its components (failed, else cancelled or preempted, else the first's); every component's hours count
    step_failed = {r["jobid"].split(".")[0] for r in rows if "." in r.get("jobid", "")
                   and OUTCOME.get((r.get("state") or "").split(" ")[0]) == "failed"}

    def outcome(j):
        o = OUTCOME.get((j.get("state") or "").split(" ")[0], "unknown")
        return "failed" if o == "completed" and j["jobid"] in step_failed else o
    groups = {}
    for j in jobs:
        if "+" in j["jobid"]:
            groups.setdefault(j["jobid"].split("+")[0], []).append(j)
    worst = {}
    for base, parts in groups.items():
        os_ = [outcome(p) for p in parts]
        worst[base] = "failed" if "failed" in os_ else next((o for o in os_ if o in ("cancelled", "preempted")), os_[0])
    c = {"rows": len(rows), "records": len(jobs), "jobs": len(jobs) - sum(len(p) - 1 for p in groups.values()),
         "steps": len(rows) - len(jobs), "cpu_h": 0.0, "gpu_h": 0.0, "mem_gib": 0.0, "no_cpus": 0}
    for o in ("completed", "failed", "cancelled", "preempted", "pending", "running", "unknown"):
        c[o] = 0
    for j in jobs:
        at, rt = tres(j.get("alloctres")), tres(j.get("reqtres"))
        cpus = int(j.get("alloccpus") or j.get("ncpus") or 0) or int(at.get("cpu", 0)) or int(rt.get("cpu", 0))
        gpus = int(at["gres/gpu"]) if "gres/gpu" in at else sum(int(v) for k, v in at.items() if k.startswith("gres/gpu:"))
        nodes = max(1, int(at.get("node", 0)) or int(j.get("nnodes") or 0) or int(rt.get("node", 0)))
        base = j["jobid"].split("+")[0]
        o = worst[base] if base in groups else outcome(j)
        if base not in groups or groups[base][0] is j:
            c[o] += 1
        if o in ENDED:
            s = seconds(j.get("elapsed"))
            c["cpu_h"] += s * cpus / 3600
            c["gpu_h"] += s * gpus / 3600
            if s > 0 and cpus == 0:
                c["no_cpus"] += 1
        mem = mib(at["mem"]) if mib(at.get("mem", "0")) > 0 else mib(rt["mem"]) if mib(rt.get("mem", "0")) > 0 else 0
        req = j.get("reqmem") or ""
        if mem == 0 and req and mib(req.rstrip("nc")) > 0:
            mem = mib(req.rstrip("nc")) * (nodes if req.endswith("n") else cpus if req.endswith("c") else 1)
        c["mem_gib"] += mem / 1024
    return c


if __name__ == "__main__":
    for p in sys.argv[1:]:
        c = count(p)
        print(p.split("peers/")[-1], " ".join(f"{k}={round(v, 4) if isinstance(v, float) else v}" for k, v in c.items()))
