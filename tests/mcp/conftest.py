"""Shared harness: start `ontoly mcp` through the official MCP Python SDK stdio client.

Every test runs its coroutine under a hard timeout (TIMEOUT), so a hung server fails the test
rather than the CI job.
"""

from __future__ import annotations

import os
import pathlib
import sys
from contextlib import asynccontextmanager

import anyio
import mcp.types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("ONTOLY_BIN", str(ROOT / "target" / "debug" / "ontoly"))
WORKSPACE = os.environ.get("ONTOLY_MCP_WORKSPACE", str(ROOT / "testdata" / "demo"))
TIMEOUT = float(os.environ.get("ONTOLY_MCP_TIMEOUT", "120"))


def run(test):
    """Runs an async test body under the harness timeout."""

    async def bounded():
        with anyio.fail_after(TIMEOUT):
            await test()

    anyio.run(bounded)


@asynccontextmanager
async def server(protocol_version: str | None = None, workspace: str = WORKSPACE, extra=()):
    """An initialized client session with a fresh server; yields (session, initialize result)."""
    params = StdioServerParameters(
        command=BIN,
        args=["mcp", "--workspace", workspace, *extra],
        env={"PATH": os.environ.get("PATH", "")},
    )
    saved = types.LATEST_PROTOCOL_VERSION
    if protocol_version is not None:
        # The client always proposes LATEST_PROTOCOL_VERSION; pin it to test each revision.
        types.LATEST_PROTOCOL_VERSION = protocol_version
    try:
        async with stdio_client(params, errlog=sys.stderr) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                yield session, init
    finally:
        types.LATEST_PROTOCOL_VERSION = saved


def structured(result):
    """The structured content of a successful call (fails the test on a tool error)."""
    assert not result.isError, text(result)
    assert isinstance(result.structuredContent, dict), result
    return result.structuredContent


def text(result) -> str:
    return "".join(c.text for c in result.content if c.type == "text")
