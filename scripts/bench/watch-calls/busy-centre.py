# Writes sacct.psv into the current folder: a busy centre's last two hours, ending now: 3,000 COMPLETED jobs an hour
# (job, .batch, .extern, .0 rows), 30 FAILED an hour, and 1 an hour COMPLETED with its srun step OUT_OF_MEMORY.
# No logs: watch reads none for a completed job. For scripts/bench/watch-calls.sh.
import datetime, random
random.seed(7)
now = datetime.datetime.now().replace(microsecond=0)
H = "JobID|JobName|User|Account|Partition|QOS|State|ExitCode|DerivedExitCode|Submit|Start|End|Elapsed|Timelimit|ReqMem|MaxRSS|AllocCPUS|AllocTRES|NodeList|TotalCPU|ConsumedEnergyRaw|WorkDir|StdOut|StdErr|Reason"
f = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S")
rows = [H]
jid = 500000
for hour in range(2):
    for k in range(3031):
        jid += 1
        end = now - datetime.timedelta(seconds=random.randint(0, 3599) + 3600 * hour)
        start = end - datetime.timedelta(minutes=20)
        kind = "FAILED" if k < 30 else "STEPOOM" if k == 30 else "COMPLETED"
        state, exitc, derived = ("FAILED", "1:0", "1:0") if kind == "FAILED" else ("COMPLETED", "0:0", "0:125" if kind == "STEPOOM" else "0:0")
        common = f"{f(end - datetime.timedelta(minutes=21))}|{f(start)}|{f(end)}|00:20:00|01:00:00"
        rows.append(f"{jid}|job{jid}|u{jid % 50}|acct|cpu|normal|{state}|{exitc}|{derived}|{common}|4G||4|billing=4,cpu=4,mem=4G,node=1|cn001|00:10:00||/tmp|/tmp/{jid}.out|/tmp/{jid}.err|None")
        rows.append(f"{jid}.batch|batch||acct|||{state}|{exitc}||{common}||1G|4|cpu=4,mem=4G,node=1|cn001|00:05:00|||||")
        rows.append(f"{jid}.extern|extern||acct|||COMPLETED|0:0||{common}||1M|4|cpu=4,mem=4G,node=1|cn001|00:00:00|||||")
        s0 = "OUT_OF_MEMORY|0:125" if kind == "STEPOOM" else "COMPLETED|0:0"
        rows.append(f"{jid}.0|step||acct|||{s0}||{common}||3G|4|cpu=4,mem=4G,node=1|cn001|00:05:00|||||")
open("sacct.psv", "w").write("\n".join(rows) + "\n")
print(now, len(rows) - 1, "rows")
