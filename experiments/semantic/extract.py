"""Plain text from the chosen Debian doc packages -> corpus.txt (one paragraph/line per line,
tokens space-separated via tok.tokens). HTML: drop <script>/<style>/<head>, block tags -> newline,
strip tags, unescape. Skipped: Sphinx _sources/_static/genindex/search/modindex pages, rustdoc
source views (/src/), non-text files. Every text line is emitted once over the whole corpus
(exact-duplicate lines dropped: navigation, sidebars, rustdoc blanket impls)."""
import gzip, hashlib, html, json, os, re, sys, time
sys.path.insert(0, "/tmp/w56/w2v")
from tok import tokens

X = "/tmp/w56/w2v/x"
SOURCES = """python3.11-doc rust-doc cargo-doc nodejs-doc golang-1.19-doc python-django-doc sphinx-doc
python-sqlalchemy-doc python-pytest-doc python-setuptools-doc python-flask-doc python-werkzeug-doc
python-aiohttp-doc python-cryptography-doc python-pygments-doc python-jsonschema-doc python-lxml-doc
python-tornado-doc python-kombu-doc python-pexpect-doc python-pymongo-doc python-psutil-doc
python-gevent-doc python-cffi-doc python-babel-doc python-markdown-doc python-mako-doc
python-coverage-doc python-nose2-doc python-ipython-doc python-traitlets-doc python-toolz-doc
postgresql-doc-15 cmake-doc libcurl4-doc sqlite3-doc llvm-14-doc clang-14-doc docker-doc
golang-1.19-src libpython3.11-minimal libpython3.11-stdlib""".split()
MAN = re.compile(r"\.[0-9]$")
EXT = (".html", ".htm", ".txt", ".md", ".rst")
SKIPDIR = ("/_sources/", "/_static/", "/_images/", "/src/", "/static.files/", "/_downloads/")
SKIPNAME = {"genindex.html", "search.html", "py-modindex.html", "searchindex.js", "copyright",
            "all.html"}
BLOCK = re.compile(r"<(?:/?(?:p|div|br|li|ul|ol|h[1-6]|tr|td|th|pre|dt|dd|section|table|blockquote|hr|code class=\"block)[^>]*)>", re.I)
DROP = re.compile(r"<(script|style|head|nav)\b.*?</\1>", re.I | re.S)
TAG = re.compile(r"<[^>]+>")


def html_text(s):
    s = DROP.sub(" ", s)
    s = re.sub(r"<pre\b[^>]*>(.*?)</pre>", lambda m: "\n" + m.group(1) + "\n", s, flags=re.S | re.I)
    s = BLOCK.sub("\n", s)
    s = TAG.sub("", s)
    return html.unescape(s)


def go_comments(s):
    """Comments only: // lines and /* */ blocks (no code)."""
    out = [m.group(1) for m in re.finditer(r"//(.*)", s)]
    out += [m.group(1) for m in re.finditer(r"/\*(.*?)\*/", s, re.S)]
    return "\n".join(out)


def py_docs(s):
    """Docstrings (module/class/function) and # comments only (no code)."""
    import ast, io, tokenize as tk
    out = []
    try:
        tree = ast.parse(s)
        for n in ast.walk(tree):
            if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                d = ast.get_docstring(n)
                if d:
                    out.append(d)
        for t in tk.generate_tokens(io.StringIO(s).readline):
            if t.type == tk.COMMENT:
                out.append(t.string.lstrip("#"))
    except Exception:
        pass
    return "\n".join(out)


def man_text(s):
    """troff -> text: drop comment/macro-only lines, keep macro arguments, strip font escapes."""
    out = []
    for line in s.split("\n"):
        if line.startswith(('.\\"', "'\\\"")):
            continue
        if line.startswith("."):
            parts = line.split(None, 1)
            line = parts[1] if len(parts) > 1 else ""
        line = re.sub(r"\\f[BIRP]|\\f\(..|\\\(..|\\[-&e]", " ", line).replace('"', " ")
        out.append(line)
    return "\n".join(out)


def files(pkg):
    for root, _d, fs in os.walk(f"{X}/{pkg}"):
        r = root + "/"
        if pkg != "golang-1.19-src" and any(k in r for k in SKIPDIR):
            continue
        for f in sorted(fs):
            base = f[:-3] if f.endswith(".gz") else f
            code = pkg in ("golang-1.19-src",) and base.endswith(".go") and not base.endswith("_test.go") and "/testdata" not in r
            code = code or (pkg.startswith("libpython3.11") and base.endswith(".py") and not any(k in r for k in ("/test/", "/tests/", "idle_test", "/testdata")))
            man = pkg == "libcurl4-doc" and MAN.search(base) is not None
            if not (code or man) and (pkg in ("golang-1.19-src",) or pkg.startswith("libpython3.11")):
                continue
            if not (code or man) and (base in SKIPNAME or not base.endswith(EXT) or base.startswith("changelog")):
                continue
            p = os.path.join(root, f)
            if os.path.islink(p):
                continue
            yield p, base


def main():
    seen_lines = set()
    seen_files = set()
    stats = {}
    out = open("/tmp/w56/w2v/corpus.txt", "w")
    for pkg in SOURCES:
        t0 = time.time(); nb = nt = nf = 0
        for p, base in files(pkg):
            raw = (gzip.open(p) if p.endswith(".gz") else open(p, "rb")).read()
            h = hashlib.md5(raw).digest()
            if h in seen_files:
                continue
            seen_files.add(h)
            s = raw.decode("utf-8", "replace")
            if base.endswith((".html", ".htm")):
                if len(raw) < 4000 and re.search(r'http-equiv="refresh"|Redirecting to', s, re.I):
                    continue          # redirect stubs (rustdoc, sphinx)
                s = html_text(s)
            elif base.endswith(".go"):
                s = go_comments(s)
            elif base.endswith(".py"):
                s = py_docs(s)
            elif MAN.search(base):
                s = man_text(s)
            nf += 1
            para = []   # consecutive kept lines of one file form one training sentence
            for line in s.split("\n") + [""]:
                line = line.strip()
                lh = hashlib.md5(line.encode()).digest()[:8] if len(line) >= 3 else None
                if lh is None or lh in seen_lines or len(para) > 1000:
                    if para:
                        out.write(" ".join(para) + "\n")
                        para = []
                    if lh is None or lh in seen_lines:
                        continue
                seen_lines.add(lh)
                t = tokens(line)
                if not t:
                    continue
                nb += len(line) + 1; nt += len(t)
                para.extend(t)
        stats[pkg] = dict(files=nf, text_mb=round(nb / 1e6, 2), tokens=nt, secs=round(time.time() - t0, 1))
        print(pkg, stats[pkg], flush=True)
    out.close()
    json.dump(stats, open("/tmp/w56/w2v/corpus_stats.json", "w"), indent=1)
    print("TOTAL text MB", round(sum(v["text_mb"] for v in stats.values()), 1),
          "tokens", sum(v["tokens"] for v in stats.values()))


if __name__ == "__main__":
    main()
