"""Stop 59 screen (issue 8): would a word the workspace never uses find its section through the
workspace words nearest it in meaning? Writes each corpus's questions with those words appended
(cosine >= T, at most K a word) for `examples/quality.rs NAME=ws:questions.yaml` to rank. A
screen, not the engine's form: the appended words weigh as typed words do.

    python3 experiments/recall-s59/expand.py 0.6 2 /tmp/expanded acme requests fd black commander jinja hyperfine
"""
import pathlib
import re
import sys

import numpy as np
import yaml

from table import DIMS, vector

ROOT = pathlib.Path(__file__).resolve().parents[2] / "testdata" / "corpora"
STOP = set("""the a an and or to of in on for with how do does i my is it not can what when why
which this that be by from as at are was if me we you your than into only just all any""".split())

threshold, per_word, out = float(sys.argv[1]), int(sys.argv[2]), pathlib.Path(sys.argv[3])
for name in sys.argv[4:]:
    text = "\n".join(p.read_text().lower() for p in (ROOT / name / "ws" / "knowledge").rglob("*.md"))
    words = sorted({w for w in re.findall(r"[a-z][a-z]+", text) if len(w) > 2})
    vectors = np.array([v if (v := vector(w)) is not None else np.zeros(DIMS) for w in words])
    doc = yaml.safe_load((ROOT / name / "questions.yaml").read_text())
    items, key = (doc["questions"], "query") if isinstance(doc, dict) else (doc, "q")
    expanded = 0
    for item in items:
        added = []
        for w in re.findall(r"[A-Za-z][a-z]+", item[key]):
            w = w.lower()
            # Unknown: neither the word nor its first letters (a stem, roughly) in the pages.
            if w in STOP or len(w) < 4 or re.search(r"\b" + re.escape(w[:max(4, len(w) - 3)]), text):
                continue
            if (v := vector(w)) is None:
                continue
            near = vectors @ v
            added += [words[i] for i in np.argsort(-near)[:per_word] if near[i] >= threshold]
        if added:
            expanded += 1
            item[key] += " " + " ".join(dict.fromkeys(added))
    (out / name).mkdir(parents=True, exist_ok=True)
    (out / name / "questions.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False))
    print(f"{name}: {expanded} questions expanded", file=sys.stderr)
