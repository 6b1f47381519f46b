"""Stop 59 (issue 8): does how far the top section stands out in meaning from the whole
workspace tell answerable questions from unanswerable ones? Features from every section's
cosine (QUALITY_DENSE): the top section's z-score, the best z-score, the gap of the two best, the
best sentence's z-score, the mean, the top section's rank by cosine, the best 5 %'s z-score.
Fit on the seven fitting sets with the shipped four features (logistic, as stop 58's
confidence.py), threshold at 90 % of their unanswerable questions flagged, measured on the
others. Needs numpy and scikit-learn.

    QUALITY_DENSE=1 QUALITY_DUMP=dump.jsonl target/release/examples/quality
    python3 experiments/recall-s59/distinct.py dump.jsonl
"""
import json
import sys

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

ROWS = [r for r in map(json.loads, open(sys.argv[1])) if not r["trace"]]
FIT = {"acme", "requests", "fd", "black", "commander", "jinja", "hyperfine"}
NAMES = ["coverage", "own", "rare", "unknown", "strength", "gap", "support", "mrare", "jargon",
         "margin", "prox", "covj"]
NEW = ["z_top", "z_max", "z_gap", "z_sent", "mean", "log_rank", "z_best5"]


def feats(r):
    f = dict(zip(NAMES, r["features"]))
    c = r["cands"] or [{"cos": 0.0, "cos_sent": 0.0}]
    every = np.array(r["cos_every"])
    mu, sd = every.mean(), every.std() + 1e-9
    best = np.sort(every)[::-1]
    f["z_top"] = (c[0]["cos"] - mu) / sd
    f["z_max"] = (best[0] - mu) / sd
    f["z_gap"] = (best[0] - best[1]) / sd
    f["z_sent"] = (c[0]["cos_sent"] - mu) / sd
    f["mean"] = mu
    f["log_rank"] = np.log1p((every > c[0]["cos"] + 1e-12).sum())
    f["z_best5"] = (best[:max(1, len(every) // 20)].mean() - mu) / sd
    return f


def threshold_90(s, y):
    un = np.sort(s[~y])
    at = un[int(np.ceil(len(un) * 0.9)) - 1]
    above = s[s > at]
    return (at + above.min()) / 2 if len(above) else at + 1e-6


def evaluate(which):
    sets = [[r for r in ROWS if (r["corpus"] in FIT) == fit] for fit in (True, False)]
    (x, y), (xt, yt) = [(np.array([[feats(r)[w] for w in which] for r in s]),
                         np.array([r["answerable"] for r in s])) for s in sets]
    m = LogisticRegression(C=100.0, max_iter=5000).fit(x, y)
    t = threshold_90(m.predict_proba(x)[:, 1], y)
    st = m.predict_proba(xt)[:, 1]
    own = threshold_90(st, yt)
    print(f"{'+'.join(which):<44} test AUC {roc_auc_score(yt, st):.3f}  flagged "
          f"{(st[~yt] < t).mean():.3f} false alarms {(st[yt] < t).mean():.3f}  | false alarms "
          f"at the test sets' own 90 % threshold {(st[yt] < own).mean():.3f}")


BASE = ["coverage", "unknown", "strength", "prox"]
evaluate(BASE)
for extra in NEW:
    evaluate(BASE + [extra])
test = [r for r in ROWS if r["corpus"] not in FIT]
yt = np.array([r["answerable"] for r in test])
for name in NEW:
    print(f"{name} alone: test AUC {roc_auc_score(yt, [feats(r)[name] for r in test]):.3f}")
