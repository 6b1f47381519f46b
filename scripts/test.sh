#!/usr/bin/env bash
# The whole test suite: Rust unit, integration and snapshot tests, the API docs, then the MCP end-to-end
# tests with the official Python client, pinned and newest, then `ontoly drift` through the CLI
# against every drift.yaml (each corpus's and the drift fixture's). This is the command the
# README and CI run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cargo test --workspace --locked
# The API docs build without a warning (links to private items, broken links).
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace --locked --quiet
bash scripts/mcp-e2e.sh
ONTOLY_MCP_SDK=latest bash scripts/mcp-e2e.sh
bash scripts/drift-check.sh
# The committed fuzz regression inputs already ran above, on stable, in `cargo test`
# (cli/tests/fuzz_regressions.rs). Coverage-guided exploration in CI only, and optional: the
# regressions replayed again through the cargo-fuzz binaries, then ~20 s of exploration a
# target, advisory (random, so it reports what it finds with the input, but does not block a
# change that did not cause it). It needs nightly and cargo-fuzz (skipped with a message
# without them), and a cold build of the targets longer than 5 minutes is skipped too, so CI
# stays within its time.
if [ -n "${CI:-}" ]; then
    FUZZ_ADVISORY=1 FUZZ_BUILD_TIMEOUT=${FUZZ_BUILD_TIMEOUT:-300} bash scripts/fuzz.sh 20
fi
