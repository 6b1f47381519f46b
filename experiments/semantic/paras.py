"""Raw paragraphs from the word2vec study's permissive Debian doc packages (same file filter and
HTML stripping, imported from /tmp/w56/w2v/extract.py): per file, consecutive non-blank lines joined;
keep paragraphs of 120..2000 chars with >= 60% letters/spaces; dedupe; random sample (seed 1)."""
import gzip, hashlib, random, re, sys, json
sys.path.insert(0, "/tmp/w56/w2v")
import extract as X
random.seed(1)
SRC = [s for s in X.SOURCES if s not in ("golang-1.19-src", "libpython3.11-minimal", "libpython3.11-stdlib")]
allp = []
seen = set()
for pkg in SRC:
    fl = list(X.files(pkg))
    random.shuffle(fl)
    n = 0
    for p, base in fl[:400]:
        raw = (gzip.open(p) if p.endswith(".gz") else open(p, "rb")).read()
        s = raw.decode("utf-8", "replace")
        if base.endswith((".html", ".htm")):
            if len(raw) < 4000 and re.search(r'http-equiv="refresh"|Redirecting to', s, re.I):
                continue
            s = X.html_text(s)
        elif X.MAN.search(base):
            s = X.man_text(s)
        para = []
        for line in s.split("\n") + [""]:
            line = " ".join(line.split())
            if line:
                para.append(line); continue
            t = " ".join(para); para = []
            if 120 <= len(t) <= 2000 and sum(c.isalpha() or c == " " for c in t) >= 0.6 * len(t):
                h = hashlib.md5(t.encode()).digest()
                if h not in seen:
                    seen.add(h); allp.append((pkg, t)); n += 1
    print(pkg, n, flush=True)
random.shuffle(allp)
json.dump(allp, open("/tmp/w57/m2v/paras_all.json", "w"))
print("total", len(allp))
