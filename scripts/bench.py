#!/usr/bin/env python3
"""Build and query benchmarks of `ontoly` on generated workspaces (issue 10).

For each size (sections) it measures, in one run and against the floor measured in the same
run:

- floor: `ontoly hash-inputs` (list, read and blake3 every input file, nothing else);
- cold: `ontoly build` with no `.ontoly/` cache (includes writing the snapshot);
- warm: `ontoly build` again, nothing changed (the snapshot is loaded);
- one page: `ontoly build` after one section of one page changed (a sentence added to its
  body, so the graph and its hash change as with a real edit; the page's parse is redone, the
  other pages' parses are reused);
- peak RSS of each kind of run (the child's ru_maxrss, from wait4);
- snapshot bytes on disk (graph, parse cache, search index) against the input bytes;
- query: `ontoly evidence <q> --format json` as a fresh process with a warm snapshot, several
  queries, median and spread.

Every measure is repeated (--repeat) and reported as the best run with the spread (min-max) in
a second table: the machine these figures come from is shared and noisy, so the best run is the
closest to the cost of the work and the spread says how much to trust it.

The binary is a parameter (--bin), so the same run can time another build of ontoly (e.g. the
release binary of main). Workspaces are generated once into testdata/generated/<N>
(git-ignored) by testdata/gen/generate.py and reused.

    scripts/bench.py [--bin PATH] [--sizes 1000,10000,100000] [--1m] [--repeat N]
                     [--only build|evidence] [--json FILE] [--gen-args '...']

At 1M (default shape) the workspace is 1.2 GB (a 739 MB structure.yaml, read in chunks under
the per-chunk YAML limit) and each build writes a snapshot of about 1.5x that; a cold build
peaks near 15 GB (docs/scale.md section 9).
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Queries in the generated vocabulary's real words (every size has them), one per kind of
# question: prose, a concept pair, a verb phrase, a path-like identifier, a symbol-like one.
QUERIES = [
    "how does checkout retry failed payments",
    "cache eviction policy for the session store",
    "where is the webhook signature verified",
    "token refresh timeout and backoff",
    "ledger reconcile invoice refund",
    "src/scheduler.rs queue_lease",
]


CPU = {}


def run_rss(cmd):
    """Runs cmd with stdout to a pipe drained by us; returns (wall s, peak RSS bytes, stdout).
    The child's CPU time (user + system) is appended to CPU[label] by the callers' label."""
    r, w = os.pipe()
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(w, 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        try:
            os.execv(cmd[0], cmd)
        finally:
            os._exit(127)
    os.close(w)
    chunks = []
    while True:
        b = os.read(r, 1 << 16)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    _, status, ru = os.wait4(pid, 0)
    t1 = time.perf_counter()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 3):
        sys.exit(f"{' '.join(cmd)} exited {code}")
    run_rss.last_cpu = ru.ru_utime + ru.ru_stime
    return t1 - t0, ru.ru_maxrss * 1024, b"".join(chunks)


def rm_cache(ws):
    subprocess.run(["rm", "-rf", os.path.join(ws, ".ontoly")], check=True)


def dir_bytes(path):
    total = 0
    for dp, _, fs in os.walk(path):
        for f in fs:
            total += os.path.getsize(os.path.join(dp, f))
    return total


def snapshot_files(ws):
    """Bytes of every file of the snapshot cache (graph, parse cache, artifacts such as the
    search index), by path under .ontoly/."""
    base = os.path.join(ws, ".ontoly")
    out = {}
    for dp, _, fs in os.walk(base):
        for f in fs:
            if f.startswith("."):
                continue
            p = os.path.join(dp, f)
            out[os.path.relpath(p, base)] = os.path.getsize(p)
    return out


def generate(ws, n, extra):
    if os.path.isfile(os.path.join(ws, "knowledge", "structure.yaml")):
        return None
    print(f"generating {ws} ...", file=sys.stderr)
    t, rss, _ = run_rss([sys.executable, os.path.join(ROOT, "testdata/gen/generate.py"),
                         "--out", ws, "--sections", str(n), "--force", *extra])
    return t, rss


def pick_page(ws):
    """A page in the middle of the sorted page list: the one the one-page-changed run edits."""
    pages = []
    kdir = os.path.join(ws, "knowledge")
    for dp, _, fs in os.walk(kdir):
        for f in fs:
            if f.endswith(".md"):
                pages.append(os.path.join(dp, f))
    pages.sort()
    return pages[len(pages) // 2]


class Toggle:
    """Flips one page between its original text and an edited one: a sentence added to the body
    of its last section. (A line after the last section would change no node: the graph, its
    hash and the search index would stay, which is not what an edit of a page usually does.)"""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            self.original = f.read()
        end = self.original.rfind(b"<!-- /context:section -->")
        if end < 0:
            sys.exit(f"{path}: no section to edit")
        self.edited = (
            self.original[:end] + b"A sentence added by the benchmark.\n\n" + self.original[end:]
        )
        self.state = False

    def flip(self):
        self.state = not self.state
        with open(self.path, "wb") as f:
            f.write(self.edited if self.state else self.original)

    def restore(self):
        if self.state:
            self.flip()


def spread(xs):
    return f"{min(xs):.3f}-{max(xs):.3f}"


def fmt_mb(b):
    return f"{b / 1e6:.0f}" if b >= 10e6 else f"{b / 1e6:.1f}"


def measure_size(binary, n, repeat, only, gen_args):
    extra = gen_args.split()
    # Another shape is another workspace: its directory name says which.
    suffix = re.sub(r"[^A-Za-z0-9]+", "-", gen_args).strip("-")
    ws = os.path.join(ROOT, "testdata", "generated", f"{n}-{suffix}" if suffix else str(n))
    gen = generate(ws, n, extra)
    res = {"sections": n, "workspace": os.path.relpath(ws, ROOT)}
    if gen:
        res["generate_s"], res["generate_rss"] = gen
    base = [binary, "--workspace", ws]
    cpu = {}
    res["cpu"] = cpu
    floor = []
    out = b""
    for _ in range(repeat):
        t, _, out = run_rss(base + ["hash-inputs", "--format", "json"])
        floor.append(t)
        cpu.setdefault("floor", []).append(run_rss.last_cpu)
    info = json.loads(out)
    res["input_bytes"] = info["bytes"]
    res["input_files"] = info["files"]
    res["floor"] = floor
    if only in (None, "build"):
        cold, cold_rss, hashes = [], [], set()
        for _ in range(repeat):
            rm_cache(ws)
            t, rss, out = run_rss(base + ["build", "--format", "json"])
            cold.append(t)
            cpu.setdefault("cold", []).append(run_rss.last_cpu)
            cold_rss.append(rss)
            hashes.add(json.loads(out)["graphHash"])
        snap = snapshot_files(ws)
        warm, warm_rss = [], []
        for _ in range(repeat):
            t, rss, out = run_rss(base + ["build", "--format", "json"])
            j = json.loads(out)
            assert j["cache"]["status"] == "hit", j["cache"]
            hashes.add(j["graphHash"])
            warm.append(t)
            cpu.setdefault("warm", []).append(run_rss.last_cpu)
            warm_rss.append(rss)
        toggle = Toggle(pick_page(ws))
        page, page_rss = [], []
        try:
            for _ in range(repeat):
                toggle.flip()
                t, rss, out = run_rss(base + ["build", "--format", "json"])
                j = json.loads(out)
                assert j["cache"]["pagesParsed"] == 1, j["cache"]
                page.append(t)
                cpu.setdefault("page", []).append(run_rss.last_cpu)
                page_rss.append(rss)
        finally:
            toggle.restore()
        # Back to the original inputs' snapshot (not measured).
        _, _, out = run_rss(base + ["build", "--format", "json"])
        hashes.add(json.loads(out)["graphHash"])
        if len(hashes) != 1:
            sys.exit(f"graph hash differs between runs of {ws}: {sorted(hashes)}")
        res.update(cold=cold, cold_rss=max(cold_rss), warm=warm, warm_rss=max(warm_rss),
                   page=page, page_rss=max(page_rss), graph_hash=hashes.pop(), snapshot=snap)
    if only in (None, "evidence"):
        # Warm-up: builds the graph if needed and stores the search index artifact.
        run_rss(base + ["evidence", "warm up the snapshot", "--format", "json"])
        q, q_rss = [], []
        for _ in range(repeat):
            for query in QUERIES:
                t, rss, _ = run_rss(base + ["evidence", query, "--format", "json"])
                q.append(t)
                cpu.setdefault("query", []).append(run_rss.last_cpu)
                q_rss.append(rss)
        res.update(query=q, query_rss=max(q_rss))
        res.setdefault("snapshot", {}).update(snapshot_files(ws))
    return res


def report(rows, only):
    def ratio(x, f):
        return f"{x / max(f, 1e-4):.1f}x"

    b = rows[0]["binary"]
    shown = os.path.relpath(b, ROOT) if b.startswith(ROOT + os.sep) else os.path.basename(b)
    print(f"binary: {shown}; best of {rows[0]['repeat']} runs; load average at "
          f"start {rows[0]['load']}, at end {os.getloadavg()[0]:.1f}")
    print()
    if only in (None, "build"):
        print("| sections | input MB | floor s | cold s | warm s | one page s | cold/floor "
              "| warm/cold | page/cold | peak MB cold/warm/page | snapshot MB | snapshot/input |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for r in rows:
            if "cold" not in r:
                continue
            f, c, w, p = min(r["floor"]), min(r["cold"]), min(r["warm"]), min(r["page"])
            snap = sum(r["snapshot"].values())
            print(f"| {r['sections']} | {fmt_mb(r['input_bytes'])} | {f:.3f} | {c:.3f} | {w:.3f} "
                  f"| {p:.3f} | {ratio(c, f)} | {100 * w / c:.0f}% | {100 * p / c:.0f}% "
                  f"| {r['cold_rss'] / 1e6:.0f}/{r['warm_rss'] / 1e6:.0f}/{r['page_rss'] / 1e6:.0f} "
                  f"| {fmt_mb(snap)} | {snap / r['input_bytes']:.2f}x |")
        print()
        print("spread (min-max s):")
        print()
        print("| sections | floor | cold | warm | one page |")
        print("| ---: | ---: | ---: | ---: | ---: |")
        for r in rows:
            if "cold" in r:
                print(f"| {r['sections']} | {spread(r['floor'])} | {spread(r['cold'])} "
                      f"| {spread(r['warm'])} | {spread(r['page'])} |")
        print()
        print("snapshot composition (bytes):")
        print()
        for r in rows:
            if "snapshot" in r:
                parts = ", ".join(f"{k} {v}" for k, v in sorted(r["snapshot"].items()))
                print(f"- {r['sections']}: {parts}; graph hash {r.get('graph_hash', '?')[:16]}")
        print()
    print("CPU seconds (user + system of the process, best run; less disturbed by other jobs "
          "than wall time):")
    print()
    print("| sections | floor | cold | warm | one page | query (median) | cold/floor CPU |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        c = r.get("cpu", {})
        def best(k):
            return f"{min(c[k]):.2f}" if k in c else "-"
        q = f"{statistics.median(c['query']):.2f}" if "query" in c else "-"
        ratio_cpu = (f"{min(c['cold']) / max(min(c['floor']), 0.01):.1f}x"
                     if "cold" in c and "floor" in c else "-")
        print(f"| {r['sections']} | {best('floor')} | {best('cold')} | {best('warm')} "
              f"| {best('page')} | {q} | {ratio_cpu} |")
    print()
    if only in (None, "evidence"):
        print(f"fresh-process `ontoly evidence --format json`, warm snapshot, {len(QUERIES)} queries "
              "x repeat:")
        print()
        print("| sections | floor s | query median ms | min-max ms | median/floor | peak MB |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: |")
        for r in rows:
            if "query" not in r:
                continue
            f = min(r["floor"])
            m = statistics.median(r["query"])
            print(f"| {r['sections']} | {f:.3f} | {1000 * m:.0f} | {1000 * min(r['query']):.0f}-"
                  f"{1000 * max(r['query']):.0f} | {ratio(m, f)} | {r['query_rss'] / 1e6:.0f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", help="the ontoly binary (default: build target/release/ontoly)")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--1m", dest="one_million", action="store_true",
                    help="also 1 000 000 sections (generates ~1.3 GB; minutes per build)")
    ap.add_argument("--repeat", type=int, default=int(os.environ.get("REPEAT", "3")))
    ap.add_argument("--only", choices=["build", "evidence"])
    ap.add_argument("--json", help="also write the raw figures here")
    ap.add_argument("--gen-args", default="",
                    help="extra generate.py arguments, e.g. '--refs-per-section 0-1 "
                         "--locator-style flow' (the 1M shape today's 256 MB YAML limit accepts)")
    a = ap.parse_args()
    if a.bin:
        binary = os.path.abspath(a.bin)
    else:
        # PROFILE=profiling builds the release code with line tables, for `perf record` on
        # the same runs (the release profile strips symbols).
        profile = os.environ.get("PROFILE", "release")
        subprocess.run(["cargo", "build", "--profile", profile, "-q", "-p", "ontoly"], cwd=ROOT,
                       check=True)
        binary = os.path.join(ROOT, "target", profile, "ontoly")
    sizes = [int(s) for s in a.sizes.split(",") if s]
    if a.one_million and 1000000 not in sizes:
        sizes.append(1000000)
    load = f"{os.getloadavg()[0]:.1f}"
    rows = []
    for n in sizes:
        r = measure_size(binary, n, a.repeat, a.only, a.gen_args)
        r.update(binary=binary, repeat=a.repeat, load=load)
        rows.append(r)
        print(f"done {n}", file=sys.stderr)
    report(rows, a.only)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
