#!/usr/bin/env python3
"""Latency of `tools/call EvidencePack` over stdio, as an MCP client sees it.

Starts `ontoly mcp` on a workspace, completes the 2025-11-25 handshake, waits for the graph
(the first call), then times N sequential EvidencePack calls (write request -> read its
response line) over a rotating set of queries, and the same calls with C requests in
flight. Prints p50/p90/p99/max in milliseconds as a table (stdlib only; no MCP SDK overhead
in the measurement).

  python3 testdata/gen/generate.py --out testdata/generated/10k --sections 10000 --git
  cargo build --release -p ontoly
  python3 scripts/bench-mcp.py --bin target/release/ontoly --workspace testdata/generated/10k
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
import time

QUERIES = [
    "how does the parser handle errors",
    "retry policy for failed requests",
    "where is the cache invalidated",
    "configuration of the worker queue",
    "token refresh in the client",
    "which module validates input",
    "database connection pool size",
    "how are events serialized",
    "logging and metrics setup",
    "authentication middleware order",
    "graph traversal limits",
    "schema migration steps",
]


class Client:
    def __init__(self, cmd):
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.lock = threading.Lock()
        self.waiting: dict[int, threading.Event] = {}
        self.replies: dict[int, dict] = {}
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stdout:
            msg = json.loads(line)
            rid = msg.get("id")
            if rid is None:
                continue
            with self.lock:
                self.replies[rid] = msg
                event = self.waiting.get(rid)
            if event:
                event.set()

    def send(self, rid, method, params):
        event = threading.Event()
        with self.lock:
            self.waiting[rid] = event
        line = json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        return event

    def call(self, rid, method, params, timeout=300.0):
        event = self.send(rid, method, params)
        if not event.wait(timeout):
            raise SystemExit(f"no response to {method} {rid} within {timeout}s")
        with self.lock:
            return self.replies.pop(rid)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def pct(values, p):
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


def row(name, ms):
    return (f"| {name} | {len(ms)} | {pct(ms, 50):.2f} | {pct(ms, 90):.2f} | "
            f"{pct(ms, 99):.2f} | {max(ms):.2f} | {statistics.mean(ms):.2f} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/ontoly")
    ap.add_argument("--workspace", required=True)
    ap.add_argument("--calls", type=int, default=500)
    ap.add_argument("--inflight", type=int, default=4)
    ap.add_argument("--no-cache", action="store_true", help="build the graph at start")
    ap.add_argument("--tool", default="EvidencePack",
                    help="time another tool instead (e.g. `capabilities`: the protocol floor)")
    args = ap.parse_args()

    cmd = [args.bin, "mcp", "--workspace", args.workspace]
    if args.no_cache:
        cmd.append("--no-cache")
    started = time.perf_counter()
    client = Client(cmd)
    client.call(0, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                  "clientInfo": {"name": "bench", "version": "0"}})
    handshake = (time.perf_counter() - started) * 1000
    client.proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    client.proc.stdin.flush()
    first = client.call(1, "tools/call", {"name": "EvidencePack", "arguments": {"query": QUERIES[0]}})
    ready = (time.perf_counter() - started) * 1000
    if first["result"].get("isError"):
        raise SystemExit(f"EvidencePack failed: {first['result']['content']}")
    nodes = first["result"]["structuredContent"]["graphFacts"]["sections"]

    def arguments(q):
        return {"query": q} if args.tool == "EvidencePack" else {}

    sequential = []
    for i in range(args.calls):
        q = QUERIES[i % len(QUERIES)]
        t = time.perf_counter()
        reply = client.call(100 + i, "tools/call", {"name": args.tool, "arguments": arguments(q)})
        sequential.append((time.perf_counter() - t) * 1000)
        assert not reply["result"].get("isError"), reply

    # C requests in flight: each latency is from its own write to its own response.
    concurrent = []
    sem = threading.Semaphore(args.inflight)
    done = threading.Event()
    count_lock = threading.Lock()
    remaining = [args.calls]

    def one(i):
        q = QUERIES[i % len(QUERIES)]
        t = time.perf_counter()
        event = client.send(100000 + i, "tools/call", {"name": args.tool, "arguments": arguments(q)})
        event.wait(300)
        ms = (time.perf_counter() - t) * 1000
        with count_lock:
            concurrent.append(ms)
            remaining[0] -= 1
            if remaining[0] == 0:
                done.set()
        sem.release()

    wall = time.perf_counter()
    for i in range(args.calls):
        sem.acquire()
        threading.Thread(target=one, args=(i,), daemon=True).start()
    done.wait(600)
    wall = time.perf_counter() - wall
    client.close()

    print(f"workspace: {args.workspace} ({nodes} sections), tool: {args.tool}")
    print(f"initialize answered after {handshake:.0f} ms; first EvidencePack (graph "
          f"{'built' if args.no_cache else 'loaded or built'}) after {ready:.0f} ms")
    print("| run | calls | p50 ms | p90 ms | p99 ms | max ms | mean ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    print(row("sequential", sequential))
    print(row(f"{args.inflight} in flight", concurrent))
    print(f"throughput with {args.inflight} in flight: {args.calls / wall:.0f} calls/s")


if __name__ == "__main__":
    sys.exit(main())
