#!/usr/bin/env python3
"""build.py [OUT_DIR] > ../../corpora/jackson/traces.yaml: the jackson trace set in the corpus
shape, from labels.yaml, the traces capture.sh printed (OUT_DIR/<trace>.txt, default
/tmp/traces-work/jackson/out) and the agent-style pastes (pastes/<trace>.txt).

Each question is a trace as printed with its trailing blank lines dropped (the walk asked them as
"$(cat trace)" gives them). Checks that every expected section exists in
../../corpora/jackson/ws and that the YAML reads back to exactly these questions."""
import os, sys, yaml

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = sys.argv[1] if len(sys.argv) > 1 else "/tmp/traces-work/jackson/out"
HEADER = ("# jackson trace set: real stack traces of a Java program using jackson-databind 2.14.0 (30, as\n"
          "# printed, nothing rewritten) and 7 pastes cut from them; labelled before any query.\n")

labels = yaml.safe_load(open(os.path.join(HERE, "labels.yaml"), encoding="utf-8"))
st = yaml.safe_load(open(os.path.join(HERE, "../../corpora/jackson/ws/knowledge/structure.yaml"), encoding="utf-8"))
ids = {a["article_id"] + "#" + s["id"] for a in st["articles"] for s in a["sections"]}
parts, want = [HEADER], []
for item in labels:
    where = os.path.join(HERE, "pastes") if item.get("paste") else OUT
    text = open(os.path.join(where, item["trace"] + ".txt"), encoding="utf-8").read()
    q = text.rstrip("\n") + "\n"
    for e in item["expect"]:
        assert e in ids, (item["trace"], e)
    # Java indents frames with a tab, which a YAML block scalar cannot hold: a double-quoted
    # scalar keeps every character.
    body = yaml.safe_dump(q, default_style='"', width=1 << 20, allow_unicode=True).rstrip("\n")
    parts.append(f"- q: {body}\n  expect: [{', '.join(item['expect'])}]\n")
    want.append((q, item["expect"]))
s = "".join(parts)
got = yaml.safe_load(s)
assert len(got) == len(want)
for g, (q, e) in zip(got, want):
    assert g["q"] == q, q[:80]
    assert g["expect"] == e
sys.stdout.write(s)
print(len(got), "traces,", sum(1 for g in got if not g["expect"]), "unanswerable; round-trip OK", file=sys.stderr)
