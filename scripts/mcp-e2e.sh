#!/usr/bin/env bash
# End-to-end tests of `ontoly mcp`, driven by the official MCP Python SDK client.
#
# Creates the virtual environment .venv-mcp (or $ONTOLY_MCP_VENV) on first use, installs the
# pinned client from tests/mcp/requirements.txt, builds the binary, and runs pytest on
# tests/mcp. Extra arguments go to pytest (e.g. `-k concurrent`). Exits non-zero on failure.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

venv="${ONTOLY_MCP_VENV:-$root/.venv-mcp}"
requirements="tests/mcp/requirements.txt"
constraints="tests/mcp/constraints.txt"
stamp="$venv/.ontoly-requirements"
wanted="$(cat "$requirements" "$constraints" | sha256sum | cut -d' ' -f1)"

if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        -r "$requirements" -c "$constraints"
    echo "$wanted" > "$stamp"
fi

cargo build --quiet -p ontoly
export ONTOLY_BIN="${ONTOLY_BIN:-${CARGO_TARGET_DIR:-$root/target}/debug/ontoly}"

exec "$venv/bin/python" -m pytest -p no:cacheprovider -q tests/mcp "$@"
