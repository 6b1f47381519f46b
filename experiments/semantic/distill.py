"""Model2Vec-style distillation of all-MiniLM-L6-v2 (numpy, no torch), following model2vec 0.10.0's
distill_from_model defaults: every vocabulary token (less [unusedN]) as [CLS] tok [SEP] through the
transformer, mean over the 3 output positions, PCA to 256 (eigh of the covariance, sign-fixed),
SIF weight a/(a+p) with Zipf p from the token's rank in id order, a = 1e-4; rows multiplied by it.
Output: m2v_table.npz (emb [30522, 256] float32; rows of removed tokens zero)."""
import re, time
import numpy as np
from bert_np import Bert

b = Bert()
vocab = b.tok.get_vocab()
inv = sorted(vocab.items(), key=lambda kv: kv[1])
keep = [i for t, i in inv if not re.match(r"\[unused\d+\]", t)]
print("tokens kept", len(keep), "of", len(inv))
CLS, SEP = vocab["[CLS]"], vocab["[SEP]"]
out = np.zeros((len(inv), 384), np.float32)
t = time.time()
B = 512
for s in range(0, len(keep), B):
    ids = np.array([[CLS, i, SEP] for i in keep[s:s + B]], np.int64)
    h = b.forward(ids, np.ones_like(ids))
    out[keep[s:s + B]] = h.mean(1)
print(f"forward {time.time() - t:.1f}s")
raw = out.copy()
X = out[keep]
mean = X.mean(0)
Xc = X - mean
cov = Xc.T @ Xc / (len(X) - 1)
ev, evec = np.linalg.eigh(cov)
ev, evec = ev[::-1], evec[:, ::-1]
comp = evec[:, :256].T
sc = Xc @ comp.T
mi = np.argmax(np.abs(sc), axis=0)
sc = sc * np.sign(sc[mi, range(sc.shape[1])])
print("explained var 256:", ev[:256].sum() / ev.sum(), "128:", ev[:128].sum() / ev.sum(), "64:", ev[:64].sum() / ev.sum())
inv_rank = 1 / np.arange(2, len(keep) + 2)
p = inv_rank / inv_rank.sum()
wt = 1e-4 / (1e-4 + p)
emb = np.zeros((len(inv), 256), np.float32)
emb[keep] = sc * wt[:, None]
np.savez("/tmp/w57/m2v/m2v_table.npz", emb=emb, raw=raw, keep=np.array(keep))
print("saved", emb.shape)
