"""Stop 58's re-order study (issue 8): simulate the pack's re-ordering of its best sections from a
QUALITY_DUMP file, choose the weights on the seven fitting sets, and print the others for
information. Standard library only.

    QUALITY_DUMP=dump.jsonl target/release/examples/quality          # the 21 default sets
    QUALITY_DUMP=dump.jsonl target/release/examples/quality tqdm tealdeer
    python3 experiments/meaning-s58/rerank.py dump.jsonl
"""
import json
import re
import sys

ROWS = [json.loads(line) for line in open(sys.argv[1])]
FIT = {"acme", "requests", "fd", "black", "commander", "jinja", "hyperfine"}
SPENT = {"tqdm", "tealdeer"}


def group(r):
    return "fit" if r["corpus"] in FIT else ("tq" if r["corpus"] in SPENT else "nf")


def order(r, key):
    c = r["cands"]
    if not c or r["trace"] or c[0]["score"] <= 0:
        return [x["id"] for x in c]
    top = c[0]["score"]
    return [x["id"] for x in sorted(c, key=lambda x: (-key(x, top, r), x["id"]))]


def rank_of(ids, expect):
    return next((i + 1 for i, s in enumerate(ids) if s in expect), None)


def counts(key, groups=("fit", "nf", "tq"), sets=None):
    res = {}
    for g in groups:
        t1 = t3 = n = 0
        for r in ROWS:
            if not r["answerable"] or not r["expect"]:
                continue
            if (sets is None and group(r) != g) or (sets is not None and r["corpus"] not in sets):
                continue
            n += 1
            k = rank_of(order(r, key), set(r["expect"]))
            t1 += k == 1
            t3 += k is not None and k <= 3
        res[g] = (t1, t3, n)
    return res


def linear(w1, w2, w3, w4, w5=0.0, cov="cov"):
    return lambda x, top, r: x["score"] + top * (
        w1 * x["cos"] + w2 * x["cos_sent"] + w3 * x["cos_head"] + w4 * x[cov] + w5 * x["cos_page"])


def show(label, res):
    print(f"{label:<44} " + "  ".join(f"{g} {a}/{b} of {c}" for g, (a, b, c) in res.items()))


show("lexical (no re-order)", counts(lambda x, top, r: x["score"]))
show("stop 57: body cosine at 1.5", counts(linear(1.5, 0, 0, 0)))
GRID = [(a, b, c, d) for a in (1.0, 1.5, 2.0) for b in (0, .5, 1.0, 1.5)
        for c in (0, .25, .5) for d in (0, .25, .5, 1.0)]
scored = sorted(((sum(counts(linear(*w), ("fit",))["fit"][:2]), w) for w in GRID),
                key=lambda t: (-t[0], sum(t[1])))
print("best on the fitting sets (top-1 + top-3):")
for s, w in scored[:5]:
    show(f"  {s} {w}", counts(linear(*w)))
print("leave one fitting set out (choose on six, count on the seventh):")
tot = [0, 0]
for out in sorted(FIT):
    rest = FIT - {out}
    w = max(GRID, key=lambda w: (sum(counts(linear(*w), ("x",), rest)["x"][:2]), -sum(w)))
    t1, t3, _ = counts(linear(*w), ("x",), {out})["x"]
    tot[0] += t1
    tot[1] += t3
    print(f"  {out:<10} {w} {t1}/{t3}")
print("  pooled", tot)
IDENT = re.compile(r"(--?[a-z][\w-]*|\w+_\w+|[a-z]+[A-Z]\w*|\w+\.\w+\(?|\w+\(\))")
for w in (0.0, 0.75):
    show(f"identifier-like word: body weight {w}", counts(
        lambda x, top, r, w=w: x["score"] + (w if IDENT.search(r["q"]) else 1.5) * top * x["cos"]))
for w5 in (0.25, 0.5, 1.0):
    show(f"chosen + page cosine {w5}", counts(linear(2.0, 1.5, 0.5, 1.0, w5)))
