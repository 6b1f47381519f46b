"""Teacher (all-MiniLM-L6-v2, numpy) sentence embeddings of N Debian-doc paragraphs (first 128 tokens)."""
import json, sys, time, numpy as np
from bert_np import Bert
N = int(sys.argv[1])
P = json.load(open("/tmp/w57/m2v/paras_all.json"))[:N]
b = Bert()
texts = [t for _, t in P]
out = []
t0 = time.time()
for s in range(0, N, 1000):
    out.append(b.encode(texts[s:s + 1000], max_len=128, batch=32))
    print(s + 1000, f"{time.time() - t0:.0f}s", flush=True)
    np.savez("/tmp/w57/m2v/teacher_emb.npz", v=np.concatenate(out), n=len(np.concatenate(out)))
