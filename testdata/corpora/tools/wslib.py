"""Shared helpers for building and checking evaluation corpora (Context knowledge workspaces).

Line and digest rules follow the workspace format: split on "\n", drop one trailing "\r" per line,
lines are 1-based and inclusive, digest = sha256 of the selected lines joined with "\n".
"""

import hashlib
import os
import re
import subprocess
import sys

MARKER_OPEN = re.compile(r'^\s*<!-- context:section id="([^"]*)" -->\s*$')
MARKER_CLOSE = re.compile(r"^\s*<!-- /context:section -->\s*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def die(msg):
    sys.exit("error: " + msg)


def git(repo, *args):
    res = subprocess.run(["git", "-C", repo, *args], capture_output=True)
    if res.returncode != 0:
        die(f"git {' '.join(args)}: {res.stderr.decode(errors='replace').strip()}")
    return res.stdout


def git_ok(repo, *args):
    res = subprocess.run(["git", "-C", repo, *args], capture_output=True)
    return res.returncode == 0, res.stdout


def split_lines(text):
    """formats.md: split on \\n and drop one trailing \\r per line."""
    return [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]


class Blobs:
    """Caches files read with `git show <commit>:<path>`, split into lines."""

    def __init__(self, repo):
        self.repo = repo
        self.cache = {}

    def lines(self, commit, path):
        key = (commit, path)
        if key not in self.cache:
            raw = git(self.repo, "show", f"{commit}:{path}")
            self.cache[key] = split_lines(raw.decode("utf-8"))
        return self.cache[key]

    def exists(self, commit, path):
        ok, out = git_ok(self.repo, "cat-file", "-t", f"{commit}:{path}")
        return ok and out.strip() == b"blob"


def digest(lines, start, end):
    body = "\n".join(lines[start - 1:end])
    return "sha256:" + hashlib.sha256(body.encode("utf-8")).hexdigest()


def unescape_id(s):
    return (s.replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">")
            .replace("&amp;", "&"))


def page_sections(text):
    """Section ids of a page in order, with their text, honouring fenced code blocks.

    Returns [(id, start_line, end_line, body_lines)]; raises ValueError on marker errors.
    """
    out = []
    fence = None
    cur = None
    for no, line in enumerate(split_lines(text), 1):
        if fence:
            m = FENCE.match(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and line.strip() == m.group(1):
                fence = None
            if cur:
                cur[3].append(line)
            continue
        m = FENCE.match(line)
        if m:
            fence = m.group(1)
            if cur:
                cur[3].append(line)
            continue
        mo = MARKER_OPEN.match(line)
        if mo:
            if cur:
                raise ValueError(f"line {no}: nested opening marker")
            cur = [unescape_id(mo.group(1)), no, None, []]
            continue
        if MARKER_CLOSE.match(line):
            if not cur:
                raise ValueError(f"line {no}: closing marker without open section")
            cur[2] = no
            out.append(tuple(cur))
            cur = None
            continue
        if line.lstrip().startswith("<!-- context:section"):
            raise ValueError(f"line {no}: invalid section marker")
        if cur:
            cur[3].append(line)
    if cur:
        raise ValueError("unclosed section at end of page")
    if fence:
        raise ValueError("unclosed code fence")
    ids = [s[0] for s in out]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ValueError(f"duplicate section ids {sorted(dup)}")
    return out


def front_matter(text):
    """The YAML front matter of a page as a string, or None."""
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---\n", 4)
    if end < 0:
        return None
    return text[4:end]


# --- anchor resolution ------------------------------------------------------------------------

def _find(lines, text, start=0, unique=True, where=""):
    hits = [i for i in range(start, len(lines)) if text in lines[i]]
    if not hits:
        die(f"{where}: anchor {text!r} not found")
    if unique and start == 0 and len(hits) != 1:
        die(f"{where}: anchor {text!r} found {len(hits)} times (use after= or span=)")
    return hits[0]


def _py_block_end(lines, i, where):
    """Last line index of the Python def/class whose header starts at index i."""
    indent = len(lines[i]) - len(lines[i].lstrip())
    depth = 0
    j = i
    while True:
        for ch in lines[j]:
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
        if depth <= 0 and lines[j].rstrip().endswith(":"):
            break
        j += 1
        if j >= len(lines):
            die(f"{where}: unterminated signature")
    end = j
    for k in range(j + 1, len(lines)):
        s = lines[k]
        if s.strip() == "":
            continue
        if len(s) - len(s.lstrip()) <= indent:
            break
        end = k
    return end


def resolve(lines, ref, where):
    """(start, end) 1-based for a reference declaration.

    ref keys: anchor (text in the first cited line), span=(start, end) explicit lines whose start
    line must contain anchor, after= (search the anchor after the first line containing this
    text), n= (number of lines), end= (text of the last line, searched from the anchor).
    Without span/n/end the anchor must start a Python def/class: the range is the whole
    definition including decorators.
    """
    anchor = ref["anchor"]
    if "span" in ref:
        s, e = ref["span"]
        if not (1 <= s <= e <= len(lines)):
            die(f"{where}: span {s}-{e} outside file of {len(lines)} lines")
        if anchor not in lines[s - 1]:
            die(f"{where}: line {s} is {lines[s - 1]!r}, expected it to contain {anchor!r}")
        return s, e
    start = 0
    if "after" in ref:
        start = _find(lines, ref["after"], where=where, unique=False) + 1
    i = _find(lines, anchor, start=start, where=where)
    if "n" in ref:
        return i + 1, i + ref["n"]
    if "end" in ref:
        j = _find(lines, ref["end"], start=i, unique=False, where=where)
        return i + 1, j + 1
    head = lines[i].lstrip()
    if not head.startswith(("def ", "class ", "async def ")):
        die(f"{where}: anchor {anchor!r} is not a def/class; give span=, n= or end=")
    j = _py_block_end(lines, i, where)
    while i > 0 and lines[i - 1].lstrip().startswith("@"):
        i -= 1
    return i + 1, j + 1
