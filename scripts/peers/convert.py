#!/usr/bin/env python3
"""Converts other open-source SLURM tools' sacct test fixtures to the mock export format (sacct -P with a header).

Values are copied verbatim; only the framing changes (delimiter to '|', a header line, sacct --parsable's trailing
delimiter dropped, a column the fixture builds in code left out). Each source is read from a git snapshot at a
fixed commit: run with the directory holding the snapshots (owner+name/repo, as `fetch` leaves them):

    python3 scripts/peers/convert.py /work/.mirror slurmwise-core/src/test/resources/peers
"""
import ast
import os
import subprocess
import sys

SOURCES = {
    "hb-jobinfo": ("rug-cit-hpc/hb-jobinfo", "423694bbf1a57e1794c23da6841e42e9d01864f2"),
    "greenalgorithms4hpc": ("GreenAlgorithms/GreenAlgorithms4HPC", "c0f47093b93fedba9891e651659e1957a795c346"),
    "xdmod": ("ubccr/xdmod", "33015b5d1ec986be955ab0ed1c04edfef5e67523"),
    "torchx": ("pytorch/torchx", "b72ba038140b4540e89086de835ba07a57aff657"),
    "reportseff": ("troycomi/reportseff", "7d586b7310db831e063877b6618ddde3f55c1f16"),
    "jobstats": ("PrincetonUniversity/jobstats", "dfc9aa0cebe6054184d0179bf4d483c224a6e669"),
}

# test/data/README.md of hb-jobinfo: the --format its dump was made with (--parsable --noheader --delimiter=☃)
HB_FIELDS = ("JobID,JobName,User,Partition,NodeList,NNodes,NCPUs,NTasks,State,Submit,Start,End,Timelimit,Elapsed,"
             "TotalCPU,CPUTime,UserCPU,SystemCPU,ReqMem,MaxRSS,MaxVMSize,ReqTRES,AllocTRES,TRESUsageInMax,"
             "TRESUsageInTot,TRESUsageOutTot,MaxDiskRead,MaxDiskWrite,MaxRSSNode,MaxRSSTask,MaxVMSizeNode,"
             "MaxVMSizeTask,MaxDiskReadNode,MaxDiskReadTask,MaxDiskWriteNode,MaxDiskWriteTask,Comment").split(",")
# classes/OpenXdmod/Shredder/Slurm.php $fieldNames, as sacct names
XDMOD_FIELDS = ["JobID", "JobIDRaw", "Cluster", "Partition", "QOS", "Account", "Group", "GID", "User", "UID",
                "Submit", "Eligible", "Start", "End", "Elapsed", "ExitCode", "State", "NNodes", "NCPUS", "ReqCPUS",
                "ReqMem", "ReqTRES", "AllocTRES", "Timelimit", "NodeList", "JobName"]
# reportseff tests/conftest.py to_sacct_dict columns; AdminComment (a jobstats blob the test builds in code) left out
REPORTSEFF_FIELDS = ["AllocCPUS", "Elapsed", "JobID", "JobIDRaw", "MaxRSS", "NNodes", "ReqMem", "State",
                     "Timelimit", "TotalCPU", "NTasks"]


def show(mirror, project, path):
    repo, commit = SOURCES[project]
    d = os.path.join(mirror, repo.replace("/", "+"), "repo")
    return subprocess.run(["git", "-C", d, "show", commit + ":" + path], check=True, capture_output=True).stdout.decode("utf-8")


def write(out, project, name, header, rows, note=None):
    os.makedirs(os.path.join(out, project), exist_ok=True)
    for r in rows:
        assert not any("|" in v for v in r), (project, r)
        assert len(r) == len(header), (project, len(r), len(header), r)
    with open(os.path.join(out, project, name), "w", encoding="utf-8", newline="\n") as f:
        f.write("|".join(header) + "\n")
        for r in rows:
            f.write("|".join(r) + "\n")
    print(f"{project}/{name}: {len(rows)} rows" + (f" ({note})" if note else ""))


def hb_jobinfo(mirror, out):
    text = show(mirror, "hb-jobinfo", "test/data/sacct.txt")
    rows = []
    for line in text.splitlines():
        assert line.endswith("☃"), line  # --parsable ends each line with the delimiter; -P does not
        rows.append(line[:-1].split("☃"))
    write(out, "hb-jobinfo", "sacct.psv", HB_FIELDS, rows)


def green(mirror, out):
    text = show(mirror, "greenalgorithms4hpc", "example_files/example_sacctOutput_raw.txt")
    lines = text.splitlines()
    write(out, "greenalgorithms4hpc", "sacct.psv", lines[0].split("|"), [l.split("|") for l in lines[1:]])


def xdmod(mirror, out):
    base = "tests/artifacts/xdmod/unit/shredder/slurm/input/"
    for name in ["accounting-logs", "accounting-logs-with-job-arrays", "non-ended-job-state", "unknown-job-state",
                 "utf8-multibyte-chars"]:
        text = show(mirror, "xdmod", base + name + ".log")
        write(out, "xdmod/" + name, "sacct.psv", XDMOD_FIELDS, [l.split("|") for l in text.splitlines() if l])
    script = show(mirror, "xdmod", "tests/component/scripts/sacct")
    line = [l for l in script.splitlines() if l.strip().startswith("echo '4103947_100")][0]
    value = line.strip()[len("echo '"):-1]
    write(out, "xdmod/helper-valid-output", "sacct.psv", XDMOD_FIELDS, [value.split("|")])


def string_constants(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


def torchx(mirror, out):
    tree = ast.parse(show(mirror, "torchx", "torchx/schedulers/test/slurm_scheduler_test.py"))
    header = None
    rows = []
    for s in string_constants(tree):
        t = s.strip()
        if t.startswith("JobID|JobName"):
            lines = [l.strip() for l in t.splitlines() if l.strip()]
            header = header or lines[0].split("|")
            assert lines[0].split("|") == header
            rows += [l.split("|") for l in lines[1:]]
    write(out, "torchx", "sacct.psv", header, rows)


def reportseff(mirror, out):
    tree = ast.parse(show(mirror, "reportseff", "tests/conftest.py"))
    rows = []
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "to_sacct_dict":
                arg = node.args[0]
                if isinstance(arg, ast.JoinedStr):  # f"{comment}|..." : the blob is built in code
                    assert isinstance(arg.values[0], ast.FormattedValue)
                    text = "".join(v.value for v in arg.values[1:])
                else:
                    text = arg.value
                fields = text.split("|")[1:]  # AdminComment left out
                fields += [""] * (len(REPORTSEFF_FIELDS) - len(fields))  # zip(strict=False): a missing NTasks
                rows.append(fields)
        if fn.name == "console_jobs":
            console = ast.literal_eval(fn.body[-1].value)
    write(out, "reportseff/conftest", "sacct.psv", REPORTSEFF_FIELDS, rows)
    # console_jobs: sacct --parsable -n --delimiter=^|^ with reportseff's sorted column set; with and without Timelimit
    short = ["AllocCPUS", "Elapsed", "JobID", "JobIDRaw", "MaxRSS", "NNodes", "NTasks", "ReqMem", "State", "TotalCPU"]
    long = short[:9] + ["Timelimit", "TotalCPU"]
    by_width = {len(short): [], len(long): []}
    for key, text in console.items():
        for line in text.splitlines():
            f = line.split("^|^")
            assert f[-1] == "" and f[0] == "", line
            f = f[1:-1]  # AdminComment (empty) and --parsable's trailing delimiter
            by_width[len(f)].append(f)
    write(out, "reportseff/console-jobs", "sacct.psv", short, by_width[len(short)])
    write(out, "reportseff/console-jobs-timelimit", "sacct.psv", long, by_width[len(long)])


def jobstats(mirror, out):
    # tests/test_jobstats.py's cols line, AdminComment (a blob the test builds in code) left out
    header = ["JobIDRaw", "Start", "End", "Cluster", "AllocTRES", "User", "Account", "State", "NNodes", "NCPUS",
              "ReqMem", "QOS", "Partition", "TimelimitRaw", "JobName"]
    rows = []
    for path in ["tests/test_jobstats.py", "tests/test_output_formatters.py"]:
        tree = ast.parse(show(mirror, "jobstats", path))
        for s in string_constants(tree):
            if s.startswith("JobIDRaw|Start|End"):
                assert [h for h in s.strip().split("|") if h != "AdminComment"] == header, s
        for node in ast.walk(tree):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
                    and isinstance(node.left.value, str) and "|%s|" in node.left.value:
                f = node.left.value.strip().split("|")
                f.remove("%s")
                if f not in rows:  # the same row serves several of its tests
                    rows.append(f)
    write(out, "jobstats", "sacct.psv", header, rows)


if __name__ == "__main__":
    mirror, out = sys.argv[1], sys.argv[2]
    for f in (hb_jobinfo, green, xdmod, torchx, reportseff, jobstats):
        f(mirror, out)
