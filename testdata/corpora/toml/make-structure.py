#!/usr/bin/env python3
"""Writes ws/knowledge/structure.yaml and ws/sources/repo/index.yaml from REFS, computing each
content digest from the pinned commit (tag v0.8.19) of repo.git. Rewrites both files identically.

The reference table of the pages' writer (stop 51's Rust trace walk): page -> section -> cited
(path, first line, last line) at that commit. Digests follow the workspace format's rule: split
on \n, drop one trailing \r per line, join the lines with \n, sha256."""
import hashlib, subprocess, os, re
HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "repo.git")
KB = os.path.join(HERE, "ws")
COMMIT = subprocess.check_output(["git", "-C", SRC, "rev-parse", "v0.8.19^{commit}"], text=True).strip()
E, T, D = "crates/toml_edit/src/", "crates/toml/src/", "crates/toml_datetime/src/"
REFS = {
 "errors/parse-errors.md": {
  "display-format": [(E+"error.rs", 4, 11), (E+"error.rs", 87, 152)],
  "line-column": [(E+"error.rs", 160, 187)],
  "parse-entry": [(E+"parser/mod.rs", 19, 33), (E+"error.rs", 13, 49)],
  "expected-equals": [(E+"parser/document.rs", 99, 130)],
  "trailing-content": [(E+"parser/document.rs", 109, 116), (E+"parser/trivia.rs", 125, 129)],
  "table-header": [(E+"parser/table.rs", 25, 48), (E+"parser/table.rs", 75, 89)],
  "invalid-string": [(E+"parser/value.rs", 16, 85)],
  "inline-tables": [(E+"parser/inline_table.rs", 17, 32)],
  "arrays": [(E+"parser/array.rs", 14, 29)],
 },
 "errors/duplicate-keys.md": {
  "duplicate-key": [(E+"parser/state.rs", 74, 103), (E+"parser/error.rs", 60, 74)],
  "duplicate-table": [(E+"parser/state.rs", 138, 173), (E+"parser/error.rs", 21, 43)],
  "dotted-extend": [(E+"parser/state.rs", 228, 269), (E+"parser/error.rs", 45, 51)],
  "error-kinds": [(E+"parser/error.rs", 6, 19), (E+"parser/error.rs", 60, 87)],
 },
 "errors/strings-and-escapes.md": {
  "escape-sequences": [(E+"parser/strings.rs", 98, 136)],
  "unicode-escapes": [(E+"parser/strings.rs", 138, 145)],
  "literal-strings": [(E+"parser/strings.rs", 256, 282)],
  "multiline-strings": [(E+"parser/strings.rs", 147, 162)],
 },
 "errors/numbers-and-dates.md": {
  "integers": [(E+"parser/numbers.rs", 37, 89)],
  "hex-oct-bin": [(E+"parser/numbers.rs", 91, 188)],
  "floats": [(E+"parser/numbers.rs", 192, 243)],
  "integer-range": [(E+"de/value.rs", 61, 90)],
  "datetime-syntax": [(E+"parser/datetime.rs", 20, 86), (E+"parser/datetime.rs", 141, 167)],
  "datetime-fromstr": [(D+"datetime.rs", 291, 335), (D+"datetime.rs", 678, 684)],
  "datetime-deserialize": [(E+"de/value.rs", 141, 153)],
 },
 "serde/deserialize.md": {
  "from-str": [(T+"de.rs", 7, 46), (E+"de/mod.rs", 88, 106)],
  "error-type": [(T+"de.rs", 48, 90), (E+"de/mod.rs", 23, 86)],
  "missing-field": [(E+"de/value.rs", 126, 170)],
  "invalid-type": [(E+"de/value.rs", 61, 90)],
  "unknown-fields": [(E+"de/mod.rs", 290, 321), (E+"de/value.rs", 155, 170)],
  "top-level-type": [(E+"de/mod.rs", 167, 200)],
  "error-keys": [(E+"de/table.rs", 134, 181)],
 },
 "serde/enums.md": {
  "string-variants": [(E+"de/value.rs", 175, 216)],
  "table-variants": [(E+"de/table.rs", 60, 83), (E+"de/table.rs", 183, 214)],
  "wrong-shape": [(E+"de/value.rs", 206, 216)],
  "unit-variant-tables": [(E+"de/table_enum.rs", 14, 52)],
 },
 "serde/serialize.md": {
  "to-string": [(T+"ser.rs", 7, 74)],
  "ser-error-kinds": [(E+"ser/mod.rs", 17, 66), (T+"ser.rs", 76, 128)],
  "none-values": [(E+"ser/value.rs", 143, 160), (E+"ser/map.rs", 190, 212)],
  "map-keys": [(E+"ser/key.rs", 5, 45)],
 },
 "api/values-and-documents.md": {
  "value-index": [(T+"value.rs", 228, 246)],
  "edit-index": [(E+"index.rs", 82, 142)],
  "document-parse": [(E+"document.rs", 169, 178)],
  "table-type": [(T+"table.rs", 10, 15), (T+"table.rs", 53, 59)],
 },
}
def digest(path, s, e):
    text = subprocess.check_output(["git", "-C", SRC, "show", f"{COMMIT}:{path}"], text=True)
    lines = text.split("\n")
    assert e <= len(lines), (path, e)
    return hashlib.sha256("\n".join(l.rstrip("\r") for l in lines[s-1:e]).encode()).hexdigest()
out = ["schema_version: context.approved-structure.v1", "articles:"]
n = 0
for page, secs in REFS.items():
    ids = re.findall(r'context:section id="([^"]+)"', open(os.path.join(KB, "knowledge", page)).read())
    assert ids == list(secs), (page, ids, list(secs))
    out += [f"  - article_id: {page.split('/')[-1][:-3]}", f"    path: {page}",
            f"    collection: {page.split('/')[0]}", "    visibility: public", "    sections:"]
    for sid, refs in secs.items():
        out += [f"      - id: {sid}", "        references:"]
        for p, s, e in refs:
            n += 1
            out += ["          - source_ref: repo:toml-rs/toml",
                    f"            locator: {{path: {p}, start_line: {s}, end_line: {e}}}",
                    f"            content_digest: sha256:{digest(p, s, e)}"]
open(os.path.join(KB, "knowledge/structure.yaml"), "w").write("\n".join(out) + "\n")
open(os.path.join(KB, "sources/repo/index.yaml"), "w").write(f"""sources:
  - name: toml-rs
    modules:
      - name: toml
        subpath: ""
        git:
          remote: https://github.com/toml-rs/toml
          ref: "{COMMIT}"
""")
print(f"{sum(len(s) for s in REFS.values())} sections, {n} references at {COMMIT}")
