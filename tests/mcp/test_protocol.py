"""Handshake, tool listing and error reporting of `ontoly mcp` through the official client."""

from __future__ import annotations

import pytest
try:
    from mcp.shared.exceptions import McpError
except ImportError:  # mcp >= 2 renamed it
    from mcp.shared.exceptions import MCPError as McpError

from conftest import error, field, run, server, structured, text

TOOLS = ["EvidencePack", "capabilities", "capability", "resolve", "read", "read_many", "search", "Drift", "Impact"]


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25"])
def test_initialize_negotiates_the_requested_revision(demo, version):
    async def body():
        async with server(demo, version) as (_, init):
            assert field(init, "protocolVersion") == version
            assert field(init, "serverInfo").name == "ontoly"
            assert field(init, "serverInfo").version
            assert init.capabilities.tools is not None
            # The instructions tell an agent how the tools fit together.
            assert "EvidencePack" in init.instructions
            assert "filesToInspect" in init.instructions
            assert "commit" in init.instructions

    run(body)


def test_tools_are_listed_with_input_and_output_schemas(demo):
    async def body():
        async with server(demo) as (session, _):
            listed = await session.list_tools()
            tools = {t.name: t for t in listed.tools}
            assert list(tools) == TOOLS
            for tool in tools.values():
                assert tool.description, tool.name
                assert field(tool, "inputSchema")["type"] == "object", tool.name
                assert field(tool, "inputSchema").get("additionalProperties") is False, tool.name
                assert field(tool, "outputSchema") and field(tool, "outputSchema")["type"] == "object", tool.name
                assert tool.annotations and field(tool.annotations, "readOnlyHint") is True

            pack = tools["EvidencePack"]
            assert field(pack, "inputSchema")["required"] == ["query"]
            assert set(field(pack, "inputSchema")["properties"]) == {"query", "limit"}
            assert set(field(pack, "outputSchema")["required"]) == {
                "version", "query", "answer", "graphFacts", "topNodes", "topEdges",
                "relevantFiles", "relationships", "diagnostics", "confidence",
                "suggestedCommands", "stableIds", "filesToInspect", "fallbacks", "provenance",
            }
            read = tools["read"]
            assert field(read, "inputSchema")["required"] == ["repository", "path"]
            assert set(field(read, "inputSchema")["properties"]) == {
                "repository", "revision", "path", "startLine", "endLine",
            }
            assert {"commit", "nextStartLine", "hasMore", "truncated", "content"} <= set(
                field(read, "outputSchema")["properties"]
            )
            items = field(tools["read_many"], "inputSchema")["properties"]["items"]
            assert (items["minItems"], items["maxItems"]) == (1, 10)
            assert field(tools["resolve"], "inputSchema")["required"] == ["repository"]
            assert field(tools["capability"], "inputSchema")["required"] == ["name"]
            search = field(tools["search"], "inputSchema")
            assert search["required"] == ["repository", "pattern"]
            assert {"fixedStrings", "ignoreCase", "glob", "paths", "output"} <= set(
                search["properties"]
            )

    run(body)


def test_an_unknown_tool_is_a_protocol_error_naming_the_tools(demo):
    async def body():
        async with server(demo) as (session, _):
            with pytest.raises(McpError) as caught:
                await session.call_tool("no_such_tool", {})
            assert caught.value.error.code == -32602
            assert "no_such_tool" in caught.value.error.message
            assert "EvidencePack" in caught.value.error.message
            # The session survives the error.
            assert (await session.send_ping()) is not None

    run(body)


@pytest.mark.parametrize(
    "tool,arguments,expected",
    [
        ("read", {"repository": 5, "path": "a"}, "invalid type: integer `5`, expected a string"),
        ("read", {"repository": "a/b"}, "missing field `path`"),
        ("EvidencePack", {"query": "x", "limt": 3}, "unknown field `limt`"),
        ("EvidencePack", {"query": "  "}, "`query` is empty, ask a question"),
        ("read_many", {"repository": "a/b", "items": "a.txt"}, "expected a sequence"),
        ("search", {"repository": "a/b", "pattern": "x", "output": "lines"}, "unknown variant"),
    ],
)
def test_invalid_arguments_are_tool_errors_that_say_what_was_expected(demo, tool, arguments, expected):
    async def body():
        async with server(demo) as (session, _):
            result = await session.call_tool(tool, arguments)
            body = error(result)
            assert body["code"] == "INVALID_ARGUMENTS"
            assert expected in body["message"], body["message"]
            assert f"invalid arguments for `{tool}`" in body["message"]
            assert "; expected {" in body["message"] or "; expected no arguments" in body["message"]

    run(body)


def test_capabilities_are_listed_with_their_input_schemas(demo):
    async def body():
        async with server(demo) as (session, _):
            listed = structured(await session.call_tool("capabilities", {}))
            names = [c["name"] for c in listed["capabilities"]]
            assert "EvidencePack" in names
            for capability in listed["capabilities"]:
                assert capability["inputSchema"]["type"] == "object", capability

            unknown = await session.call_tool("capability", {"name": "NoSuchThing", "input": {}})
            assert error(unknown)["code"] == "CAPABILITY_NOT_REGISTERED"

    run(body)
