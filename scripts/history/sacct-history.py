#!/usr/bin/env python3
"""A busy centre's accounting history as `sacct -P -D` prints it, for measuring slurmwise's analytics from outside.

Writes the fields the real backend asks sacct for on SLURM 22.05 (SacctReader.FIELDS without StdOut/StdErr, in that
order, header first) and, with --truth, what a centre expects the analytics to say, counted here from the generator's
own model of every job (never by reading the text back):

- one job = its allocation record and its steps (.batch, .extern, .0, .1 ...; a step's AllocTRES may repeat the job's
  GPUs, and steps never add hours to their job);
- array jobs: tasks `A_7` (each task is a job) and a never-started remainder `A_[8-500]` (pending, or cancelled at
  once), which counts as its tasks;
- requeued jobs (`-D`): earlier runs REQUEUED / PREEMPTED / NODE_FAIL, then the last run (completed, failed, or
  pending again): one job with the last run's outcome, the earlier runs' hours interrupted time, never waste;
- heterogeneous jobs `H+0`, `H+1`: one job under its worst outcome, each component's hours on its own partition;
- jobs RUNNING (End Unknown) and PENDING (Start and End Unknown) at the export's end: not ended, not failures;
- COMPLETED jobs whose `srun` step ran out of memory: failed (what `jobs` marks COMPLETED*);
- GPUs as `gres/gpu=4` and `gres/gpu:a100=4` (typed and untyped entries of the same GPUs, as SLURM writes both);
- times in the --tz zone as sacct prints them (local wall clock), jobs across midnight and across a DST change
  (Elapsed is the true duration, End - Start on the wall clock differs by the hour; in autumn End may be before
  Start); a record whose Elapsed sacct left empty is read in the zone slurmwise runs in, so run it with TZ=--tz
  (sacct and slurmwise on the same login node share it);
- missing and zero fields (empty AllocCPUS with `cpu=` in AllocTRES; neither; zero Elapsed), huge node counts.

The truth is the tool's documented rules (README "Stats: what failures cost"): failed = FAILED, TIMEOUT,
OUT_OF_MEMORY, NODE_FAIL, BOOT_FAIL, DEADLINE (and COMPLETED*), cancelled/preempted apart; wasted GPU-hours = a
failed job's GPUs x Elapsed; a job is dated on the local day it ended (running: started; pending: submitted).

Usage: scripts/history/sacct-history.py OUT.psv [--jobs 200000] [--days 36] [--start 2026-03-12] [--seed 39]
       [--tz Europe/Berlin] [--truth OUT.truth.json]
"""
import argparse
import json
import random
import sys
from collections import defaultdict
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

FIELDS = ["JobID", "JobName", "User", "Account", "Partition", "QOS", "State", "ExitCode", "DerivedExitCode",
          "Submit", "Start", "End", "Elapsed", "Timelimit", "ReqMem", "MaxRSS", "AllocCPUS", "AllocTRES", "ReqTRES",
          "NodeList", "TotalCPU", "ConsumedEnergyRaw", "WorkDir", "Reason"]
FAILED = {"FAILED", "TIMEOUT", "OUT_OF_MEMORY", "NODE_FAIL", "BOOT_FAIL", "DEADLINE"}
# partition: (GPU type or None, GPUs per node, cores per node, node prefix)
PARTITIONS = {"cpu": (None, 0, 128, "c"), "long": (None, 0, 64, "l"), "gpuA100x4": ("a100", 4, 64, "ga"),
              "gpuH100x8": ("h100", 8, 96, "gh"), "debug": (None, 0, 32, "d")}
GPU_WATTS = {"a100": 400.0, "h100": 700.0, None: 400.0}
CPU_WATTS = 15.0


def hms(seconds):
    d, r = divmod(int(seconds), 86400)
    h, r = divmod(r, 3600)
    m, s = divmod(r, 60)
    return (f"{d}-" if d else "") + f"{h:02d}:{m:02d}:{s:02d}"


class Gen:
    def __init__(self, args):
        self.r = random.Random(args.seed)
        self.tz = ZoneInfo(args.tz)
        self.t0 = datetime.fromisoformat(args.start).replace(tzinfo=self.tz).astimezone(timezone.utc)
        self.span = args.days * 86400
        self.now = self.t0 + timedelta(seconds=self.span)  # the export's moment: later jobs run or wait
        self.users = [f"u{i:03d}" for i in range(args.users)]
        self.next_id = 4_000_000
        self.rows = 0
        self.t = Truth()

    def local(self, t):
        return t.astimezone(self.tz).strftime("%Y-%m-%dT%H:%M:%S")

    def day(self, t):
        return t.astimezone(self.tz).strftime("%Y-%m-%d")

    def new_id(self):
        self.next_id += self.r.randint(1, 3)
        return self.next_id


class Truth:
    def __init__(self):
        self.total = defaultdict(int)
        self.by = {"partition": defaultdict(lambda: defaultdict(int)), "user": defaultdict(lambda: defaultdict(int)),
                   "day": defaultdict(lambda: defaultdict(int))}
        self.by_state = defaultdict(int)

    def job(self, outcome, user, partitions, day, never_started=False):
        for c in [self.total, self.by["user"][user], self.by["day"][day]] + [self.by["partition"][p] for p in
                                                                             set(partitions)]:
            c["jobs"] += 1
            c[outcome] += 1
            if never_started:
                c["never_started"] += 1

    def hours(self, what, user, partition, day, gpu_s, cpu_s, joules):
        for c in (self.total, self.by["user"][user], self.by["day"][day], self.by["partition"][partition]):
            c[what + "_gpu_seconds"] += gpu_s
            c[what + "_cpu_seconds"] += cpu_s
            c[what + "_joules"] += joules


def outcome_of(state):
    s = state.split(" ")[0]
    if s in FAILED:
        return "failed"
    if s in ("CANCELLED", "REQUEUED"):
        return "cancelled"
    return {"COMPLETED": "completed", "PREEMPTED": "preempted", "RUNNING": "running", "PENDING": "pending"}[s]


def write(g, out, **kv):
    row = [kv.get(f, "") for f in FIELDS]
    out.write("|".join(str(v) for v in row))
    out.write("\n")
    g.rows += 1


def alloc(part, nodes, cpus, gpus, typed, mem_gb):
    gtype = PARTITIONS[part][0]
    tres = f"billing={cpus},cpu={cpus}"
    if gpus:
        tres += f",gres/gpu={gpus}"
        if typed:
            tres += f",gres/gpu:{gtype}={gpus}"
    return tres + f",mem={mem_gb}G,node={nodes}"


def nodelist(part, nodes, r):
    p = PARTITIONS[part][3]
    first = r.randint(1, 400)
    return f"{p}{first:04d}" if nodes == 1 else f"{p}[{first:04d}-{first + nodes - 1:04d}]"


def run_record(g, out, jid, name, user, part, state, exitc, submit, start, elapsed, tl, nodes, cpus, gpus, typed,
               mem_gb, *, step_fail=None, elapsed_text=None, allocs="both", end_unknown=False):
    """One run's allocation record and its steps; returns nothing, the truth is the caller's."""
    end = None if end_unknown else start + timedelta(seconds=elapsed)
    tres = alloc(part, nodes, cpus, gpus, typed, mem_gb)
    nl = nodelist(part, nodes, g.r)
    write(g, out, JobID=jid, JobName=name, User=user, Account="lab" + user[-1], Partition=part, QOS="normal",
          State=state, ExitCode=exitc, DerivedExitCode="0:0", Submit=g.local(submit), Start=g.local(start),
          End="Unknown" if end is None else g.local(end),
          Elapsed=hms(elapsed) if elapsed_text is None else elapsed_text, Timelimit=hms(tl), ReqMem=f"{mem_gb}G",
          AllocCPUS=cpus if allocs in ("both", "cpus") else "",
          AllocTRES=tres if allocs in ("both", "tres") else (tres.replace(f"billing={cpus},cpu={cpus},", "")
                                                              if allocs == "none" else ""),
          ReqTRES=tres.replace(f"billing={cpus},", "").replace(f"cpu={cpus},", "" if allocs == "none" else f"cpu={cpus},"),
          NodeList=nl,
          TotalCPU=hms(elapsed * cpus * g.r.uniform(0.05, 0.95)) if state == "COMPLETED" else hms(elapsed // 3),
          WorkDir=f"/home/{user}/w{g.r.randint(1, 9)}", Reason="None")
    step_state = "RUNNING" if end is None else ("CANCELLED" if state in ("TIMEOUT", "PREEMPTED", "REQUEUED",
                                                                          "NODE_FAIL") else state.split(" ")[0])
    step_tres = f"cpu={cpus},mem={mem_gb}G,node={nodes}" + (f",gres/gpu={gpus}" if gpus else "")
    steps = [("batch", "batch", step_state, "0:15" if step_state == "CANCELLED" else exitc, 1)]
    steps.append(("extern", "extern", "RUNNING" if end is None else "COMPLETED", "0:0", nodes))
    for k in range(g.r.choice((0, 0, 1, 2, 3))):
        steps.append((str(k), "python", step_state if k == 0 else ("RUNNING" if end is None else "COMPLETED"),
                      exitc if k == 0 else "0:0", nodes))
    if step_fail:
        steps.append((str(len(steps) - 2), "python", step_fail, "0:125", nodes))
    for sid, sname, sst, sexit, snodes in steps:
        sstart = start + timedelta(seconds=min(elapsed, 1 if sid not in ("batch", "extern") else 0))
        write(g, out, JobID=f"{jid}.{sid}", JobName=sname, State=sst, ExitCode=sexit, Submit=g.local(sstart),
              Start=g.local(sstart), End="Unknown" if end is None else g.local(end),
              Elapsed=hms(max(0, (end - sstart).total_seconds())) if end is not None else hms(elapsed),
              MaxRSS=f"{g.r.randint(1000, mem_gb * 900000)}K" if sst != "RUNNING" else "",
              AllocCPUS=cpus, AllocTRES=step_tres, NodeList=nl, TotalCPU=hms(elapsed // 4),
              ConsumedEnergyRaw="0" if g.r.random() < 0.5 else "")


def shape(g, part):
    gtype, gpn, cpn, _ = PARTITIONS[part]
    r = g.r
    nodes = 1 if r.random() < 0.85 else r.choice((2, 4, 8, 16))
    if r.random() < 0.0005:
        nodes = r.choice((1024, 2048, 4096))  # a capability run across a large part of the machine
    gpus = nodes * r.choice((1, 2, gpn)) if gpn else 0
    cpus = nodes * r.choice((1, 4, 16, cpn))
    return nodes, cpus, gpus, r.random() < 0.5, r.choice((4, 8, 32, 128)) * nodes


def joules(gpus, gtype, cpus, seconds, typed=True):
    """Estimated energy with the default model: an untyped gres/gpu names no model, so 400 W."""
    return (gpus * GPU_WATTS[gtype if typed else None] + cpus * CPU_WATTS) * seconds


def final_state(r):
    x = r.random()
    for p, s in ((0.62, "COMPLETED"), (0.72, "FAILED"), (0.78, "TIMEOUT"), (0.82, "OUT_OF_MEMORY"),
                 (0.835, "NODE_FAIL"), (0.84, "BOOT_FAIL"), (0.92, "CANCELLED by {uid}"), (0.95, "PREEMPTED")):
        if x < p:
            return s
    return "COMPLETED_STEP_OOM" if x < 0.96 else "COMPLETED"


EXITS = {"FAILED": ("1:0", "2:0", "0:11", "127:0", "0:9"), "TIMEOUT": ("0:0",), "OUT_OF_MEMORY": ("0:125",),
         "NODE_FAIL": ("0:0",), "BOOT_FAIL": ("0:0",), "PREEMPTED": ("0:0",), "COMPLETED": ("0:0",)}


def one_job(g, out, jid, user, part, submit):
    """An ordinary job, sometimes requeued (-D: several runs), running or pending at the export's end."""
    r = g.r
    nodes, cpus, gpus, typed, mem = shape(g, part)
    gtype = PARTITIONS[part][0]
    tl = r.choice((3600, 4 * 3600, 12 * 3600, 86400, 2 * 86400))
    runs = 1 if r.random() < 0.97 else r.randint(2, 4)
    start = submit + timedelta(seconds=r.randint(0, 7200))
    for k in range(runs - 1):  # earlier runs: hours interrupted, never waste, no job of their own
        el = r.randint(60, tl // 2)
        if start + timedelta(seconds=el) >= g.now:
            break
        st = r.choice(("REQUEUED", "PREEMPTED", "NODE_FAIL"))
        run_record(g, out, jid, "train", user, part, st, "0:0", submit, start, el, tl, nodes, cpus, gpus, typed, mem)
        g.t.hours("interrupted", user, part, g.day(start + timedelta(seconds=el)), gpus * el, cpus * el,
                  joules(gpus, gtype, cpus, el, typed))
        g.t.total["requeued_runs"] += 1
        start = start + timedelta(seconds=el + r.randint(60, 3600))
    if start >= g.now or r.random() < 0.004:  # pending at the export's end (after a requeue, or never started)
        write(g, out, JobID=jid, JobName="train", User=user, Account="lab" + user[-1], Partition=part, QOS="normal",
              State="PENDING", ExitCode="0:0", DerivedExitCode="0:0", Submit=g.local(submit), Start="Unknown",
              End="Unknown", Elapsed="00:00:00", Timelimit=hms(tl), ReqMem=f"{mem}G", AllocCPUS="0",
              ReqTRES=alloc(part, nodes, cpus, gpus, typed, mem).replace(f"billing={cpus},", ""),
              NodeList="None assigned", TotalCPU="00:00:00", WorkDir=f"/home/{user}", Reason="None")
        g.t.job("pending", user, [part], g.day(submit))
        return
    state = final_state(r)
    el = r.randint(0, tl) if state != "TIMEOUT" else tl + r.randint(0, 90)
    if start + timedelta(seconds=el) >= g.now:  # still running at the export's end
        el = int((g.now - start).total_seconds())
        run_record(g, out, jid, "train", user, part, "RUNNING", "0:0", submit, start, el, tl, nodes, cpus, gpus,
                   typed, mem, end_unknown=True)
        g.t.job("running", user, [part], g.day(start))
        return
    step_fail = None
    if state == "COMPLETED_STEP_OOM":
        state, step_fail = "COMPLETED", "OUT_OF_MEMORY"
    state = state.format(uid=1000 + r.randint(0, 50))
    elapsed_text, allocs = None, "both"
    x = r.random()
    if x < 0.01 and state != "COMPLETED":
        elapsed_text = ""  # sacct left Elapsed empty: End - Start in the zone (slurmwise must run in --tz)
    elif x < 0.02:
        allocs = "tres"  # AllocCPUS empty, cpu= in AllocTRES
    elif x < 0.022:
        allocs = "none"  # neither: 0 CPU-hours, counted as without a CPU count
    exitc = r.choice(EXITS.get(state.split(" ")[0], ("0:0",)))
    run_record(g, out, jid, "train", user, part, state, exitc, submit, start, el, tl, nodes, cpus, gpus, typed, mem,
               step_fail=step_fail, elapsed_text=elapsed_text, allocs=allocs)
    end = start + timedelta(seconds=el)
    outcome = "failed" if step_fail else outcome_of(state)
    g.t.job(outcome, user, [part], g.day(end))
    g.t.by_state[step_fail or state.split(" ")[0]] += 1
    c = 0 if allocs == "none" else cpus
    if allocs == "none":
        g.t.total["jobs_without_cpu_count"] += 1
    if outcome == "failed":
        g.t.hours("wasted", user, part, g.day(end), gpus * el, c * el, joules(gpus, gtype, c, el, typed))
    elif outcome in ("cancelled", "preempted"):
        g.t.hours("interrupted", user, part, g.day(end), gpus * el, c * el, joules(gpus, gtype, c, el, typed))


def array_job(g, out, user, part, submit):
    r = g.r
    aid = g.new_id()
    size = r.choice((5, 20, 100, 500))
    ran = size if r.random() < 0.8 else r.randint(0, size)
    if submit + timedelta(days=2) > g.now:
        ran = min(ran, size // 2)
    for i in range(1, ran + 1):
        g.next_id += 1
        one_job(g, out, f"{aid}_{i}", user, part, submit + timedelta(seconds=i * r.randint(0, 30)))
    if ran < size:  # the never-started remainder: one range row
        rest = size - ran
        cancel = r.random() < 0.3 and submit + timedelta(hours=1) < g.now
        nodes, cpus, gpus, typed, mem = 1, 4, PARTITIONS[part][1] and 1, False, 8
        rng = f"{aid}_[{ran + 1}-{size}]" if rest > 1 else f"{aid}_{size}"
        end = submit + timedelta(minutes=30)
        write(g, out, JobID=rng, JobName="sweep", User=user, Account="lab" + user[-1], Partition=part, QOS="normal",
              State=f"CANCELLED by {1000 + r.randint(0, 50)}" if cancel else "PENDING", ExitCode="0:0",
              DerivedExitCode="0:0", Submit=g.local(submit), Start="None" if cancel else "Unknown",
              End=g.local(end) if cancel else "Unknown", Elapsed="00:00:00", Timelimit="1-00:00:00",
              ReqMem="8G", AllocCPUS="0",
              ReqTRES=alloc(part, nodes, cpus, gpus, typed, mem).replace(f"billing={cpus},", ""),
              NodeList="None assigned", TotalCPU="00:00:00", WorkDir=f"/home/{user}", Reason="None")
        for _ in range(rest):
            if cancel:
                g.t.job("cancelled", user, [part], g.day(end), never_started=True)
            else:
                g.t.job("pending", user, [part], g.day(submit))
        g.t.total["array_range_rows"] += 1
    g.t.total["arrays"] += 1


def het_job(g, out, user, submit):
    r = g.r
    hid = g.new_id()
    start = submit + timedelta(seconds=r.randint(0, 600))
    el = r.randint(60, 6 * 3600)
    if start + timedelta(seconds=el) >= g.now:
        start, el = g.now - timedelta(days=2), 3600
    end = start + timedelta(seconds=el)
    failed = r.random() < 0.3
    comps = [("cpu", 1, 16, 0), ("gpuA100x4", 1, 8, 4)]
    for k, (part, nodes, cpus, gpus) in enumerate(comps):
        st = "FAILED" if failed and k == 1 else "COMPLETED"
        run_record(g, out, f"{hid}+{k}", "coupled", user, part, st, "1:0" if st == "FAILED" else "0:0", submit,
                   start, el, 86400, nodes, cpus, gpus, True, 32)
    outcome = "failed" if failed else "completed"
    g.t.job(outcome, user, [p for p, *_ in comps], g.day(end))
    g.t.by_state["FAILED" if failed else "COMPLETED"] += 1
    for part, nodes, cpus, gpus in comps:
        if failed:
            g.t.hours("wasted", user, part, g.day(end), gpus * el, cpus * el,
                      joules(gpus, PARTITIONS[part][0], cpus, el))
    g.t.total["het_jobs"] += 1


def dst_jobs(g, out):
    """Jobs across the zone's clock changes in the window (and across midnight), failed so that their hours show."""
    t = g.t0
    while t < g.now:
        nxt = t + timedelta(hours=1)
        if g.tz.utcoffset(t.astimezone(g.tz).replace(tzinfo=None)) != \
                g.tz.utcoffset(nxt.astimezone(g.tz).replace(tzinfo=None)):
            for k in range(3):
                user = g.users[k]
                jid = str(g.new_id())
                start = t - timedelta(hours=2 + k)
                el = (4 + 2 * k) * 3600
                run_record(g, out, jid, "dst", user, "gpuA100x4", "TIMEOUT", "0:0", start, start, el, el, 1, 8, 2,
                           False, 32)
                end = start + timedelta(seconds=el)
                g.t.job("failed", user, ["gpuA100x4"], g.day(end))
                g.t.by_state["TIMEOUT"] += 1
                g.t.hours("wasted", user, "gpuA100x4", g.day(end), 2 * el, 8 * el, joules(2, "a100", 8, el, False))
                g.t.total["dst_jobs"] += 1
        t = nxt


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--jobs", type=int, default=200_000, help="about this many jobs (array tasks each count)")
    ap.add_argument("--days", type=int, default=36)
    ap.add_argument("--start", default="2026-03-12T00:00:00", help="local start of the history (--tz)")
    ap.add_argument("--tz", default="Europe/Berlin", help="the zone sacct printed its times in")
    ap.add_argument("--users", type=int, default=400)
    ap.add_argument("--seed", type=int, default=39)
    ap.add_argument("--truth", help="write the expected figures (JSON) here")
    args = ap.parse_args()
    g = Gen(args)
    parts = list(PARTITIONS)
    weights = [40, 10, 25, 10, 15]
    with open(args.out, "w", buffering=1 << 20) as out:
        out.write("|".join(FIELDS) + "\n")
        dst_jobs(g, out)
        while g.t.total["jobs"] < args.jobs:
            # submissions spread evenly over the whole span, at the pace of the jobs asked for (an array of 500
            # tasks takes the time of 500 jobs), so that the last ones still run or wait at the export's end
            done = g.t.total["jobs"] / args.jobs
            t = g.t0 + timedelta(seconds=done * (g.span - 900) + g.r.uniform(0, 600))
            user = g.users[int(len(g.users) * g.r.random() ** 3)]  # a few heavy users, a long tail
            x = g.r.random()
            if x < 0.015:
                array_job(g, out, user, g.r.choices(parts, weights)[0], t)
            elif x < 0.017:
                het_job(g, out, user, t)
            else:
                one_job(g, out, str(g.new_id()), user, g.r.choices(parts, weights)[0], t)
    if args.truth:
        tr = g.t
        tr.total["rows"] = g.rows
        doc = {"total": tr.total, "by_state": tr.by_state,
               **{"by_" + k: {key: dict(v) for key, v in sorted(d.items())} for k, d in tr.by.items()}}
        with open(args.truth, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
    print(f"{args.out}: {g.rows} rows, {g.t.total['jobs']} jobs", file=sys.stderr)


if __name__ == "__main__":
    main()
