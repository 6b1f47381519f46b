#!/usr/bin/env python3
"""Write ws/knowledge/structure.yaml for the black corpus from refs.yaml.

refs.yaml lists, per article, its page path, collection and sections; each section lists up to
three references as "<module>:<path>:<start>-<end>" (explicit lines) or "<module>:<path>:<name>"
(the whole Python def/class called <name>, decorators included; it must be unique in the file).
Lines are read from repo.git at the modules' pinned commit (ws/sources/repo/index.yaml) and the
digest follows the workspace format: split on "\\n", drop one trailing "\\r" per line, join
lines start..end with "\\n", sha256 of the UTF-8 bytes.

Usage: make_structure.py            (run from anywhere; paths are relative to this script)
"""

import ast
import hashlib
import os
import subprocess
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.join(HERE, "repo.git")
WS = os.path.join(HERE, "ws")
SOURCE = "black"


def fail(msg):
    sys.exit(f"make_structure: {msg}")


def show(commit, path):
    res = subprocess.run(["git", "-C", REPO, "show", f"{commit}:{path}"], capture_output=True)
    if res.returncode != 0:
        fail(f"cannot read {path} at {commit}: {res.stderr.decode().strip()}")
    return res.stdout.decode("utf-8")


def split_lines(text):
    return [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]


def def_range(text, name, where):
    hits = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and node.name == name:
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            hits.append((start, node.end_lineno))
    if len(hits) != 1:
        fail(f"{where}: {len(hits)} definitions named {name!r}")
    return hits[0]


def main():
    reg = yaml.safe_load(open(os.path.join(WS, "sources", "repo", "index.yaml")))
    modules = {}
    for src in reg["sources"]:
        for m in src["modules"]:
            modules[m["name"]] = (m["subpath"], m["git"]["ref"])
    spec = yaml.safe_load(open(os.path.join(HERE, "refs.yaml")))
    cache = {}
    out = {"schema_version": "context.approved-structure.v1", "articles": []}
    for art in spec:
        a = {"article_id": art["id"], "path": art["path"],
             "collection": art["path"].split("/")[0], "visibility": "public", "sections": []}
        for sec in art["sections"]:
            refs = []
            if not 1 <= len(sec["refs"]) <= 3:
                fail(f"{art['id']}#{sec['id']}: {len(sec['refs'])} references")
            for r in sec["refs"]:
                where = f"{art['id']}#{sec['id']} {r}"
                module, path, what = r.split(":", 2)
                sub, commit = modules[module]
                full = f"{sub}/{path}" if sub else path
                if full not in cache:
                    cache[full] = show(commit, full)
                text = cache[full]
                lines = split_lines(text)
                if "-" in what and what.replace("-", "").isdigit():
                    s, e = map(int, what.split("-"))
                else:
                    s, e = def_range(text, what, where)
                if not (1 <= s <= e <= len(lines)) or not 5 <= e - s + 1 <= 60:
                    fail(f"{where}: range {s}-{e} (file has {len(lines)} lines)")
                body = "\n".join(lines[s - 1:e])
                refs.append({
                    "source_ref": f"repo:{SOURCE}/{module}",
                    "locator": {"path": path, "start_line": s, "end_line": e},
                    "content_digest": "sha256:" + hashlib.sha256(body.encode()).hexdigest(),
                })
            a["sections"].append({"id": sec["id"], "references": refs})
        out["articles"].append(a)
    text = yaml.safe_dump(out, sort_keys=False, allow_unicode=True, width=100)
    with open(os.path.join(WS, "knowledge", "structure.yaml"), "w", encoding="utf-8") as f:
        f.write(text)
    n = sum(len(a["sections"]) for a in out["articles"])
    r = sum(len(s["references"]) for a in out["articles"] for s in a["sections"])
    print(f"{len(out['articles'])} articles, {n} sections, {r} references")


if __name__ == "__main__":
    main()
