#!/usr/bin/env python3
"""build.py [OUT_DIR] > traces.yaml: the toml trace set in the corpus shape, from labels.yaml and
the traces capture.sh printed (OUT_DIR/<trace>.txt, default /tmp/traces-work/toml/out).

Each question is a trace as printed with its trailing blank lines dropped (the walk asked them as
"$(cat trace)" gives them): a panic keeps the empty line Rust prints above `thread 'main'`.
Checks that every expected section exists in ../../corpora/toml/ws and that the YAML reads back
to exactly these questions."""
import os, sys, yaml

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else "/tmp/traces-work/toml/out"
HEADER = ("# toml trace set: real panics and error reports of a Rust program using toml 0.8.19 and\n"
          "# toml_edit 0.22.22, as printed (nothing rewritten); labelled after capture, before any query.\n")

labels = yaml.safe_load(open(os.path.join(HERE, "labels.yaml"), encoding="utf-8"))
st = yaml.safe_load(open(os.path.join(HERE, "../../corpora/toml/ws/knowledge/structure.yaml"), encoding="utf-8"))
ids = {a["article_id"] + "#" + s["id"] for a in st["articles"] for s in a["sections"]}
parts, want = [HEADER], []
for item in labels:
    text = open(os.path.join(OUT, item["trace"] + ".txt"), encoding="utf-8").read()
    q = text.rstrip("\n") + "\n"
    assert "\t" not in q, item["trace"]
    for e in item["expect"]:
        assert e in ids, (item["trace"], e)
    body = "".join("    " + l + "\n" if l else "\n" for l in q.rstrip("\n").split("\n"))
    parts.append(f"- q: |\n{body}  expect: [{', '.join(item['expect'])}]\n")
    want.append((q, item["expect"]))
s = "".join(parts)
got = yaml.safe_load(s)
assert len(got) == len(want)
for g, (q, e) in zip(got, want):
    assert g["q"] == q, q[:80]
    assert g["expect"] == e
sys.stdout.write(s)
print(len(got), "traces,", sum(1 for g in got if not g["expect"]), "unanswerable; round-trip OK", file=sys.stderr)
