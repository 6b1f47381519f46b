#!/usr/bin/env python3
"""Compares the JSON of `ontoly drift --to REV --format json` with an expected drift.yaml.

Usage:
  drift-compare.py DRIFT_JSON EXPECTED_DRIFT_YAML     (DRIFT_JSON may be - for stdin)
  drift-compare.py --self-test EXPECTED_DRIFT_YAML

Every reference of the drift.yaml (article_id, section_id, ref_index) must be in the JSON and
the reverse; for each, the source, path and range, the status, and the new range of a `moved`
reference or the new path, occurrence count and `mapped` range of a `changed` one must agree.
The JSON's counts must tally its references and match the drift.yaml's counts, and every
`to` commit must be the drift.yaml's head_commit. Prints each disagreement and exits 1 if
there is any, else prints a summary and exits 0.

--self-test converts the drift.yaml into the JSON it expects, checks that it agrees, and that
a few deliberate mutations are each caught.

Standard library only (PyYAML is used when present; otherwise a reader of the block YAML
subset that drift.yaml is written in).
"""

import copy
import json
import sys

STATUSES = ("unchanged", "moved", "changed", "missing")


# --- reading drift.yaml ----------------------------------------------------------------------

def _scalar(text):
    text = text.strip()
    if text in ("null", "~", ""):
        return None
    if text in ("true", "false"):
        return text == "true"
    if text[0] in "'\"":
        if text[0] == "'":
            return text[1:-1].replace("''", "'")
        return json.loads(text)
    try:
        return int(text)
    except ValueError:
        return text


def _parse_block(lines, i, indent):
    """Parses the block starting at lines[i] whose items are indented by `indent`."""
    if lines[i][1].startswith("- "):
        out = []
        while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
            # A sequence item: "- key: value" starts a mapping indented by indent + 2.
            first = lines[i][1][2:]
            lines[i] = (indent + 2, first)
            item, i = _parse_block(lines, i, indent + 2)
            out.append(item)
        return out, i
    out = {}
    while i < len(lines) and lines[i][0] == indent and not lines[i][1].startswith("- "):
        key, _, rest = lines[i][1].partition(":")
        rest = rest.strip()
        i += 1
        if rest:
            out[key] = _scalar(rest)
        elif i < len(lines) and (lines[i][0] > indent or
                                 (lines[i][0] == indent and lines[i][1].startswith("- "))):
            out[key], i = _parse_block(lines, i, lines[i][0])
        else:
            out[key] = None
    return out, i


def load_yaml(text):
    try:
        import yaml  # noqa: PLC0415
        return yaml.safe_load(text)
    except ImportError:
        pass
    lines = []
    for raw in text.split("\n"):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        lines.append((len(raw) - len(raw.lstrip(" ")), raw.strip()))
    doc, _ = _parse_block(lines, 0, 0)
    return doc


# --- comparing -------------------------------------------------------------------------------

def compare(got, want):
    """Disagreements between the drift JSON `got` and the drift.yaml document `want`."""
    bad = []
    head = want.get("head_commit")
    for name, commit in sorted((got.get("to") or {}).items()):
        if commit != head:
            bad.append(f"to[{name}] is {commit}, expected {head}")
    refs = got.get("references")
    if not isinstance(refs, list):
        return bad + ["the JSON has no references list"]
    tally = {s: 0 for s in STATUSES + ("unverifiable",)}
    for r in refs:
        tally[r.get("status")] = tally.get(r.get("status"), 0) + 1
    counts = got.get("counts") or {}
    for s, n in tally.items():
        if counts.get(s, 0) != n:
            bad.append(f"counts.{s} is {counts.get(s, 0)}, but {n} references have that status")
    for s in STATUSES:
        if counts.get(s, 0) != (want.get("counts") or {}).get(s, 0):
            bad.append(f"counts.{s} is {counts.get(s, 0)}, expected {want['counts'].get(s, 0)}")
    if counts.get("unverifiable", 0):
        bad.append(f"counts.unverifiable is {counts['unverifiable']}, expected 0")

    def key(a, s, i):
        return f"{a}#{s}[{i}]"

    by_key = {}
    for r in refs:
        k = key(r.get("articleId"), r.get("sectionId"), r.get("refIndex"))
        if k in by_key:
            bad.append(f"{k}: listed twice")
        by_key[k] = r
    seen = set()
    for e in want.get("references") or []:
        k = key(e["article_id"], e["section_id"], e["ref_index"])
        seen.add(k)
        r = by_key.get(k)
        if r is None:
            bad.append(f"{k}: missing from the JSON")
            continue

        def check(field, expected, actual_field=None):
            actual = r.get(actual_field or field)
            if actual != expected:
                bad.append(f"{k}: {actual_field or field} is {json.dumps(actual)}, "
                           f"expected {json.dumps(expected)}")

        check("sourceRef", e["source_ref"])
        check("path", e["path"])
        check("startLine", e["start_line"])
        check("endLine", e["end_line"])
        check("status", e["status"])
        if r.get("status") != e["status"]:
            continue
        if e["status"] == "moved":
            check("newPath", e["new_path"])
            check("newStartLine", e["new_start_line"])
            check("newEndLine", e["new_end_line"])
        elif e["status"] == "changed":
            check("newPath", e["new_path"])
            check("occurrences", e["occurrences_at_head"])
            m, want_m = r.get("mapped", "absent"), e.get("mapped")
            if want_m is None:
                if m is not None:
                    bad.append(f"{k}: mapped is {json.dumps(m)}, expected null")
            elif not isinstance(m, dict):
                bad.append(f"{k}: mapped is {json.dumps(m)}, expected "
                           f"{want_m['start_line']}-{want_m['end_line']}")
            else:
                if (m.get("startLine"), m.get("endLine")) != (want_m["start_line"],
                                                              want_m["end_line"]):
                    bad.append(f"{k}: mapped is {m.get('startLine')}-{m.get('endLine')}, "
                               f"expected {want_m['start_line']}-{want_m['end_line']}")
                if m.get("path", e["new_path"]) != e["new_path"]:
                    bad.append(f"{k}: mapped.path is {m.get('path')}, expected {e['new_path']}")
        if e["status"] != "moved":
            for f in ("newStartLine", "newEndLine"):
                if f in r:
                    bad.append(f"{k}: {f} on a {e['status']} reference")
    for k in by_key:
        if k not in seen:
            bad.append(f"{k}: not in the expected drift")
    return bad


def to_json(want):
    """The drift JSON that agrees with the drift.yaml document `want`."""
    refs = []
    for e in want["references"]:
        r = {"articleId": e["article_id"], "sectionId": e["section_id"],
             "refIndex": e["ref_index"], "sourceRef": e["source_ref"], "path": e["path"],
             "startLine": e["start_line"], "endLine": e["end_line"], "status": e["status"]}
        if e["status"] == "moved":
            r.update(newPath=e["new_path"], newStartLine=e["new_start_line"],
                     newEndLine=e["new_end_line"])
        elif e["status"] == "changed":
            m = e["mapped"]
            r.update(newPath=e["new_path"], occurrences=e["occurrences_at_head"],
                     mapped=None if m is None else {"path": e["new_path"],
                                                    "startLine": m["start_line"],
                                                    "endLine": m["end_line"]})
        refs.append(r)
    counts = {s: want["counts"][s] for s in STATUSES}
    counts["unverifiable"] = 0
    sources = sorted({e["source_ref"].split(":", 1)[1] for e in want["references"]})
    return {"to": {s: want["head_commit"] for s in sources}, "counts": counts,
            "references": refs}


def self_test(want):
    good = to_json(want)
    problems = compare(good, want)
    if problems:
        return ["the converted drift.yaml disagrees with itself:"] + problems
    failures = []
    changed = next(i for i, r in enumerate(good["references"]) if r["status"] == "changed")
    moved = next(i for i, r in enumerate(good["references"]) if r["status"] == "moved")

    def mutation(name, fn):
        doc = copy.deepcopy(good)
        fn(doc)
        if not compare(doc, want):
            failures.append(f"mutation not caught: {name}")

    mutation("status", lambda d: d["references"][moved].update(status="changed"))
    mutation("moved range", lambda d: d["references"][moved].update(
        newStartLine=d["references"][moved]["newStartLine"] + 1))
    mutation("mapped range", lambda d: d["references"][changed].update(mapped=None)
             if d["references"][changed]["mapped"] else
             d["references"][changed].update(mapped={"startLine": 1, "endLine": 1}))
    mutation("occurrences", lambda d: d["references"][changed].update(
        occurrences=d["references"][changed]["occurrences"] + 1))
    mutation("dropped reference", lambda d: d["references"].pop())
    mutation("counts", lambda d: d["counts"].update(moved=d["counts"]["moved"] + 1))
    mutation("to", lambda d: d["to"].update({next(iter(d["to"])): "0" * 40}))
    return failures


def main(argv):
    if len(argv) == 3 and argv[1] == "--self-test":
        want = load_yaml(open(argv[2], encoding="utf-8").read())
        failures = self_test(want)
        for f in failures:
            print(f)
        if failures:
            return 1
        print(f"self-test ok: {len(want['references'])} references, mutations caught")
        return 0
    if len(argv) != 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    src = sys.stdin if argv[1] == "-" else open(argv[1], encoding="utf-8")
    got = json.load(src)
    want = load_yaml(open(argv[2], encoding="utf-8").read())
    bad = compare(got, want)
    for b in bad:
        print(b)
    if bad:
        print(f"{len(bad)} disagreements over {len(want['references'])} references")
        return 1
    c = got["counts"]
    print(f"{len(want['references'])} references agree: " +
          ", ".join(f"{c.get(s, 0)} {s}" for s in STATUSES))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
