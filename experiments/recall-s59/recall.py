"""Stop 59 (issue 8): would sections found by meaning alone — the closest to the question over
the whole workspace, which the lexical top 20 lacks — reach the pack's first three if the
re-order read them beside the lexical candidates? Simulates the shipped re-order (the stop-58
weights) over the candidates plus the K closest others, with a floor on their cosine and a
penalty, and counts top-1 / top-3 on the seven fitting sets and on the others. Standard library.

    QUALITY_DENSE=1 QUALITY_DUMP=dump.jsonl target/release/examples/quality
    python3 experiments/recall-s59/recall.py dump.jsonl
"""
import json
import sys

ROWS = [json.loads(line) for line in open(sys.argv[1])]
FIT = {"acme", "requests", "fd", "black", "commander", "jinja", "hyperfine"}


def key(x, top):
    return x["score"] + top * (2.0 * x["cos"] + 1.5 * x["cos_sent"] + 0.5 * x["cos_head"] + x["cov"])


def order(r, k, floor, penalty):
    c = r["cands"]
    if not c or r["trace"] or c[0]["score"] <= 0:
        return [x["id"] for x in c]
    top = c[0]["score"]
    extra = [d for d in r["dense"][:k] if d["cos"] >= floor]
    return [x["id"] for x in sorted(
        c + extra, key=lambda x: (-(key(x, top) - (penalty * top if x in extra else 0)), x["id"]))]


def tally(k, floor, penalty, fit):
    t1 = t3 = n = 0
    for r in ROWS:
        if not r["answerable"] or not r["expect"] or (r["corpus"] in FIT) != fit:
            continue
        ids = order(r, k, floor, penalty)
        rank = next((i + 1 for i, s in enumerate(ids) if s in r["expect"]), None)
        n += 1
        t1 += rank == 1
        t3 += rank is not None and rank <= 3
    return t1, t3, n


outside = [r for r in ROWS if r["answerable"] and r["expect"]
           and not any(c["id"] in r["expect"] for c in r["cands"])]
print(f"{len(outside)} answerable questions whose answer is outside the lexical top 20; "
      "found among the closest by meaning:",
      {k: sum(any(d["id"] in r["expect"] for d in r["dense"][:k]) for r in outside)
       for k in (1, 3, 5, 10)})
for k in (0, 1, 3, 10):
    for floor in (0.0, 0.4):
        for penalty in (0.0, 0.25, 0.5):
            print(f"k {k:>2} floor {floor} penalty {penalty}: fitting {tally(k, floor, penalty, True)}"
                  f"  others {tally(k, floor, penalty, False)}")
