#!/usr/bin/env python3
"""Adds a later commit, tagged `drift-later`, to every repository of a workspace made by
generate.py --git, so that drift can be measured at scale (graph/benches/drift.rs with
ONTOLY_BENCH_DRIFT_WS).

Usage: drift_later.py WS

Deterministic (fixed dates, global and system git config ignored: the same SHAs everywhere).
Per repository, over its files in path order (i = position):
  i % 3 == 0   two comment lines inserted at the top (every reference below moves);
  i % 5 == 1   one line in the middle of the file gets a trailing comment (the definition
               around it changes);
  i % 10 == 7  renamed into moved/ (after the edits above, if any: git pairs it by content);
  i % 17 == 3  deleted (its references go missing).
"""

import os
import subprocess
import sys

DATE = "2026-06-01T00:00:00Z"


def git(cwd, *args):
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null",
               GIT_AUTHOR_NAME="Ontoly Bench", GIT_AUTHOR_EMAIL="bench@ontoly.invalid",
               GIT_COMMITTER_NAME="Ontoly Bench", GIT_COMMITTER_EMAIL="bench@ontoly.invalid",
               GIT_AUTHOR_DATE=DATE, GIT_COMMITTER_DATE=DATE, TZ="UTC")
    res = subprocess.run(["git", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false",
                          *args], cwd=cwd, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"git {' '.join(args)} failed in {cwd}: {res.stderr.strip()}")
    return res.stdout


def comment(path):
    return "#" if path.endswith(".py") else "//"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().split("\n\n")[1])
    repos = os.path.join(sys.argv[1], "repos")
    for name in sorted(os.listdir(repos)):
        repo = os.path.join(repos, name)
        if "drift-later" in git(repo, "tag", "--list").split():
            continue
        files = sorted(p for p in git(repo, "ls-files").split("\n")
                       if p and not p.endswith(".md"))
        for i, path in enumerate(files):
            full = os.path.join(repo, path)
            with open(full, encoding="utf-8", newline="") as f:
                lines = f.read().split("\n")
            c = comment(path)
            if i % 5 == 1:
                mid = len(lines) // 2
                while mid < len(lines) and not lines[mid].strip():
                    mid += 1
                if mid < len(lines):
                    lines[mid] += f"  {c} edited"
            if i % 3 == 0:
                lines = [f"{c} Added above everything.", f"{c} So every line moves down."] + lines
            with open(full, "w", encoding="utf-8", newline="") as f:
                f.write("\n".join(lines))
            if i % 17 == 3:
                git(repo, "rm", "-q", "-f", path)
            elif i % 10 == 7:
                os.makedirs(os.path.join(repo, "moved"), exist_ok=True)
                git(repo, "mv", path, "moved/" + path.replace("/", "_"))
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "later: moves, edits, renames, deletions")
        git(repo, "tag", "drift-later")
    print(f"tagged drift-later in {len(os.listdir(repos))} repositories")


if __name__ == "__main__":
    main()
