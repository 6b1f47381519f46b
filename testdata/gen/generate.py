#!/usr/bin/env python3
"""Generate a large synthetic Context knowledge workspace for benchmarks.

Deterministic: the same arguments give byte-identical files (and, with --git, identical commit
SHAs). Python 3 standard library only; `git` on PATH is needed for --git.

See README.md next to this file for the layout and the parameters.
"""

import argparse
import hashlib
import os
import random
import shutil
import subprocess
import sys

# Presets for --sections: (articles, sections per article).
PRESETS = {
    1000: (50, 20),
    10000: (500, 20),
    100000: (5000, 20),
    1000000: (50000, 20),
}

LANGS = ["rs", "py", "ts", "go", "java", "js"]

# Real words give the text search something meaningful to match; pseudo-words (built from
# syllables below) make the vocabulary large enough that an index is not trivially small.
BASE_WORDS = """
account adapter address allocation analytics api archive audit authentication authorization
backoff balance batch billing blob branch bucket buffer cache callback cancel capacity cart
catalog certificate channel checkout checksum chunk client cluster commit compaction
compression config connection consumer container context cookie coupon credential cursor
customer dashboard database deadline decoder delivery dependency deploy digest discount
dispatch document domain download encoder endpoint entity envelope error event eviction
export failover feature fetch filter fixture flag format fulfillment gateway graph handler
header health heartbeat history hook identity import index inventory invoice job journal
kernel key latency ledger lease limit listener locale lock log lookup manifest mapping
merchant message metric middleware migration mirror module monitor mutation namespace
network node notification offset order package page parser partition password payload
payment permission pipeline plugin policy pool price probe processor profile protocol proxy
queue quota rate reader receipt reconcile record redirect refund region registry release
replica report repository request resolver resource response retry revision role rollback
route runtime sandbox scheduler schema scope search secret segment serializer session shard
shipment signature snapshot socket source span stock storage stream subscription supplier
tax template tenant thread throttle timeout token topic trace transaction transform
transport trigger upload user validator vendor version warehouse webhook window worker
""".split()

CONNECT = """the a each every this that its our when after before while because so then
with without into from over under through across between within per via for to of and or
but not only also still never always usually""".split()

VERBS = """accepts rejects validates stores loads emits records retries caches forwards
batches splits merges signs verifies encodes decodes schedules drains flushes locks releases
reserves refunds computes applies resolves publishes consumes indexes rebuilds expires
renews throttles parses normalizes reports""".split()

SYLLABLES = """ka ri to ne mu sa lo vi de pa ze gu ra mi no ta fe lu be ko si da ve qu
ar en ol ix um ex or an in us el ax""".split()


def parse_range(text):
    """'2-3' -> (2, 3); '3' -> (3, 3)."""
    parts = text.split("-")
    try:
        if len(parts) == 1:
            lo = hi = int(parts[0])
        elif len(parts) == 2:
            lo, hi = int(parts[0]), int(parts[1])
        else:
            raise ValueError
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N or LO-HI, got {text!r}")
    if lo < 0 or hi < lo:
        raise argparse.ArgumentTypeError(f"invalid range {text!r}")
    return lo, hi


def digest(lines, start, end):
    """sha256 of lines start..end (1-based, inclusive) joined with \\n, as the format defines."""
    body = "\n".join(lines[start - 1:end])
    return "sha256:" + hashlib.sha256(body.encode("utf-8")).hexdigest()


class Digests:
    """Digests of cited spans, computed once each: a million sections cite a few thousand spans."""

    def __init__(self):
        self.memo = {}

    def of(self, f, start, end):
        key = (f.path, start, end)
        d = self.memo.get(key)
        if d is None:
            d = self.memo[key] = digest(f.lines, start, end)
        return d


class Vocab:
    def __init__(self, rng, size):
        words = list(BASE_WORDS)
        seen = set(words)
        while len(words) < size:
            w = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
            if w not in seen:
                seen.add(w)
                words.append(w)
        rng.shuffle(words)
        self.words = words
        # Zipf-like weights: a few words are common, the long tail is rare.
        acc = 0.0
        cum = []
        for i in range(len(words)):
            acc += 1.0 / (i + 1) ** 1.05
            cum.append(acc)
        self.cum = cum

    def sample(self, rng, k):
        return rng.choices(self.words, cum_weights=self.cum, k=k)


# Words that cannot stand alone as an identifier in one of the generated languages.
KEYWORDS = set("""abstract as async await break case catch chan class const continue def default
defer del delete do else enum export extends false final finally fn for from func function go
goto if impl import in interface is let loop map match mod move mut new nil none not null or
package pass private protected pub public range raise record ref return select self static
struct super switch this throw trait true try type typeof use var void where while with yield
""".split())


def ident(word):
    return word + "Value" if word in KEYWORDS else word


def camel(words):
    return "".join(w[:1].upper() + w[1:] for w in words)


def snake(words):
    return "_".join(words)


def lower_camel(words):
    return words[0] + camel(words[1:])


# ---------------------------------------------------------------- synthetic source files


def body_lines(rng, vocab, indent, lang, n):
    """A few plausible statement lines for a function body."""
    out = []
    for _ in range(n):
        a, b = vocab.sample(rng, 2)
        a = ident(a)
        if lang == "rs":
            out.append(f"{indent}let {a}_{b} = {a}.len() + {rng.randint(1, 99)};")
        elif lang == "py":
            out.append(f"{indent}{a}_{b} = len({a}) + {rng.randint(1, 99)}")
        elif lang in ("ts", "js"):
            out.append(f"{indent}const {a}{b.title()} = {a}.length + {rng.randint(1, 99)};")
        elif lang == "go":
            out.append(f"{indent}{a}{b.title()} := len({a}) + {rng.randint(1, 99)}")
        else:
            out.append(f"{indent}int {a}{b.title()} = {a}.length() + {rng.randint(1, 99)};")
    return out


def gen_block(rng, vocab, lang, kind):
    """One top-level definition: (lines, [(symbol, start_offset, end_offset)]).

    Offsets are 0-based within the block; the block's first line is its definition line.
    """
    w = vocab.sample(rng, 3)
    name_words = [w[0], w[1]]
    arg = ident(w[2])
    lines = []
    spans = []
    nbody = rng.randint(2, 6)
    if kind == "fn":
        if lang == "rs":
            name = snake(name_words)
            lines.append(f"/// Computes the {w[0]} {w[1]} for a {arg}.")
            lines.append(f"pub fn {name}({arg}: &str) -> usize {{")
            lines += body_lines(rng, vocab, "    ", lang, nbody)
            lines.append(f"    {arg}.len()")
            lines.append("}")
        elif lang == "py":
            name = snake(name_words)
            lines.append(f"def {name}({arg}):")
            lines.append(f'    """Compute the {w[0]} {w[1]} for a {arg}."""')
            lines += body_lines(rng, vocab, "    ", lang, nbody)
            lines.append(f"    return len({arg})")
        elif lang in ("ts", "js"):
            name = lower_camel(name_words)
            sig = f"{arg}: string): number" if lang == "ts" else f"{arg})"
            lines.append(f"/** Computes the {w[0]} {w[1]} for a {arg}. */")
            lines.append(f"export function {name}({sig} {{")
            lines += body_lines(rng, vocab, "  ", lang, nbody)
            lines.append(f"  return {arg}.length;")
            lines.append("}")
        elif lang == "go":
            name = camel(name_words)
            lines.append(f"// {name} computes the {w[0]} {w[1]} for a {arg}.")
            lines.append(f"func {name}({arg} string) int {{")
            lines += body_lines(rng, vocab, "\t", lang, nbody)
            lines.append(f"\treturn len({arg})")
            lines.append("}")
        else:  # java: a static nested helper class keeps one public top-level class per file
            name = camel(name_words)
            lines.append(f"    /** Computes the {w[0]} {w[1]} for a {arg}. */")
            lines.append(f"    public static int {lower_camel(name_words)}(String {arg}) {{")
            lines += body_lines(rng, vocab, "        ", lang, nbody)
            lines.append(f"        return {arg}.length();")
            lines.append("    }")
            name = lower_camel(name_words)
        spans.append((name, 0, len(lines) - 1))
        return lines, spans

    # kind == "type": a type with two or three methods
    tname = camel(name_words)
    nmeth = rng.randint(2, 3)
    methods = [[ident(x) for x in vocab.sample(rng, 2)] for _ in range(nmeth)]
    if lang == "rs":
        lines.append(f"/// The {w[0]} {w[1]} state.")
        lines.append("#[derive(Debug, Clone, Default)]")
        lines.append(f"pub struct {tname} {{")
        lines.append(f"    pub {arg}: String,")
        lines.append(f"    pub count: u64,")
        lines.append("}")
        lines.append("")
        lines.append(f"impl {tname} {{")
        for m in methods:
            s = len(lines)
            lines.append(f"    pub fn {snake(m)}(&mut self, {m[0]}: &str) -> u64 {{")
            lines += body_lines(rng, vocab, "        ", lang, rng.randint(1, 4))
            lines.append(f"        self.count += {m[0]}.len() as u64;")
            lines.append("        self.count")
            lines.append("    }")
            spans.append((f"{tname}::{snake(m)}", s, len(lines) - 1))
        lines.append("}")
    elif lang == "py":
        lines.append(f"class {tname}:")
        lines.append(f'    """The {w[0]} {w[1]} state."""')
        lines.append("")
        lines.append(f"    def __init__(self, {arg}):")
        lines.append(f"        self.{arg} = {arg}")
        lines.append("        self.count = 0")
        for m in methods:
            lines.append("")
            s = len(lines)
            lines.append(f"    def {snake(m)}(self, {m[0]}):")
            lines += body_lines(rng, vocab, "        ", lang, rng.randint(1, 4))
            lines.append(f"        self.count += len({m[0]})")
            lines.append("        return self.count")
            spans.append((f"{tname}.{snake(m)}", s, len(lines) - 1))
    elif lang in ("ts", "js"):
        lines.append(f"/** The {w[0]} {w[1]} state. */")
        lines.append(f"export class {tname} {{")
        lines.append("  count = 0;" if lang == "ts" else "  constructor() { this.count = 0; }")
        for m in methods:
            lines.append("")
            s = len(lines)
            sig = f"{m[0]}: string): number" if lang == "ts" else f"{m[0]})"
            lines.append(f"  {lower_camel(m)}({sig} {{")
            lines += body_lines(rng, vocab, "    ", lang, rng.randint(1, 4))
            lines.append(f"    this.count += {m[0]}.length;")
            lines.append("    return this.count;")
            lines.append("  }")
            spans.append((f"{tname}.{lower_camel(m)}", s, len(lines) - 1))
        lines.append("}")
    elif lang == "go":
        lines.append(f"// {tname} holds the {w[0]} {w[1]} state.")
        lines.append(f"type {tname} struct {{")
        lines.append(f"\t{camel([arg])} string")
        lines.append("\tCount int")
        lines.append("}")
        for m in methods:
            lines.append("")
            s = len(lines)
            lines.append(f"func (x *{tname}) {camel(m)}({m[0]} string) int {{")
            lines += body_lines(rng, vocab, "\t", lang, rng.randint(1, 4))
            lines.append(f"\tx.Count += len({m[0]})")
            lines.append("\treturn x.Count")
            lines.append("}")
            spans.append((f"{tname}.{camel(m)}", s, len(lines) - 1))
    else:  # java: static nested class
        lines.append(f"    /** The {w[0]} {w[1]} state. */")
        lines.append(f"    public static final class {tname} {{")
        lines.append("        private int count;")
        for m in methods:
            lines.append("")
            s = len(lines)
            lines.append(f"        public int {lower_camel(m)}(String {m[0]}) {{")
            lines += body_lines(rng, vocab, "            ", lang, rng.randint(1, 4))
            lines.append(f"            count += {m[0]}.length();")
            lines.append("            return count;")
            lines.append("        }")
            spans.append((f"{tname}.{lower_camel(m)}", s, len(lines) - 1))
        lines.append("    }")
    spans.insert(0, (tname, 0, len(lines) - 1))
    return lines, spans


def file_header(lang, module, classname):
    if lang == "rs":
        return [f"//! {module}: generated benchmark module.", ""]
    if lang == "py":
        return [f'"""{module}: generated benchmark module."""', ""]
    if lang in ("ts", "js"):
        return [f"// {module}: generated benchmark module.", ""]
    if lang == "go":
        return [f"// Package {module} is a generated benchmark module.", f"package {module}", ""]
    return [f"package bench.{module};", "", f"/** Generated benchmark module. */",
            f"public final class {classname} {{"]


def file_footer(lang):
    return ["}", ""] if lang == "java" else [""]


class SourceFile:
    """A synthetic file: its versions (one per commit it changes in) and citable spans."""

    def __init__(self, path, versions, spans, first_commit):
        self.path = path
        self.versions = versions  # list of full text; last is the final content
        self.spans = spans  # (symbol, start_line, end_line), 1-based, in the final content
        self.first_commit = first_commit
        self.lines = versions[-1].split("\n")


def gen_repo(rng, vocab, repo_index, files_per_repo):
    files = []
    used = set()
    for fi in range(files_per_repo):
        lang = LANGS[(repo_index + fi) % len(LANGS)]
        while True:
            stem_words = vocab.sample(rng, 2)
            if stem_words[0] != stem_words[1] and tuple(stem_words) not in used:
                used.add(tuple(stem_words))
                break
        module = snake(stem_words)
        classname = camel(stem_words)
        if lang == "rs":
            path = f"src/{module}.rs"
        elif lang == "py":
            path = f"worker/{module}.py"
        elif lang == "ts":
            path = f"web/src/{lower_camel(stem_words)}.ts"
        elif lang == "js":
            path = f"web/lib/{lower_camel(stem_words)}.js"
        elif lang == "go":
            path = f"cmd/{module}/{module}.go"
        else:
            path = f"sdk/src/main/java/bench/{module}/{classname}.java"
        module_name = module if lang != "java" else module
        header = file_header(lang, module_name, classname)
        blocks = []
        for bi in range(rng.randint(6, 12)):
            kind = "type" if rng.random() < 0.4 else "fn"
            blocks.append(gen_block(rng, vocab, lang, kind))
        footer = file_footer(lang)

        def assemble(nblocks):
            out = list(header)
            spans = []
            for blines, bspans in blocks[:nblocks]:
                base = len(out)
                out += blines
                for sym, s, e in bspans:
                    spans.append((sym, base + s + 1, base + e + 1))
                out.append("")
            out += footer
            return "\n".join(out), spans

        final, spans = assemble(len(blocks))
        # Every third file gains its last definition in the third commit; every other file
        # lands in the first or second commit, so history has adds and edits.
        first_commit = 0 if fi % 2 == 0 else 1
        if fi % 3 == 0:
            v1, _ = assemble(len(blocks) - 1)
            versions = [v1, final]
        else:
            versions = [final]
        files.append(SourceFile(path, versions, spans, first_commit))
    files.sort(key=lambda f: f.path)
    return files


GIT_ENV_BASE = {
    "GIT_AUTHOR_NAME": "Bench Generator",
    "GIT_AUTHOR_EMAIL": "bench@example.com",
    "GIT_COMMITTER_NAME": "Bench Generator",
    "GIT_COMMITTER_EMAIL": "bench@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "TZ": "UTC",
    "LC_ALL": "C",
}


def git(cwd, *args, date=None):
    env = dict(os.environ)
    env.update(GIT_ENV_BASE)
    if date:
        env["GIT_AUTHOR_DATE"] = date
        env["GIT_COMMITTER_DATE"] = date
    res = subprocess.run(["git", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false",
                          *args], cwd=cwd, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"git {' '.join(args)} failed in {cwd}: {res.stderr.strip()}")
    return res.stdout.strip()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def create_git_repo(path, files, name):
    """Three commits: initial files, the rest, then edits. Returns the head commit."""
    os.makedirs(path)
    git(path, "init", "-q", "-b", "main", "--template=")
    dates = ["2026-01-05T10:00:00+00:00", "2026-02-10T11:30:00+00:00",
             "2026-03-15T09:15:00+00:00"]
    write(os.path.join(path, "README.md"), f"# {name}\n\nGenerated benchmark repository.\n")
    for f in files:
        if f.first_commit == 0:
            write(os.path.join(path, f.path), f.versions[0])
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", f"{name}: initial modules", date=dates[0])
    for f in files:
        if f.first_commit == 1:
            write(os.path.join(path, f.path), f.versions[0])
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", f"{name}: add remaining modules", date=dates[1])
    for f in files:
        if len(f.versions) > 1:
            write(os.path.join(path, f.path), f.versions[-1])
    write(os.path.join(path, "README.md"),
          f"# {name}\n\nGenerated benchmark repository.\n\nSee the knowledge workspace.\n")
    git(path, "add", "-A")
    git(path, "commit", "-q", "-m", f"{name}: extend modules", date=dates[2])
    return git(path, "rev-parse", "HEAD")


# ---------------------------------------------------------------- knowledge pages


def sentence(rng, vocab, topic, extra=()):
    words = vocab.sample(rng, rng.randint(7, 14))
    # Bias every sentence towards the article topic so searches have something to find.
    for t in rng.sample(topic, rng.randint(1, 2)):
        words.insert(rng.randrange(len(words) + 1), t)
    for e in extra:
        words.insert(rng.randrange(len(words) + 1), e)
    if rng.random() < 0.7:
        words.insert(rng.randrange(1, len(words)), rng.choice(VERBS))
    for _ in range(rng.randint(1, 3)):
        words.insert(rng.randrange(1, len(words)), rng.choice(CONNECT))
    text = " ".join(words)
    return text[:1].upper() + text[1:] + "."


def slug(words):
    return "-".join(words)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="output directory (must not exist, or be empty)")
    p.add_argument("--sections", type=int, choices=sorted(PRESETS),
                   help="preset: total sections (sets --articles and --sections-per-article)")
    p.add_argument("--articles", type=int, default=50)
    p.add_argument("--sections-per-article", type=parse_range, default=(20, 20))
    p.add_argument("--refs-per-section", type=parse_range, default=(2, 3))
    p.add_argument("--repos", type=int, default=6)
    p.add_argument("--files-per-repo", type=int, default=30)
    p.add_argument("--articles-per-collection", type=int, default=50)
    p.add_argument("--vocabulary", type=int, default=4000, help="distinct words in the prose")
    p.add_argument("--git", action="store_true",
                   help="also create real git repositories under repos/ (needs git)")
    p.add_argument("--locator-style", choices=["block", "flow"], default="block",
                   help="block (as Context writes it) or {path: ..., start_line: ...} flow maps")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--force", action="store_true", help="replace --out if it exists")
    args = p.parse_args(argv)

    if args.sections:
        args.articles, spa = PRESETS[args.sections]
        args.sections_per_article = (spa, spa)
    if min(args.articles, args.repos, args.files_per_repo, args.articles_per_collection) < 1:
        p.error("--articles, --repos, --files-per-repo and --articles-per-collection "
                "must be at least 1")
    if args.refs_per_section[1] > 3:
        p.error("--refs-per-section: the format allows at most 3 references per section")

    out = args.out
    if os.path.exists(out):
        if args.force:
            shutil.rmtree(out)
        elif os.listdir(out):
            p.error(f"--out {out} exists and is not empty (use --force)")
    os.makedirs(out, exist_ok=True)

    rng = random.Random(args.seed)
    vocab = Vocab(random.Random(args.seed * 7919 + 1), max(args.vocabulary, len(BASE_WORDS)))

    # Sources ----------------------------------------------------------------------------
    src_rng = random.Random(args.seed * 104729 + 2)
    repos = []
    for ri in range(args.repos):
        name = f"repo-{ri:03d}"
        files = gen_repo(src_rng, vocab, ri, args.files_per_repo)
        if args.git:
            commit = create_git_repo(os.path.join(out, "repos", name), files, name)
        else:
            # No repository on disk: a stable stand-in commit; digests still match the
            # synthesized content, which --git would commit.
            commit = hashlib.sha1(f"ontoly-bench:{args.seed}:{name}".encode()).hexdigest()
        citable = [(f, sym, s, e) for f in files for (sym, s, e) in f.spans]
        repos.append({"name": name, "commit": commit, "files": files, "citable": citable})

    idx = ["sources:", "  - name: bench", "    modules:"]
    for r in repos:
        idx += [f"      - name: {r['name']}",
                '        subpath: ""',
                "        git:",
                f"          remote: https://github.com/ontoly-bench/{r['name']}",
                f'          ref: "{r["commit"]}"']
    write(os.path.join(out, "sources", "repo", "index.yaml"), "\n".join(idx) + "\n")

    if args.git:
        toml = ["# Local clones of the registered remotes (paths relative to this workspace).",
                "[sources]"]
        for r in repos:
            toml.append(f'"github.com/ontoly-bench/{r["name"]}" = "repos/{r["name"]}"')
        write(os.path.join(out, "ontoly.toml"), "\n".join(toml) + "\n")

    # Articles ---------------------------------------------------------------------------
    ncoll = (args.articles + args.articles_per_collection - 1) // args.articles_per_collection
    coll_names = []
    seen = set()
    limit = min(len(vocab.words), 400)
    while len(coll_names) < ncoll:
        if len(seen) == limit:
            # More collections than candidate words (1M sections need 1000): number them.
            k = len(coll_names)
            coll_names.append(f"{coll_names[k % limit]}-{k // limit}")
            continue
        w = vocab.words[rng.randrange(limit)]
        if w not in seen:
            seen.add(w)
            coll_names.append(w)
    articles = []
    for ai in range(args.articles):
        coll = coll_names[ai // args.articles_per_collection]
        # One real word and two rarer ones: titles read naturally, topics stay distinctive.
        topic = [BASE_WORDS[rng.randrange(len(BASE_WORDS))]] + \
            [vocab.words[rng.randrange(200, len(vocab.words))] for _ in range(2)]
        aslug = f"{slug(topic[:2])}-{ai:05d}"
        articles.append({"id": aslug, "collection": coll, "path": f"{coll}/{aslug}.md",
                         "topic": topic,
                         "title": " ".join(t.capitalize() for t in topic[:2]) +
                                  f" {rng.choice(['guide', 'design', 'notes', 'faq', 'runbook'])}"})

    # structure.yaml is streamed: at a million sections it is ~0.7 GB of text, which as a list
    # of lines would take several GB of Python objects.
    spath = os.path.join(out, "knowledge", "structure.yaml")
    os.makedirs(os.path.dirname(spath), exist_ok=True)
    sfile = open(spath, "w", encoding="utf-8", newline="\n")
    digests = Digests()
    sfile.write("schema_version: context.approved-structure.v1\narticles:\n")
    for ai, art in enumerate(articles):
        structure = []
        topic = art["topic"]
        nsec = rng.randint(*args.sections_per_article)
        page = ["---", f"title: {art['title']}",
                f"description: {sentence(rng, vocab, topic)}", "---", "",
                f"# {art['title']}", "", sentence(rng, vocab, topic), ""]
        structure += [f"  - article_id: {art['id']}",
                      f"    path: {art['path']}",
                      f"    collection: {art['collection']}",
                      "    visibility: public"]
        structure.append("    sections:" if nsec else "    sections: []")
        for si in range(nsec):
            head = vocab.sample(rng, 2)
            sid = f"{slug(head)}-{si:02d}"
            nref = rng.randint(*args.refs_per_section)
            refs = []
            for _ in range(nref):
                r = repos[rng.randrange(len(repos))]
                f, sym, s, e = r["citable"][rng.randrange(len(r["citable"]))]
                refs.append((r, f, sym, s, e))
            page.append(f'<!-- context:section id="{sid}" -->')
            page.append(f"## {' '.join(head).capitalize()} {topic[0]}")
            page.append("")
            # Mention the cited symbols and paths, as real pages do.
            para = [sentence(rng, vocab, topic, extra=[f"`{refs[0][2]}`"])
                    if refs else sentence(rng, vocab, topic)]
            for _ in range(rng.randint(1, 2)):
                para.append(sentence(rng, vocab, topic))
            if len(refs) > 1:
                para.append(f"See `{refs[1][1].path}` for the details.")
            if rng.random() < 0.15 and len(articles) > 1:
                other = articles[rng.randrange(len(articles))]
                if other is not art:
                    rel = (other["path"] if other["collection"] != art["collection"]
                           else other["path"].split("/", 1)[1])
                    if other["collection"] != art["collection"]:
                        rel = "../" + rel
                    para.append(f"Related: [{other['title']}]({rel}).")
            page.append(" ".join(para))
            page.append("")
            page.append("<!-- /context:section -->")
            page.append("")
            structure.append(f"      - id: {sid}")
            if not refs:
                structure.append("        references: []")
                continue
            structure.append("        references:")
            for r, f, sym, s, e in refs:
                structure.append(f"          - source_ref: repo:bench/{r['name']}")
                if args.locator_style == "flow":
                    structure.append(f"            locator: {{path: {f.path}, "
                                     f"start_line: {s}, end_line: {e}}}")
                else:
                    structure += ["            locator:",
                                  f"              path: {f.path}",
                                  f"              start_line: {s}",
                                  f"              end_line: {e}"]
                structure.append(f"            content_digest: {digests.of(f, s, e)}")
        page.append(sentence(rng, vocab, topic))
        write(os.path.join(out, "knowledge", art["path"]), "\n".join(page) + "\n")
        sfile.write("\n".join(structure) + "\n")
    sfile.close()

    return 0


if __name__ == "__main__":
    sys.exit(main())
