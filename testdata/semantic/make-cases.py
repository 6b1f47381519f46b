#!/usr/bin/env python3
"""Writes wordpiece-cases.json: texts with the token ids Hugging Face's BERT uncased tokenizer
gives them, the reference that capabilities/src/retrieval/semantic.rs is held to.

The reference is the PyPI `tokenizers` package reading tokenizer.json (all-MiniLM-L6-v2's, the
teacher of capabilities/data/semantic/; Apache-2.0), with its padding and truncation to 128 off
and no special tokens: the static table embeds whole texts, [CLS]/[SEP] never among them.

Texts: every question of the seven fit corpora, 150 section bodies of their pages (picked with a
fixed seed), and hand-made edge cases. Run from the repository root:

    pip install --user tokenizers   # 0.23.3 when the cases were written
    python3 testdata/semantic/make-cases.py
"""
import json
import os
import random
import sys

import tokenizers
import yaml
from tokenizers import Tokenizer

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
CORPORA = os.path.join(ROOT, "testdata", "corpora")
FIT = "acme requests fd black commander jinja hyperfine".split()
SECTIONS = 150

sys.path.insert(0, os.path.join(CORPORA, "tools"))
import wslib  # noqa: E402


def questions(name):
    data = yaml.safe_load(open(os.path.join(CORPORA, name, "questions.yaml"), encoding="utf-8"))
    items = data["questions"] if isinstance(data, dict) else data
    return [it.get("q") or it.get("query") for it in items]


def section_bodies(name):
    root = os.path.join(CORPORA, name, "ws", "knowledge")
    out = []
    for dirpath, _dirs, files in sorted(os.walk(root)):
        for f in sorted(files):
            if not f.endswith(".md"):
                continue
            text = open(os.path.join(dirpath, f), encoding="utf-8").read()
            for _sid, _s, _e, body in wslib.page_sections(text):
                out.append("\n".join(body))
    return out


EDGE = [
    "",
    "   \t\n  ",
    "Café naïve résumé coöperate Ångström",
    "ÉCOLE Über straße ẞ",
    "İstanbul ΟΔΟΣ Σίσυφος",
    "日本語のテキスト 中文分词 한국어",
    "mixed中文and english",
    "rare ideographs \U00020000\U0002A700\U0002B820\U0002B920\U0002F800 \uF900",
    "emoji 🚀 🎉 in text 👍🏽",
    "control\x00chars\x01here\x07 and \x1b[31mcolour\x1b[0m",
    "replacement \ufffd char and zero\u200bwidth and soft\u00adhyphen",
    "tabs\tand\nnewlines\r\nand\u00a0nbsp\u2003em space",
    "a" * 150,
    "x" * 100 + " " + "y" * 101,
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
    "--flag=x -v --no-verify --max-retries=3",
    "Session.mount() and requests.get(url, timeout=(3.05, 27))",
    "snake_case CamelCase kebab-case SCREAMING_CASE __dunder__",
    "“quoted” ‘single’ — em dash – en dash … ellipsis ¿qué? ¡hola! «guillemets» ·",
    "path/to/file.rs:42:7 C:\\Windows\\System32 https://example.com/a?b=c&d=e#frag",
    "numbers 3.14159 1,000,000 0xDEADBEEF 1e-9 v2.28.0",
    "$HOME ~/.config @decorator #hashtag %percent ^caret *star `tick` |pipe",
    "x² ½ ℃ ﬁ ligature Ⅻ ＡＢＣ fullwidth",
    "Ελληνικά Русский текст עברית العربية हिन्दी",
    "combining e\u0301 a\u0308 n\u0303 and precomposed é ä ñ",
    "[CLS] [SEP] [UNK] [MASK] [PAD] literal special tokens",
    "a[CLS]b x[cls]y [ SEP ] [MASK][PAD]",
    "##prefix ## #",
    "def f(*args, **kwargs) -> Dict[str, int]: ...",
    "fn main() { println!(\"{}\", x?); }",
    "unassigned \U000E0080 private \ue000 format \u200e\u2066",
    "Ǆ ǅ ǆ ῼ ﬀ titlecase and special casing",
    "tokenizer’s apostrophe don't can’t",
]


def main():
    tok = Tokenizer.from_file(os.path.join(HERE, "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    texts = []
    for name in FIT:
        texts += [("question", name, q) for q in questions(name)]
    bodies = [(name, b) for name in FIT for b in section_bodies(name)]
    rng = random.Random(57)
    for name, b in rng.sample(bodies, SECTIONS):
        texts.append(("section", name, b))
    texts += [("edge", "", t) for t in EDGE]
    cases = [
        {"kind": kind, "corpus": corpus, "text": text,
         "ids": tok.encode(text, add_special_tokens=False).ids}
        for kind, corpus, text in texts
    ]
    out = {
        "tokenizers": tokenizers.__version__,
        "cases": cases,
    }
    path = os.path.join(HERE, "wordpiece-cases.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=0)
        f.write("\n")
    print(f"{len(cases)} cases -> {path}")


if __name__ == "__main__":
    main()
