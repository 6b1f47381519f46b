#!/usr/bin/env bash
# Verifies the whole demo workspace (Python 3 and git only):
#  1. the committed bare repositories are what recipe.sh makes (same commit SHAs);
#  2. structure.yaml and the registry are what make-structure.py derives from them;
#  3. every marker pairs up, markers and structure agree, links resolve, and every digest
#     matches the cited lines at its pinned commit (the demo is clean).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
"$HERE/check-repos.sh"
python3 "$HERE/make-structure.py" --check
python3 "$HERE/../check_workspace.py" "$HERE"
python3 - "$HERE" <<'PY'
import os, re, sys
here = sys.argv[1]
sys.path.insert(0, os.path.join(here, ".."))
from check_workspace import parse_yaml
ids = set()
for root, _, files in os.walk(os.path.join(here, "knowledge")):
    for f in files:
        if f.endswith(".md"):
            rel = os.path.relpath(os.path.join(root, f), os.path.join(here, "knowledge"))
            with open(os.path.join(root, f), encoding="utf-8") as fh:
                for sid in re.findall(r'^<!-- context:section id="([^"]+)" -->$', fh.read(), re.M):
                    ids.add(f"section:{rel}#{sid}")
with open(os.path.join(here, "questions.yaml"), encoding="utf-8") as fh:
    qs = parse_yaml(fh.read())["questions"]
bad = [(q["query"], e) for q in qs for e in q["expected_sections"] if e not in ids]
bad += [(q["query"], "answerable without expected sections") for q in qs
        if q["answerable"] and not q["expected_sections"]]
bad += [(q["query"], "unanswerable with expected sections") for q in qs
        if not q["answerable"] and q["expected_sections"]]
for q, e in bad:
    print(f"PROBLEM   questions.yaml: {q!r}: {e}")
n_un = sum(1 for q in qs if not q["answerable"])
print(f"{len(qs)} questions ({len(qs) - n_un} answerable, {n_un} not), "
      f"{len({e for q in qs for e in q['expected_sections']})} of {len(ids)} sections expected somewhere")
sys.exit(1 if bad or len(qs) < 40 or n_un < 10 else 0)
PY
