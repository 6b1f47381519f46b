"""Writes a corpus's ws/knowledge/structure.yaml from its reference table (shared by the
corpora's make-structure.py scripts, which hold only the table and their source's name).

A table is a list of (article_id, path under knowledge/, sections); each section is (id, refs)
in page order, and each reference (module, path, start, end, anchor): the module's key in
`subpath` (its directory in the repository, "" for the root), the path inside the module, the
cited 1-based inclusive line range at the base commit, and a text that must occur in the first
cited line (a guard against off-by-one ranges). It checks that each page's section markers
appear in the same order as the table, that every section has 1-3 references and every range
5-60 lines inside the file, and computes each content_digest by the rule of the workspace
format: split the file on "\\n", drop one trailing "\\r" per line, join lines start..end with
"\\n" and take the sha256 of the UTF-8 bytes.
"""

import hashlib
import os
import re
import subprocess
import sys

MARKER = re.compile(r'^\s*<!-- context:section id="([^"]*)" -->\s*$')


def die(msg):
    sys.exit("make-structure.py: " + msg)


def write_structure(here, source, base, subpath, articles):
    """Writes <here>/ws/knowledge/structure.yaml for `source` (the registry's source name) from
    `articles`, reading <here>/repo.git at `base`."""
    repo = os.path.join(here, "repo.git")
    ws = os.path.join(here, "ws")
    cache = {}

    def lines_at(path):
        if path not in cache:
            res = subprocess.run(["git", "--git-dir", repo, "show", f"{base}:{path}"],
                                 capture_output=True)
            if res.returncode != 0:
                die(f"git show {base}:{path}: {res.stderr.decode().strip()}")
            cache[path] = [ln[:-1] if ln.endswith("\r") else ln
                           for ln in res.stdout.decode("utf-8").split("\n")]
        return cache[path]

    out = ["schema_version: context.approved-structure.v1", "articles:"]
    n_sec = n_ref = 0
    for aid, path, sections in articles:
        page = open(os.path.join(ws, "knowledge", path), encoding="utf-8").read()
        ids = [m.group(1) for m in (MARKER.match(ln) for ln in page.split("\n")) if m]
        want = [sid for sid, _ in sections]
        if ids != want:
            die(f"{path}: markers {ids} != table {want}")
        out += [f"  - article_id: {aid}", f"    path: {path}",
                f"    collection: {path.split('/')[0]}", "    visibility: public",
                "    sections:"]
        for sid, refs in sections:
            n_sec += 1
            if not 1 <= len(refs) <= 3:
                die(f"{aid}#{sid}: {len(refs)} references")
            out += [f"      - id: {sid}", "        references:"]
            for module, rel, start, end, anchor in refs:
                n_ref += 1
                full = f"{subpath[module]}/{rel}" if subpath[module] else rel
                lines = lines_at(full)
                where = f"{aid}#{sid} {full}:{start}-{end}"
                if not (1 <= start <= end <= len(lines)) or not 5 <= end - start + 1 <= 60:
                    die(f"{where}: bad range (file has {len(lines)} lines)")
                if anchor not in lines[start - 1]:
                    die(f"{where}: line {start} is {lines[start - 1]!r}, expected {anchor!r}")
                body = "\n".join(lines[start - 1:end])
                digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
                out += [f"          - source_ref: repo:{source}/{module}",
                        "            locator:",
                        f"              path: {rel}",
                        f"              start_line: {start}",
                        f"              end_line: {end}",
                        f"            content_digest: sha256:{digest}"]
    dst = os.path.join(ws, "knowledge", "structure.yaml")
    with open(dst, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(out) + "\n")
    print(f"{len(articles)} articles, {n_sec} sections, {n_ref} references -> "
          f"{os.path.relpath(dst)}")
