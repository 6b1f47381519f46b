#!/usr/bin/env bash
# The whole test suite: Rust unit, integration and snapshot tests, then the MCP end-to-end
# tests with the official Python client, pinned and newest. This is the command the README and
# CI run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
cargo test --workspace --locked
bash scripts/mcp-e2e.sh
ONTOLY_MCP_SDK=latest bash scripts/mcp-e2e.sh
