#!/usr/bin/env python3
"""Compare `slurmwise stats --input EXPORT --json` with the truth sacct-history.py counted from its own model.

Usage: scripts/history/check-truth.py STATS.json TRUTH.json [STATS.txt]   (exit 1 and the differences if any)
With the text panel (COLUMNS=80) too: every line fits 80 columns and its headline figures are the JSON's.
"""
import json
import re
import sys

COUNTS = ["jobs", "completed", "failed", "cancelled", "preempted", "pending", "running", "never_started"]
HOURS = {"wasted_gpu_hours": "wasted_gpu_seconds", "wasted_cpu_hours": "wasted_cpu_seconds",
         "interrupted_gpu_hours": "interrupted_gpu_seconds", "interrupted_cpu_hours": "interrupted_cpu_seconds"}
KWH = {"wasted_energy_kwh_estimated": "wasted_joules", "interrupted_energy_kwh_estimated": "interrupted_joules"}


def compare(where, got, want, diffs, hours=True):
    for k in COUNTS:
        if got.get(k, 0) != want.get(k, 0):
            diffs.append(f"{where}: {k} {got.get(k)} != {want.get(k, 0)}")
    if not hours:
        return
    for k, t in HOURS.items():
        if abs(got.get(k, 0) - want.get(t, 0) / 3600) > 1e-6 * max(1, want.get(t, 0) / 3600):
            diffs.append(f"{where}: {k} {got.get(k)} != {want.get(t, 0) / 3600}")
    for k, t in KWH.items():
        if abs(got.get(k, 0) - want.get(t, 0) / 3.6e6) > 1e-6 * max(1, want.get(t, 0) / 3.6e6):
            diffs.append(f"{where}: {k} {got.get(k)} != {want.get(t, 0) / 3.6e6}")


def text_diffs(text, stats, diffs):
    """The panel's headline figures (answer first) against the JSON's, as the panel rounds them."""
    for n, line in enumerate(text.splitlines(), 1):
        if len(line) > 80:
            diffs.append(f"text line {n} is {len(line)} columns: {line}")
    flat = re.sub(r"\s*\n[│ ]\s+", " ", text).replace(",", "")  # lines joined, thousands ungrouped
    t = stats["total"]
    want = {
        r"(\d+) ended: (\d+) completed (\d+) failed (\d+) cancelled (\d+) preempted · (\d+) pending (\d+) running":
            [t["ended"], t["completed"], t["failed"], t["cancelled"], t["preempted"], t["pending"], t["running"]],
        r"(\d+)% failure rate \((\d+) of (\d+) ended jobs (\d+) never":
            [100 * t["failure_rate"], t["failed"], t["ended"], t["never_started"]],
        r"([\d.]+) wasted GPU-hours \((\d+)% of ended jobs' GPU-hours\) · ([\d.]+) CPU-hours of failed":
            [t["wasted_gpu_hours"], 100 * t["wasted_gpu_hours"] / t["used_gpu_hours"], t["wasted_cpu_hours"]],
        r"([\d.]+) kWh \(~([\d.]+) kg CO2e\) wasted by failed jobs":
            [t["wasted_energy_kwh_estimated"], t["wasted_co2e_kg_estimated"]],
    }
    for pattern, values in want.items():
        m = re.search(pattern, flat)
        if not m:
            diffs.append(f"text: no match for {pattern}")
            continue
        got = [float(g) for g in m.groups()]
        # as printed: within half a unit of the last digit shown
        half = [0.5 * 10 ** -len(g.partition(".")[2]) + 1e-9 for g in m.groups()]
        if any(abs(g - w) > h for g, w, h in zip(got, values, half)):
            diffs.append(f"text: {m.group(0)} says {got}, the JSON {values}")


def main():
    stats, truth = (json.load(open(a)) for a in sys.argv[1:3])
    diffs = []
    compare("total", stats["total"], truth["total"], diffs)
    if stats["jobs_without_cpu_count"] != truth["total"].get("jobs_without_cpu_count", 0):
        diffs.append(f"jobs_without_cpu_count {stats['jobs_without_cpu_count']} != "
                     f"{truth['total'].get('jobs_without_cpu_count', 0)}")
    for dim in ("partition", "user", "day"):
        got = {b["key"]: b for b in stats["by_" + dim]}
        want = truth["by_" + dim]
        for key in sorted(set(got) | set(want)):
            g, w = got.get(key, {}), want.get(key, {})
            if not w and not any(g.get(k, 0) for k in COUNTS):
                continue  # a day row without jobs (the by-day rows fill every day)
            # interrupted hours of a requeued job's earlier run are dated by that run: compare counts and waste by day
            compare(f"by_{dim} {key}", g, w, diffs, hours=True)
    if len(sys.argv) > 3:
        text_diffs(open(sys.argv[3], encoding="utf-8").read(), stats, diffs)
    print(f"{len(diffs)} differences")
    for d in diffs[:60]:
        print("  " + d)
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
