"""Shared harness: start `ontoly mcp` through the official MCP Python SDK stdio client.

Every test runs its coroutine under a hard timeout (TIMEOUT), so a hung server fails the test
rather than the CI job.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys
from contextlib import asynccontextmanager

import anyio
import mcp.client.session as client_session
import mcp.types as types
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("ONTOLY_BIN", str(ROOT / "target" / "debug" / "ontoly"))
DEMO = ROOT / "testdata" / "demo"
# The demo workspace's own repository gets this remote, so reads name it `acme/shop-knowledge`.
KNOWLEDGE_REMOTE = "https://github.com/acme/shop-knowledge"
KNOWLEDGE_REPO = "acme/shop-knowledge"
TIMEOUT = float(os.environ.get("ONTOLY_MCP_TIMEOUT", "120"))


def run(test):
    """Runs an async test body under the harness timeout."""

    async def bounded():
        with anyio.fail_after(TIMEOUT):
            await test()

    anyio.run(bounded)


@asynccontextmanager
async def server(workspace, protocol_version: str | None = None, extra=()):
    """An initialized client session with a fresh server; yields (session, initialize result)."""
    params = StdioServerParameters(
        command=BIN,
        args=["mcp", "--workspace", str(workspace), *extra],
        env={"PATH": os.environ.get("PATH", "")},
    )
    # The client always proposes its latest version (mcp 1.x: types.LATEST_PROTOCOL_VERSION;
    # mcp 2.x: the session module's LATEST_HANDSHAKE_VERSION); pin it to test each revision.
    pinned = [(m, n) for m, n in [(types, "LATEST_PROTOCOL_VERSION"),
                                  (client_session, "LATEST_HANDSHAKE_VERSION")] if hasattr(m, n)]
    saved = [getattr(m, n) for m, n in pinned]
    if protocol_version is not None:
        for m, n in pinned:
            setattr(m, n, protocol_version)
    try:
        async with stdio_client(params, errlog=sys.stderr) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                yield session, init
    finally:
        for (m, n), value in zip(pinned, saved):
            setattr(m, n, value)


def field(obj, name: str):
    """`obj.name` by its protocol (camelCase) name: mcp 1.x exposes the camelCase attribute,
    mcp 2.x its snake_case form; the tests run against both."""
    if hasattr(obj, name):
        return getattr(obj, name)
    return getattr(obj, "".join("_" + c.lower() if c.isupper() else c for c in name))


def structured(result):
    """The structured content of a successful call (fails the test on a tool error)."""
    assert not field(result, "isError"), text(result)
    assert isinstance(field(result, "structuredContent"), dict), result
    return field(result, "structuredContent")


def error(result) -> dict:
    """The `{code, message}` of a failed call: `isError`, the body as JSON in the text content,
    and no structuredContent (which strict clients check against the tool's outputSchema)."""
    assert field(result, "isError") is True, result
    assert field(result, "structuredContent") is None, result
    body = json.loads(text(result))
    assert isinstance(body["code"], str) and isinstance(body["message"], str), body
    return body


def text(result) -> str:
    return "".join(c.text for c in result.content if c.type == "text")


def git(cwd, *args):
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(cwd),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Demo Author",
        "GIT_AUTHOR_EMAIL": "demo@example.invalid",
        "GIT_AUTHOR_DATE": "2026-03-20T12:00:00Z",
        "GIT_COMMITTER_NAME": "Demo Author",
        "GIT_COMMITTER_EMAIL": "demo@example.invalid",
        "GIT_COMMITTER_DATE": "2026-03-20T12:00:00Z",
    }
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


@pytest.fixture(scope="session")
def demo(tmp_path_factory):
    """The demo workspace as its own git repository (fixed dates, so a stable commit), with the
    source repositories beside it as `ontoly.toml` maps them. Overridable with
    ONTOLY_MCP_WORKSPACE (then used as is)."""
    given = os.environ.get("ONTOLY_MCP_WORKSPACE")
    if given:
        return pathlib.Path(given)
    ws = tmp_path_factory.mktemp("demo") / "shop-knowledge"
    shutil.copytree(DEMO, ws, ignore=shutil.ignore_patterns(".ontoly"))
    (ws / ".gitignore").write_text("repos/\n.ontoly/\n")
    git(ws, "init", "-q", "-b", "main")
    git(ws, "remote", "add", "origin", KNOWLEDGE_REMOTE)
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "demo knowledge")
    return ws
