#!/usr/bin/env python3
"""Check a Context knowledge workspace the way the fixtures promise it is.

Independent of ontoly (Python 3 standard library only), so the fixtures can be trusted before
the engine that reads them exists:

- every section marker pairs up (the rules of shared/spec/formats.md: fences, entity-encoded
  ids, nested / duplicate / unmatched / unclosed / invalid markers);
- structure.yaml and the markers list the same articles and sections;
- every `repo:` reference resolves through sources/repo/index.yaml, and, when ontoly.toml maps
  its remote (or `<source>/<module>`) to a local git repository, its digest matches the cited
  lines at the module's ref; `note:` / `sessions:` references name existing files;
- relative markdown links between pages point at existing pages.

Usage: check_workspace.py WORKSPACE [--allow CODE:PATH#SECTION ...] [--quiet]

Exit 0 when every problem found is allowed (each --allow must also be found), else 1.
"""

import argparse
import hashlib
import os
import re
import subprocess
import sys
import tomllib

# ---------------------------------------------------------------- a small YAML subset
# Enough for structure.yaml and the source registries as Context writes them: block mappings
# and sequences, flow maps of scalars, `[]`, quoted and plain scalars, comments.


class YamlError(Exception):
    pass


def _strip_comment(text):
    out, quote = [], None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"" and (i == 0 or text[i - 1] in " :[{,"):
            quote = ch
        elif ch == "#" and (i == 0 or text[i - 1] == " "):
            break
        out.append(ch)
    return "".join(out).rstrip()


def _scalar(text):
    text = text.strip()
    if text == "":
        return None
    if text[0] == '"' and text[-1] == '"' and len(text) >= 2:
        return bytes(text[1:-1], "utf-8").decode("unicode_escape")
    if text[0] == "'" and text[-1] == "'" and len(text) >= 2:
        return text[1:-1].replace("''", "'")
    if text == "[]":
        return []
    if text == "{}":
        return {}
    if text[0] == "{" and text[-1] == "}":
        out = {}
        for part in text[1:-1].split(","):
            k, sep, v = part.partition(":")
            if not sep:
                raise YamlError(f"bad flow map entry {part!r}")
            out[k.strip()] = _scalar(v)
        return out
    if text[0] == "[" and text[-1] == "]":
        return [_scalar(p) for p in text[1:-1].split(",")]
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    if text in ("null", "~"):
        return None
    if text in ("true", "false"):
        return text == "true"
    return text


def _split_key(text):
    m = re.match(r'^("[^"]*"|\'[^\']*\'|[^:#][^:]*?):(\s+|$)(.*)$', text)
    if not m:
        return None
    key = m.group(1)
    if key[0] in "'\"":
        key = key[1:-1]
    return key, m.group(3)


def parse_yaml(text):
    lines = []
    for n, raw in enumerate(text.split("\n"), 1):
        raw = raw.rstrip("\r")
        body = _strip_comment(raw)
        if body.strip() == "" or body.strip() == "---":
            continue
        indent = len(body) - len(body.lstrip(" "))
        lines.append([indent, body.strip(), n])
    value, i = _block(lines, 0, lines[0][0] if lines else 0)
    if i != len(lines):
        raise YamlError(f"line {lines[i][2]}: unexpected indentation")
    return value


def _block(lines, i, indent):
    if i >= len(lines) or lines[i][0] < indent:
        return None, i
    if lines[i][1] == "-" or lines[i][1].startswith("- "):
        seq = []
        while i < len(lines) and lines[i][0] == indent and (
                lines[i][1] == "-" or lines[i][1].startswith("- ")):
            rest = lines[i][1][2:].strip() if lines[i][1] != "-" else ""
            if rest == "":
                val, i = _block(lines, i + 1, indent + 1 if i + 1 >= len(lines)
                                else max(lines[i + 1][0], indent + 1))
                seq.append(val)
            elif _split_key(rest) and not rest.startswith(("{", "[")):
                lines[i] = [indent + 2, rest, lines[i][2]]
                val, i = _mapping(lines, i, indent + 2)
                seq.append(val)
            else:
                seq.append(_scalar(rest))
                i += 1
        return seq, i
    return _mapping(lines, i, indent)


def _mapping(lines, i, indent):
    out = {}
    while i < len(lines) and lines[i][0] == indent:
        kv = _split_key(lines[i][1])
        if kv is None:
            raise YamlError(f"line {lines[i][2]}: expected `key: value`")
        key, rest = kv
        if key in out:
            raise YamlError(f"line {lines[i][2]}: duplicate key {key!r}")
        if rest.strip() == "":
            nxt = i + 1
            if nxt < len(lines) and (lines[nxt][0] > indent or (
                    lines[nxt][0] == indent and lines[nxt][1].startswith("- "))):
                out[key], i = _block(lines, nxt, lines[nxt][0])
            else:
                out[key], i = None, nxt
        else:
            out[key] = _scalar(rest)
            i += 1
    if i < len(lines) and lines[i][0] > indent:
        raise YamlError(f"line {lines[i][2]}: unexpected indentation")
    return out, i


# ---------------------------------------------------------------- section markers

OPEN_RE = re.compile(r'^<!--\s+context:section\s+id="([^"]*)"\s+-->$')
CLOSE_RE = re.compile(r"^<!--\s+/context:section\s+-->$")
ANY_RE = re.compile(r"^<!--\s*/?context:section")
FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


def decode_id(raw):
    return raw.replace("&quot;", '"').replace("&lt;", "<").replace("&gt;", ">").replace(
        "&amp;", "&")


def parse_markers(text):
    """-> (sections [(id, start, end)], errors [(line, message)])."""
    sections, errors, seen = [], [], set()
    open_ = None
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        line = line[:-1] if line.endswith("\r") else line
        if fence:
            m = FENCE_RE.match(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and m.group(2).strip() == "":
                fence = None
            continue
        m = FENCE_RE.match(line)
        if m:
            fence = m.group(1)
            continue
        s = line.strip()
        om = OPEN_RE.match(s)
        if om:
            sid = decode_id(om.group(1))
            if open_:
                errors.append((n, "Nested section marker"))
            elif sid in seen:
                errors.append((n, "Duplicate section marker"))
            else:
                seen.add(sid)
                open_ = (sid, n)
        elif CLOSE_RE.match(s):
            if not open_:
                errors.append((n, "Unmatched section end"))
            else:
                sections.append((open_[0], open_[1], n))
                open_ = None
        elif ANY_RE.match(s):
            errors.append((n, "Invalid section marker"))
    if open_:
        errors.append((open_[1], "Unclosed section marker"))
    return sections, errors


# ---------------------------------------------------------------- sources

def normalize_remote(remote):
    m = re.match(r"^(?:https?://|ssh://git@)([A-Za-z0-9.-]+)/([A-Za-z0-9/._-]+?)(?:\.git)?/?$",
                 remote) or re.match(r"^git@([A-Za-z0-9.-]+):([A-Za-z0-9/._-]+?)(?:\.git)?$",
                                     remote)
    return f"{m.group(1)}/{m.group(2)}" if m else None


def is_full_commit(s):
    return isinstance(s, str) and len(s) in (40, 64) and all(
        c in "0123456789abcdefABCDEF" for c in s)


def range_digest(text, start, end):
    lines = [l[:-1] if l.endswith("\r") else l for l in text.split("\n")]
    if start < 1 or end < start or end > len(lines):
        return None
    body = "\n".join(lines[start - 1:end])
    return "sha256:" + hashlib.sha256(body.encode("utf-8")).hexdigest()


class Repo:
    """Reads blobs from a local git repository (work tree or bare) with one cat-file process."""

    def __init__(self, path):
        self.path = path
        self.proc = None

    def resolve(self, ref):
        res = subprocess.run(["git", "-C", self.path, "rev-parse", "--verify", "-q",
                              ref + "^{commit}"], capture_output=True, text=True)
        return res.stdout.strip() if res.returncode == 0 else None

    def blob(self, commit, path):
        if self.proc is None:
            self.proc = subprocess.Popen(["git", "-C", self.path, "cat-file", "--batch"],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.proc.stdin.write(f"{commit}:{path}\n".encode())
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().decode().split()
        if len(header) != 3 or header[1] != "blob":
            return None
        data = self.proc.stdout.read(int(header[2]))
        self.proc.stdout.read(1)
        return data

    def close(self):
        if self.proc:
            self.proc.stdin.close()
            self.proc.wait()


# ---------------------------------------------------------------- the check

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("workspace")
    ap.add_argument("--allow", action="append", default=[],
                    help="an expected problem, CODE:PATH#SECTION (must occur)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    ws = args.workspace
    kdir = os.path.join(ws, "knowledge")
    problems = []  # (code, key, message)
    stats = {"pages": 0, "sections": 0, "references": 0, "verified": 0, "unverified": 0}

    def problem(code, key, msg):
        problems.append((code, key, msg))

    # Pages ----------------------------------------------------------------------------
    pages = {}
    for root, dirs, files in os.walk(kdir):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".md"):
                full = os.path.join(root, f)
                rel = os.path.relpath(full, kdir).replace(os.sep, "/")
                with open(full, "rb") as fh:
                    text = fh.read().decode("utf-8")
                secs, errs = parse_markers(text)
                for line, msg in errs:
                    problem("marker", f"{rel}:{line}", msg)
                pages[rel] = {"sections": {s[0]: (s[1], s[2]) for s in secs}, "text": text}
                stats["pages"] += 1
                for target in re.findall(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)", text):
                    if "://" in target:
                        continue
                    dest = os.path.normpath(os.path.join(os.path.dirname(rel), target))
                    if dest.replace(os.sep, "/") not in pages and not os.path.exists(
                            os.path.join(kdir, dest)):
                        problem("broken_link", rel, f"link to {target} does not resolve")

    # Structure ------------------------------------------------------------------------
    with open(os.path.join(kdir, "structure.yaml"), encoding="utf-8") as fh:
        structure = parse_yaml(fh.read())
    if structure.get("schema_version") != "context.approved-structure.v1":
        problem("schema", "structure.yaml", f"schema_version {structure.get('schema_version')}")

    registry_path = os.path.join(ws, "sources", "repo", "index.yaml")
    modules = {}
    if os.path.exists(registry_path):
        with open(registry_path, encoding="utf-8") as fh:
            reg = parse_yaml(fh.read()) or {}
        for src in reg.get("sources") or []:
            for mod in src.get("modules") or []:
                modules[f"{src['name']}/{mod['name']}"] = mod

    clones = {}
    toml_path = os.path.join(ws, "ontoly.toml")
    if os.path.exists(toml_path):
        with open(toml_path, "rb") as fh:
            clones = tomllib.load(fh).get("sources", {})
    repos = {}

    def repo_for(name, mod):
        remote = (mod.get("git") or {}).get("remote", "")
        path = clones.get(normalize_remote(remote) or "") or clones.get(name)
        if not path:
            return None
        if path not in repos:
            repos[path] = Repo(os.path.join(ws, path))
        return repos[path]

    listed = set()
    for art in structure.get("articles") or []:
        path = art.get("path")
        listed.add(path)
        page = pages.get(path)
        if page is None:
            problem("missing_page", path, "article in structure.yaml has no page")
            continue
        sec_ids = set()
        for sec in art.get("sections") or []:
            sid = str(sec.get("id"))
            key = f"{path}#{sid}"
            sec_ids.add(sid)
            stats["sections"] += 1
            if sid not in page["sections"]:
                problem("missing_marker", key, "section in structure.yaml has no marker")
            refs = sec.get("references") or []
            if len(refs) > 3:
                problem("too_many_refs", key, f"{len(refs)} references")
            for ref in refs:
                stats["references"] += 1
                check_ref(ws, key, ref, modules, repo_for, problem, stats)
        for sid in page["sections"]:
            if sid not in sec_ids:
                problem("missing_structure", f"{path}#{sid}", "marker not in structure.yaml")
    for rel in pages:
        if rel not in listed and pages[rel]["sections"]:
            problem("missing_article", rel, "page with sections is not in structure.yaml")
    for r in repos.values():
        r.close()

    # Report ---------------------------------------------------------------------------
    allowed = set(args.allow)
    found = set()
    unexpected = []
    for code, key, msg in problems:
        tag = f"{code}:{key}"
        if tag in allowed:
            found.add(tag)
            if not args.quiet:
                print(f"expected  {tag}: {msg}")
        else:
            unexpected.append(f"PROBLEM   {tag}: {msg}")
    for line in unexpected:
        print(line)
    for tag in sorted(allowed - found):
        print(f"MISSING   expected problem did not occur: {tag}")
    print(f"{stats['pages']} pages, {stats['sections']} sections, {stats['references']} "
          f"references ({stats['verified']} digests verified against git, "
          f"{stats['unverified']} without a local clone), {len(problems)} problems "
          f"({len(found)} expected)")
    return 1 if unexpected or allowed - found else 0


def check_ref(ws, key, ref, modules, repo_for, problem, stats):
    sref = str(ref.get("source_ref", ""))
    digest = ref.get("content_digest")
    if not (isinstance(digest, str) and re.fullmatch(r"sha256:[0-9a-fA-F]{64}", digest)):
        problem("bad_digest", key, f"{sref}: content_digest {digest!r}")
        return
    loc = ref.get("locator") or {}
    if sref.startswith(("note:", "sessions:")):
        kind, _, name = sref.partition(":")
        if not re.fullmatch(r"[0-9]{8}/[^/]+\.md", name):
            problem("bad_note", key, f"{sref}: invalid managed document identity")
        elif not os.path.isfile(os.path.join(ws, "sources", kind, name)):
            problem("missing_note", key, f"{sref}: file does not exist")
        else:
            with open(os.path.join(ws, "sources", kind, name), encoding="utf-8") as fh:
                got = range_digest(fh.read(), loc.get("start_line", 1), loc.get("end_line", 1))
            if got is None:
                problem("bad_range", key, f"{sref}: lines out of range")
            elif got.lower() != digest.lower():
                problem("digest_mismatch", key, f"{sref}: {digest} != {got}")
            else:
                stats["verified"] += 1
        return
    if not sref.startswith("repo:"):
        stats["unverified"] += 1
        return
    name = sref[len("repo:"):]
    mod = modules.get(name)
    if mod is None:
        problem("unregistered", key, f"{sref} is not in sources/repo/index.yaml")
        return
    gitinfo = mod.get("git") or {}
    ref_name = str(gitinfo.get("ref", ""))
    if not is_full_commit(ref_name):
        problem("unpinned", key, f"{sref} pins ref {ref_name!r}, not a full commit")
    repo = repo_for(name, mod)
    if repo is None:
        stats["unverified"] += 1
        return
    commit = ref_name if is_full_commit(ref_name) else repo.resolve(ref_name)
    sub = (mod.get("subpath") or "").strip("/")
    path = f"{sub}/{loc.get('path')}" if sub else str(loc.get("path"))
    data = repo.blob(commit, path) if commit else None
    if data is None:
        problem("missing_blob", key, f"{sref}: {path} not found at {ref_name}")
        return
    got = range_digest(data.decode("utf-8"), int(loc.get("start_line", 0)),
                       int(loc.get("end_line", 0)))
    if got is None:
        problem("bad_range", key, f"{sref}: {path}:{loc.get('start_line')}-"
                                  f"{loc.get('end_line')} out of range")
    elif got.lower() != digest.lower():
        problem("digest_mismatch", key, f"{sref}: {path} digest {digest} != {got}")
    else:
        stats["verified"] += 1


if __name__ == "__main__":
    sys.exit(main())
