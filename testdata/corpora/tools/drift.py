#!/usr/bin/env python3
"""Compute drift.yaml: how every workspace reference fares from the base to a later commit.

Usage: drift.py --corpus DIR --later COMMIT [--out FILE]
       drift.py --ws WS --repo REPO --later COMMIT --out FILE

DIR holds ws/ (structure.yaml, sources/repo/index.yaml) and repo.git, which must contain the
modules' pinned base commit and COMMIT; --ws and --repo name them separately (a fixture
workspace and a repository made by a recipe). The algorithm is written into the output's header
(HEADER below) and implemented by classify() and map_range().
"""

import argparse
import collections
import os
import re
import subprocess
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wslib  # noqa: E402

HEADER = """\
# Drift of every reference from the base commit to a later commit, computed with git by
# tools/drift.py. For each reference, in structure.yaml order (ref_index is the position
# within its section):
#  1. Repository path = module subpath + "/" + locator.path (just locator.path when the subpath
#     is empty). Cited text = lines start_line..end_line of that file at base (split on "\\n",
#     one trailing "\\r" dropped per line).
#  2. Later file: the same path if it exists at the later commit; else the rename target of
#     that path in `git diff -M --name-status <base> <later>`; else status `missing`.
#  3. `unchanged`: same path, and the later file has the cited lines at the same line numbers.
#  4. Otherwise count the line-aligned occurrences of the cited block in the later file
#     (positions i where later lines i..i+n-1 equal the n cited lines). Exactly one =>
#     `moved`, with new_path, new_start_line, new_end_line.
#  5. Zero or several => `changed`, with new_path, occurrences_at_head, and `mapped`: the range
#     that the hunks of `git diff -U0 <base>:<old path> <later>:<new path>` give the old range.
#     A line outside every hunk shifts by the net delta (added - removed lines) of the hunks
#     before it; a start line inside a hunk maps to the hunk's first new line, an end line
#     inside a hunk to its last new line; for a pure deletion hunk "+c,0" a start maps to c+1
#     and an end to c. If the mapped start > mapped end, mapped is null.
"""

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def renames(repo, base, later):
    out = wslib.git(repo, "diff", "-M", "--name-status", base, later).decode()
    r = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if parts[0].startswith("R") and len(parts) == 3:
            r[parts[1]] = parts[2]
    return r


def hunks(repo, base, old, later, new):
    res = subprocess.run(["git", "-C", repo, "diff", "-U0", "--no-color", "--no-ext-diff",
                          f"{base}:{old}", f"{later}:{new}"], capture_output=True)
    if res.returncode not in (0, 1):
        wslib.die(res.stderr.decode())
    hs = []
    for line in res.stdout.decode("utf-8", "replace").splitlines():
        m = HUNK.match(line)
        if m:
            a, b, c, d = m.groups()
            hs.append((int(a), 1 if b is None else int(b), int(c), 1 if d is None else int(d)))
    return hs


def map_line(line, hs, is_start):
    delta = 0
    for a, b, c, d in hs:
        if b == 0:                      # pure insertion after old line a
            if a < line:
                delta += d
                continue
            break
        first, last = a, a + b - 1
        if last < line:                 # hunk entirely before the line
            delta += d - b
            continue
        if first <= line:               # the line is inside this hunk
            if d == 0:                  # pure deletion "+c,0"
                return c + 1 if is_start else c
            return c if is_start else c + d - 1
        break                           # hunk after the line
    return line + delta


def map_range(start, end, hs):
    s, e = map_line(start, hs, True), map_line(end, hs, False)
    return None if s > e else {"start_line": s, "end_line": e}


def occurrences(block, lines):
    n = len(block)
    return [i + 1 for i in range(len(lines) - n + 1) if lines[i:i + n] == block]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus")
    ap.add_argument("--ws")
    ap.add_argument("--repo")
    ap.add_argument("--later", required=True)
    ap.add_argument("--out")
    args = ap.parse_args()
    if args.corpus:
        ws = args.ws or os.path.join(args.corpus, "ws")
        repo = args.repo or os.path.join(args.corpus, "repo.git")
        out_path = args.out or os.path.join(args.corpus, "drift.yaml")
    elif args.ws and args.repo and args.out:
        ws, repo, out_path = args.ws, args.repo, args.out
    else:
        ap.error("give --corpus DIR, or --ws, --repo and --out")
    st = yaml.safe_load(open(os.path.join(ws, "knowledge", "structure.yaml"), encoding="utf-8"))
    reg = yaml.safe_load(open(os.path.join(ws, "sources", "repo", "index.yaml"), encoding="utf-8"))
    modules = {}
    for src in reg["sources"]:
        for m in src["modules"]:
            modules[f"repo:{src['name']}/{m['name']}"] = (m["subpath"], m["git"]["ref"])
    bases = {ref for _, ref in modules.values()}
    if len(bases) != 1:
        wslib.die(f"expected one pinned base commit, found {sorted(bases)}")
    base = bases.pop()
    later = wslib.git(repo, "rev-parse", "--verify", args.later + "^{commit}").decode().strip()
    blobs = wslib.Blobs(repo)
    rn = renames(repo, base, later)
    diff_cache = {}

    entries = []
    for art in st["articles"]:
        for sec in art["sections"]:
            for idx, r in enumerate(sec["references"]):
                sub, _ = modules[r["source_ref"]]
                loc = r["locator"]
                path = f"{sub}/{loc['path']}" if sub else loc["path"]
                s, e = loc["start_line"], loc["end_line"]
                cited = blobs.lines(base, path)[s - 1:e]
                ent = {"article_id": art["article_id"], "section_id": sec["id"],
                       "ref_index": idx, "source_ref": r["source_ref"], "path": path,
                       "start_line": s, "end_line": e}
                if blobs.exists(later, path):
                    new = path
                elif path in rn and blobs.exists(later, rn[path]):
                    new = rn[path]
                else:
                    ent["status"] = "missing"
                    entries.append(ent)
                    continue
                lines = blobs.lines(later, new)
                if new == path and lines[s - 1:e] == cited:
                    ent["status"] = "unchanged"
                else:
                    occ = occurrences(cited, lines)
                    if len(occ) == 1:
                        ent.update(status="moved", new_path=new, new_start_line=occ[0],
                                   new_end_line=occ[0] + len(cited) - 1)
                    else:
                        key = (path, new)
                        if key not in diff_cache:
                            diff_cache[key] = hunks(repo, base, path, later, new)
                        ent.update(status="changed", new_path=new, occurrences_at_head=len(occ),
                                   mapped=map_range(s, e, diff_cache[key]))
                entries.append(ent)

    counts = collections.Counter(x["status"] for x in entries)
    doc = {"base_commit": base, "head_commit": later,
           "counts": {k: counts.get(k, 0) for k in ("unchanged", "moved", "changed", "missing")},
           "total_references": len(entries), "references": entries}
    body = yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=100)
    with open(out_path, "w", encoding="utf-8", newline="\n") as f:
        f.write(HEADER + body)
    print(f"{len(entries)} references: {dict(doc['counts'])} -> {out_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
