"""Tokenlearn-style step on top of the distilled table: train the 384-d token table (init = the
distilled rows before PCA: mean-centred token outputs x SIF weight) so that the mean of a paragraph's
rows points where the teacher's sentence embedding of that paragraph points (loss 1 - cos), on
permissive Debian-doc paragraphs only. Lazy Adam (touched rows only). Epochs/lr chosen on held-out
PARAGRAPHS (teacher cosine), never on any question set. Then PCA -> 256 (truncate for 128/64).
usage: train_tl.py LR EPOCHS [save_name]"""
import json, sys, time
import numpy as np
sys.path.insert(0, "/tmp/w57/m2v")
from m2v_common import tokenizer

lr = float(sys.argv[1]); EPOCHS = int(sys.argv[2]); save = sys.argv[3] if len(sys.argv) > 3 else None
rng = np.random.default_rng(1)
z = np.load("/tmp/w57/m2v/m2v_table.npz")
raw, keep = z["raw"], z["keep"]
inv_rank = 1 / np.arange(2, len(keep) + 2)
p = inv_rank / inv_rank.sum()
wt = 1e-4 / (1e-4 + p)
mu = raw[keep].mean(0)
E = np.zeros_like(raw)
E[keep] = (raw[keep] - mu) * wt[:, None]
T = np.load("/tmp/w57/m2v/teacher_emb.npz")["v"].astype(np.float32)
N = len(T)
P = json.load(open("/tmp/w57/m2v/paras_all.json"))[:N]
tok = tokenizer()
unk = tok.token_to_id("[UNK]")
ids = [[j for j in e.ids[:126] if j != unk] for e in tok.encode_batch([t for _, t in P], add_special_tokens=False)]
HO = 1000
tr, ho = np.arange(N - HO), np.arange(N - HO, N)


def embed(E, idx):
    return np.stack([E[ids[i]].mean(0) if ids[i] else np.zeros(E.shape[1], np.float32) for i in idx])


def ho_cos(E):
    s = embed(E, ho)
    s /= np.linalg.norm(s, axis=1, keepdims=True) + 1e-12
    return float((s * T[ho]).sum(1).mean())


print(f"N={N} train={len(tr)} heldout={HO}; init held-out teacher cos {ho_cos(E):.4f}", flush=True)
m = np.zeros_like(E); v = np.zeros_like(E); step = np.zeros(len(E), np.int64)
b1, b2, eps, BS = 0.9, 0.999, 1e-8, 32
best = (ho_cos(E), 0, E.copy())
for ep in range(1, EPOCHS + 1):
    t0 = time.time(); rng.shuffle(tr); tot = 0.0
    for s in range(0, len(tr), BS):
        bi = tr[s:s + BS]
        rows, seg, cnt = [], [], []
        for k, i in enumerate(bi):
            rows.extend(ids[i]); seg.extend([k] * len(ids[i])); cnt.append(max(len(ids[i]), 1))
        rows = np.array(rows); seg = np.array(seg); cnt = np.array(cnt, np.float32)
        S = np.zeros((len(bi), E.shape[1]), np.float32)
        np.add.at(S, seg, E[rows])
        S /= cnt[:, None]
        nrm = np.linalg.norm(S, axis=1, keepdims=True) + 1e-12
        pq = S / nrm
        y = T[bi]
        c = (pq * y).sum(1, keepdims=True)
        tot += float((1 - c).sum())
        gS = -(y - c * pq) / nrm / len(bi)
        gS /= cnt[:, None]
        G = np.zeros_like(E[:0]).reshape(0, E.shape[1])
        u, inv = np.unique(rows, return_inverse=True)
        Gu = np.zeros((len(u), E.shape[1]), np.float32)
        np.add.at(Gu, inv, gS[seg])
        step[u] += 1
        m[u] = b1 * m[u] + (1 - b1) * Gu
        v[u] = b2 * v[u] + (1 - b2) * Gu * Gu
        mh = m[u] / (1 - b1 ** step[u])[:, None]
        vh = v[u] / (1 - b2 ** step[u])[:, None]
        E[u] -= lr * mh / (np.sqrt(vh) + eps)
    hc = ho_cos(E)
    print(f"epoch {ep}: train loss {tot / len(tr):.4f} held-out teacher cos {hc:.4f} ({time.time() - t0:.0f}s)", flush=True)
    if hc > best[0]:
        best = (hc, ep, E.copy())
print("best epoch", best[1], "held-out cos", round(best[0], 4))
if save:
    E = best[2]
    X = E[keep]
    Xc = X - X.mean(0)
    ev, evec = np.linalg.eigh(Xc.T @ Xc / (len(X) - 1))
    ev, evec = ev[::-1], evec[:, ::-1]
    sc = Xc @ evec[:, :256]
    mi = np.argmax(np.abs(sc), axis=0)
    sc = sc * np.sign(sc[mi, range(256)])
    out = np.zeros((len(E), 256), np.float32)
    out[keep] = sc
    print("explained var 256/128/64:", [round(float(ev[:k].sum() / ev.sum()), 3) for k in (256, 128, 64)])
    np.savez(f"/tmp/w57/m2v/{save}_table.npz", emb=out)
    print("saved", save)
