#!/usr/bin/env bash
# End-to-end tests of `ontoly mcp`, driven by the official MCP Python SDK client.
#
# Creates the virtual environment .venv-mcp (or $ONTOLY_MCP_VENV) on first use, installs the
# pinned client from tests/mcp/requirements.txt, builds the binary, and runs pytest on
# tests/mcp. Extra arguments go to pytest (e.g. `-k concurrent`). Exits non-zero on failure.
#
# ONTOLY_MCP_SDK=latest runs the same tests against the newest `mcp` release instead, in
# .venv-mcp-latest (or $ONTOLY_MCP_VENV_LATEST), upgraded at most once a day: a client release
# that breaks the server shows up here before users meet it.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

requirements="tests/mcp/requirements.txt"
constraints="tests/mcp/constraints.txt"
if [ "${ONTOLY_MCP_SDK:-pinned}" = latest ]; then
    venv="${ONTOLY_MCP_VENV_LATEST:-$root/.venv-mcp-latest}"
    wanted="latest-$(date -u +%Y-%m-%d)"
    install=(--upgrade mcp pytest)
else
    venv="${ONTOLY_MCP_VENV:-$root/.venv-mcp}"
    wanted="$(cat "$requirements" "$constraints" | sha256sum | cut -d' ' -f1)"
    install=(-r "$requirements" -c "$constraints")
fi
stamp="$venv/.ontoly-requirements"

if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${install[@]}"
    echo "$wanted" > "$stamp"
fi
echo "mcp SDK $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))')" >&2

cargo build --quiet -p ontoly
export ONTOLY_BIN="${ONTOLY_BIN:-${CARGO_TARGET_DIR:-$root/target}/debug/ontoly}"

exec "$venv/bin/python" -m pytest -p no:cacheprovider -q tests/mcp "$@"
