#!/usr/bin/env python3
"""Peak memory per input byte of ontoly on the worst YAML and page shapes we know.

For each input kind (structure.yaml, a registry, a page's front matter and body, a questions
file) and each shape, writes one input of about SIZE bytes into a fresh copy of the `valid`
fixture, runs the command that reads it (`validate`, or `check --questions`), and reports
the child's peak RSS (from wait4, so no external tool is needed) minus the floor (the same
command on the unchanged fixture, measured in the same run), divided by the input's size.
Issue 13 asks that no accepted input need more than about 20x its size.

    scripts/yaml-memory.py [--ontoly BIN] [--size BYTES] [--only SUBSTRING]

Memory figures are stable; the times beside them are not (a shared 2-core machine).
"""

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "testdata", "fixtures", "valid")
HEAD = "schema_version: context.approved-structure.v1\narticles: []\n"
DIGEST = "sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae"


def flow(n, item):
    return "[" + ",".join([item] * max(1, n // (len(item) + 1))) + "]"


def aliases(n):
    anchor = flow(0, "b").replace("[b]", "[" + ",".join(["b"] * 60) + "]")
    return f"x: &a {anchor}\nprocessed_scopes: " + flow(n, "*a") + "\n"


def valid_articles(n):
    ref = (
        "          - source_ref: repo:acme/server\n"
        "            locator: {path: src/main.go, start_line: 3, end_line: 9}\n"
        f"            content_digest: {DIGEST}\n"
    )
    article = (
        "  - article_id: a{i}\n    path: faq/a{i}.md\n    collection: faq\n    visibility: public\n"
        "    sections:\n      - id: s\n        references:\n" + ref * 3
    )
    one = len(article.replace("{i}", "0"))
    return "schema_version: context.approved-structure.v1\narticles:\n" + "".join(
        article.replace("{i}", str(i)) for i in range(max(1, n // one))
    )


# (kind, shape, file written, text of about n bytes)
SHAPES = [
    ("structure.yaml", "valid block layout (Context's writer)", "knowledge/structure.yaml", valid_articles),
    ("structure.yaml", "processed_scopes: flow list of scalars", "knowledge/structure.yaml",
     lambda n: HEAD + "processed_scopes: " + flow(n, "a") + "\n"),
    ("structure.yaml", "processed_scopes: flow list of {}", "knowledge/structure.yaml",
     lambda n: HEAD + "processed_scopes: " + flow(n, "{}") + "\n"),
    ("structure.yaml", "processed_scopes: block list of scalars", "knowledge/structure.yaml",
     lambda n: HEAD + "processed_scopes:\n" + "- a\n" * (n // 4)),
    ("structure.yaml", "processed_scopes: block list of nulls", "knowledge/structure.yaml",
     lambda n: HEAD + "processed_scopes:\n" + "-\n" * (n // 2)),
    ("structure.yaml", "processed_scopes: mapping of many keys", "knowledge/structure.yaml",
     lambda n: HEAD + "processed_scopes:\n" + "".join(f"  k{i}: 1\n" for i in range(n // 11))),
    ("structure.yaml", "aliases of a 60-item list", "knowledge/structure.yaml", lambda n: HEAD + aliases(n)),
    ("structure.yaml", "nesting 999 deep, repeated", "knowledge/structure.yaml",
     lambda n: HEAD + "processed_scopes: [" + ",".join(["[" * 999 + "]" * 999] * (n // 2000)) + "]\n"),
    ("structure.yaml", "one long string", "knowledge/structure.yaml",
     lambda n: HEAD + "input_hash: " + "a" * n + "\n"),
    ("sources/repo/index.yaml", "unknown key: flow list of scalars", "sources/repo/index.yaml",
     lambda n: "sources: []\nx: " + flow(n, "a") + "\n"),
    ("sources/repo/index.yaml", "sources: flow list of {}", "sources/repo/index.yaml",
     lambda n: "sources: " + flow(n, "{}") + "\n"),
    ("sources/repo/index.yaml", "aliases of a 60-item list", "sources/repo/index.yaml",
     lambda n: "sources: []\n" + aliases(n)),
    ("page front matter", "flow list of scalars", "knowledge/faq/guide.md",
     lambda n: "---\ntags: " + flow(n, "a") + "\n---\n# Guide\n"),
    ("page front matter", "aliases of a 60-item list", "knowledge/faq/guide.md",
     lambda n: "---\n" + aliases(n) + "---\n# Guide\n"),
    ("page body", "many sections", "knowledge/faq/many.md",
     lambda n: "".join(f'<!-- context:section id="s{i}" -->\nx\n<!-- /context:section -->\n' for i in range(n // 58))),
    ("page body", "one long line", "knowledge/faq/long.md", lambda n: "# T\n" + "x" * n + "\n"),
    ("questions file", "block list of strings", "questions.yaml", lambda n: "- q\n" * (n // 4)),
    ("questions file", "flow list of scalars", "questions.yaml", lambda n: flow(n, "q") + "\n"),
    ("questions file", "aliases of a 60-item list", "questions.yaml",
     lambda n: "x: &a [" + ",".join(["b"] * 60) + "]\nquestions: " + flow(n, "*a") + "\n"),
]


def run(binary, cwd, args, timeout):
    start = time.monotonic()
    p = subprocess.Popen([binary, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid == p.pid:
            break
        if time.monotonic() > deadline:
            p.kill()
            pid, status, usage = os.wait4(p.pid, 0)
            return None, usage.ru_maxrss / 1024, time.monotonic() - start, ""
        time.sleep(0.005)
    err = p.stderr.read().decode(errors="replace") if p.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    return code, usage.ru_maxrss / 1024, time.monotonic() - start, err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ontoly", default=os.path.join(HERE, "..", "target", "release", "ontoly"))
    ap.add_argument("--size", type=int, default=2_000_000)
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=float, default=120)
    a = ap.parse_args()
    binary = os.path.abspath(a.ontoly)
    with tempfile.TemporaryDirectory() as tmp:
        ws = os.path.join(tmp, "valid")
        shutil.copytree(FIXTURE, ws)
        floors = {}
        for q in (False, True):
            args = ["--workspace", ws, "--no-cache"] + (["check", "--questions", "q0.yaml"] if q else ["validate"])
            if q:
                with open(os.path.join(tmp, "q0.yaml"), "w") as f:
                    f.write("- q\n")
            floors[q] = run(binary, tmp, args, a.timeout)[1]
        print(f"floor: validate {floors[False]:.1f} MiB, check {floors[True]:.1f} MiB; size {a.size} B")
        print("| input | shape | bytes | peak MiB | over floor / byte | time s | exit |")
        print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
        for kind, shape, rel, make in SHAPES:
            if a.only and a.only not in f"{kind} {shape}":
                continue
            shutil.rmtree(ws)
            shutil.copytree(FIXTURE, ws)
            text = make(a.size)
            questions = rel == "questions.yaml"
            path = os.path.join(tmp, rel) if questions else os.path.join(ws, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
            args = ["--workspace", ws, "--no-cache"] + (["check", "--questions", rel] if questions else ["validate"])
            code, peak, secs, err = run(binary, tmp, args, a.timeout)
            ratio = (peak - floors[questions]) * 1024 * 1024 / len(text)
            shown = "timeout" if code is None else str(code)
            print(f"| {kind} | {shape} | {len(text)} | {peak:.0f} | {ratio:.0f}x | {secs:.2f} | {shown} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
