"""build_yaml.py <corpus> "<header comment>" : <corpus>/labels.yaml (list of {script, expect, say?})
-> /tmp/traces-work/<corpus>.yaml, each q = [say + "\n"] + out/<script>.txt, checked to round-trip exactly."""
import sys, yaml
BASE = "/tmp/traces-work"
corpus, header = sys.argv[1], sys.argv[2]
spec = yaml.safe_load(open(f"{BASE}/{corpus}/labels.yaml", encoding="utf-8"))
parts, want = [f"# {header}\n"], []
for item in spec:
    tb = open(f"{BASE}/{corpus}/out/{item['script']}.txt", encoding="utf-8").read()
    assert tb.endswith("\n") and not tb.endswith("\n\n") and "\t" not in tb, item["script"]
    q = (item["say"] + "\n" if item.get("say") else "") + tb
    body = "".join("    " + l + "\n" if l else "\n" for l in q.rstrip("\n").split("\n"))
    exp = "[" + ", ".join(item["expect"]) + "]"
    parts.append(f"- q: |\n{body}  expect: {exp}\n")
    want.append((q, item["expect"]))
out = f"{BASE}/{corpus}.yaml"
open(out, "w", encoding="utf-8").write("".join(parts))
got = yaml.safe_load(open(out, encoding="utf-8"))
assert len(got) == len(want)
for g, (q, e) in zip(got, want):
    assert g["q"] == q, q[:80]
    assert g["expect"] == e
print(out, len(got), "items,", sum(1 for g in got if not g["expect"]), "unanswerable")
