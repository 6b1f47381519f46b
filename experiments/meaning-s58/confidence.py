"""Stop 58: does a cosine of meaning help the confidence model tell answerable questions from
unanswerable ones? Fit the logistic model on the seven fitting sets with the shipped four
features, then with one meaning feature more; threshold at 90 % of the fitting sets'
unanswerable questions flagged; measure on the others. Needs numpy and scikit-learn.

    python3 experiments/meaning-s58/confidence.py dump.jsonl
"""
import json
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

ROWS = [json.loads(line) for line in open(sys.argv[1])]
FIT = {"acme", "requests", "fd", "black", "commander", "jinja", "hyperfine"}
NAMES = ["coverage", "own", "rare", "unknown", "strength", "gap", "support", "mrare", "jargon",
         "margin", "prox", "covj"]


def feats(r, which):
    f = dict(zip(NAMES, r["features"]))
    c = r["cands"] or [{"cos": 0.0, "cos_sent": 0.0}]
    f["cos_top"] = c[0]["cos"]
    f["cos_max"] = max(x["cos"] for x in c[:5])
    f["sent_top"] = c[0]["cos_sent"]
    f["cos_gap"] = c[0]["cos"] - (c[1]["cos"] if len(c) > 1 else 0.0)
    return [f[w] for w in which]


def threshold_90(s, y):
    un = np.sort(s[~y])
    at = un[int(np.ceil(len(un) * 0.9)) - 1]
    above = s[s > at]
    return (at + above.min()) / 2 if len(above) else at + 1e-6


def evaluate(which):
    tr = [r for r in ROWS if r["corpus"] in FIT]
    te = [r for r in ROWS if r["corpus"] not in FIT]
    x = np.array([feats(r, which) for r in tr])
    y = np.array([r["answerable"] for r in tr])
    m = LogisticRegression(C=100.0, max_iter=5000).fit(x, y)
    t = threshold_90(m.predict_proba(x)[:, 1], y)
    xt = np.array([feats(r, which) for r in te])
    yt = np.array([r["answerable"] for r in te])
    st = m.predict_proba(xt)[:, 1]
    own = threshold_90(st, yt)
    print(f"{'+'.join(which):<44} test AUC {roc_auc_score(yt, st):.3f}  flagged "
          f"{(st[~yt] < t).mean():.3f} false alarms {(st[yt] < t).mean():.3f}  | false alarms "
          f"at the test sets' own 90 % threshold {(st[yt] < own).mean():.3f}")


BASE = ["coverage", "unknown", "strength", "prox"]
evaluate(BASE)
for extra in ["cos_top", "cos_max", "sent_top", "cos_gap"]:
    evaluate(BASE + [extra])
