"""Build <name>.yaml from raw captured stderr + a spec (script, rewrites, preamble, expect)."""
import sys, yaml, importlib.util

def block(text, indent="    "):
    lines = text.rstrip("\n").split("\n")
    ind = "|" if not lines[0].startswith(" ") else "|2"
    return ind + "\n" + "\n".join((indent + l) if l else "" for l in lines) + "\n"

def main(name):
    spec = importlib.util.spec_from_file_location("spec", f"/tmp/traces-work/{name}/spec.py")
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
    out = [m.HEADER.rstrip("\n") + "\n"]
    originals = []
    for item in m.ITEMS:
        raw = open(f"/tmp/traces-work/{name}/raw/{item['file']}.err").read()
        for a, b in item["rw"]:
            raw = raw.replace(a, b)
        assert "/tmp/traces-work" not in raw and "/root/" not in raw, (item["file"], raw)
        text = (item.get("pre", "") + "\n" if item.get("pre") else "") + raw.rstrip("\n") + "\n"
        originals.append((text, item["expect"]))
        out.append("- q: " + block(text))
        out.append("  expect: [" + ", ".join(item["expect"]) + "]\n")
    st = yaml.safe_load(open(f"/work/main/testdata/corpora/{name}/ws/knowledge/structure.yaml"))
    ids = {a["article_id"] + "#" + sec["id"] for a in st["articles"] for sec in a["sections"]}
    for item in m.ITEMS:
        for e in item["expect"]:
            assert e in ids, (item["file"], e)
    s = "".join(out)
    open(f"/tmp/traces-work/{name}.yaml", "w").write(s)
    data = yaml.safe_load(s)
    assert len(data) == len(originals)
    for d, (t, e) in zip(data, originals):
        assert d["q"] == t, (d["q"], t)
        assert d["expect"] == e
    print(name, len(data), "items,", sum(1 for d in data if not d["expect"]), "unanswerable; round-trip OK")

main(sys.argv[1])
