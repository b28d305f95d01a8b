#!/usr/bin/env python3
"""Extract SLURM's errno strings and job state reason strings from the SchedMD/slurm source.

Writes the list that knowledge/slurm-messages.tsv must cover (knowledge/slurm-source-strings.tsv), one row per
(kind of string, symbol, text), with the release series that contain it.

    # from a clone with its release tags (every series' last release, 22.05 to the newest):
    scripts/slurm-catalog/extract.py --git-dir ~/src/slurm/.git > knowledge/slurm-source-strings.tsv
    # from one plain checkout (series given by hand):
    scripts/slurm-catalog/extract.py --src ~/src/slurm --series 25.11 > strings.tsv

Where the strings live: src/common/slurm_errno.c (slurm_errtab[]); the reasons in
src/common/slurm_protocol_defs.c job_reason_string() up to 23.11 and src/common/job_state_reason.c (jsra[]) from
24.05 on.
"""
import argparse
import os
import re
import subprocess
import sys

FIRST_SERIES = (22, 5)
STRING = r'"(?:[^"\\]|\\.)*"'


def c_strings(blob):
    """Concatenate adjacent C string literals and undo the simple escapes."""
    parts = re.findall(STRING, blob)
    s = "".join(p[1:-1] for p in parts)
    return s.replace('\\"', '"').replace("\\\\", "\\")


def errno_strings(src):
    m = re.search(r"slurm_errtab\[\]\s*=\s*\{(.*?)\n\};", src, re.S)
    if not m:
        raise SystemExit("slurm_errtab[] not found in slurm_errno.c: has the file changed shape?")
    body = re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)
    body = re.sub(r"//[^\n]*", "", body)
    out = []
    entry = re.compile(r"\{\s*(?:ERRTAB_ENTRY\(\s*([A-Za-z_0-9]+)\s*\)|(-?[A-Za-z_0-9]+))\s*,\s*((?:" + STRING + r"\s*)+),?\s*\}")
    for e in entry.finditer(body):
        sym = e.group(1) or e.group(2)
        sym = {"0": "SLURM_SUCCESS", "-1": "SLURM_ERROR"}.get(sym, sym)
        out.append(("errno", sym, c_strings(e.group(3))))
    if len(out) < 100:
        raise SystemExit(f"only {len(out)} errno entries parsed: has slurm_errno.c changed shape?")
    return out


def reason_strings(protocol_defs, job_state_reason):
    out = []
    if job_state_reason:
        m = re.search(r"jsra\[\]\s*=\s*\{(.*?)\n\};", job_state_reason, re.S)
        for e in re.finditer(r"\[\s*([A-Z_0-9]+)\s*\]\s*=\s*\{[^}]*?\.str\s*=\s*(" + STRING + r")", m.group(1), re.S):
            out.append(("reason", e.group(1), c_strings(e.group(2))))
    else:
        m = re.search(r"\n(?:extern )?char \*job_reason_string\(enum job_state_reason inx\)\s*\{(.*?)\n\}", protocol_defs, re.S)
        body = m.group(1)
        for e in re.finditer(r"case\s+([A-Z_0-9]+)\s*:\s*return\s*(" + STRING + r")", body):
            out.append(("reason", e.group(1), c_strings(e.group(2))))
    if len(out) < 100:
        raise SystemExit(f"only {len(out)} reasons parsed: has the reason table changed shape?")
    return out


def from_git(git_dir, tag, path):
    r = subprocess.run(["git", "--git-dir", git_dir, "show", f"{tag}:{path}"], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def series_tags(git_dir):
    """The last release tag of each series from 22.05 on (slurm-YY-MM-P-R, no rc)."""
    tags = subprocess.run(["git", "--git-dir", git_dir, "tag"], capture_output=True, text=True, check=True).stdout.split()
    best = {}
    for t in tags:
        m = re.fullmatch(r"slurm-(\d+)-(\d+)-(\d+)-(\d+)", t)
        if not m:
            continue
        y, mo, p, r = map(int, m.groups())
        if (y, mo) < FIRST_SERIES:
            continue
        if (y, mo) not in best or (p, r) > best[(y, mo)][0]:
            best[(y, mo)] = ((p, r), t)
    return [(f"{y}.{mo:02d}", best[(y, mo)][1]) for (y, mo) in sorted(best)]


def extract(read):
    errno_c = read("src/common/slurm_errno.c")
    jsr = read("src/common/job_state_reason.c")
    defs = read("src/common/slurm_protocol_defs.c")
    return errno_strings(errno_c) + reason_strings(defs, jsr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--git-dir", help="a SchedMD/slurm git directory with its release tags")
    g.add_argument("--src", help="a plain SchedMD/slurm checkout")
    ap.add_argument("--series", help="with --src: its release series, e.g. 25.11")
    a = ap.parse_args()
    if a.git_dir:
        releases = series_tags(a.git_dir)
        if not releases:
            raise SystemExit("no slurm-YY-MM-P-R release tags from 22.05 on in " + a.git_dir)
        readers = [(s, t, (lambda p, t=t: from_git(a.git_dir, t, p))) for s, t in releases]
    else:
        if not a.series:
            raise SystemExit("--src needs --series (e.g. 25.11)")
        def read(p):
            f = os.path.join(a.src, p)
            return open(f, encoding="utf-8", errors="replace").read() if os.path.exists(f) else None
        readers = [(a.series, a.src, read)]
    seen = {}  # (type, symbol, text) -> [series]
    for series, where, read in readers:
        for row in extract(read):
            seen.setdefault(row, []).append(series)
    order = [s for s, _, _ in readers]
    print("# SLURM's errno strings (src/common/slurm_errno.c) and job state reason strings (job_reason_string /")
    print("# job_state_reason_string), extracted by scripts/slurm-catalog/extract.py from SchedMD/slurm: "
          + ", ".join(t for _, t, _ in readers))
    print("# type\tsymbol\ttext\treleases")
    for (typ, sym, text), series in sorted(seen.items(), key=lambda kv: (kv[0][0], kv[0][2], kv[0][1])):
        print(f"{typ}\t{sym}\t{text}\t{span(series, order)}")


def span(series, order):
    """'22.05-26.05' for a contiguous run of series, else a comma list."""
    idx = [order.index(s) for s in series]
    if idx == list(range(idx[0], idx[-1] + 1)):
        return series[0] if len(series) == 1 else f"{series[0]}-{series[-1]}"
    return ",".join(series)


if __name__ == "__main__":
    main()
