"""The tools on the demo workspace (testdata/demo), through the official MCP Python client:
Evidence Packs, pinned reads of knowledge pages and the sources they cite, read_many, search,
resolve, and concurrent calls on one session."""

from __future__ import annotations

import json
import re
import subprocess

import anyio
import pytest

from conftest import BIN, DEMO, KNOWLEDGE_REPO, error, field, git, run, server, structured, text

HEX40 = re.compile(r"^[0-9a-f]{40}$")
CANONICAL = [
    "version", "query", "answer", "graphFacts", "topNodes", "topEdges", "relevantFiles",
    "relationships", "diagnostics", "confidence", "suggestedCommands", "stableIds",
    "filesToInspect", "fallbacks", "provenance",
]
URL = re.compile(r"^- https://github\.com/(acme/[\w.-]+)/blob/([0-9a-f]{40})/(\S+)#L(\d+)(?:-L(\d+))?$")


def questions(answerable: bool) -> list[str]:
    """Queries of the demo question set (testdata/demo/questions.yaml)."""
    out, query = [], None
    for line in (DEMO / "questions.yaml").read_text().splitlines():
        line = line.strip()
        if line.startswith("- query:"):
            query = json.loads(line.split(":", 1)[1].strip())
        elif line.startswith("answerable:") and query is not None:
            if (line.split(":", 1)[1].strip() == "true") == answerable:
                out.append(query)
            query = None
    return out


def cli_pack(workspace, query, *extra) -> dict:
    out = subprocess.run(
        [BIN, "evidence", "--workspace", str(workspace), "--format", "json", *extra, query],
        capture_output=True, check=False, timeout=120,
    )
    assert out.returncode in (0, 3), out.stderr.decode()
    return json.loads(out.stdout)


def test_evidence_pack_is_the_cli_pack_with_every_canonical_field(demo):
    query = questions(answerable=True)[0]

    async def body():
        async with server(demo) as (session, _):
            result = await session.call_tool("EvidencePack", {"query": query})
            pack = structured(result)
            for field in CANONICAL:
                assert field in pack, field
            assert pack["query"] == query
            assert pack["answer"]
            assert 0 < len(pack["topNodes"]) <= 12
            assert pack["stableIds"] == [n["id"] for n in pack["topNodes"]]
            assert pack["confidence"]["level"] in {"none", "low", "medium", "high"}
            assert 0.0 <= pack["confidence"]["score"] <= 1.0
            assert list(pack["relationships"]) == sorted(pack["relationships"])
            for item in pack["filesToInspect"]:
                assert HEX40.match(item["commit"]), item
            # The top section's page lines are the first next step, at the knowledge commit,
            # and are not said again in filesToInspect.
            top = next(n for n in pack["topNodes"] if n["type"] == "Section")
            page = pack["nextToolCalls"][0]
            assert page["tool"] == "read", pack["nextToolCalls"]
            assert page["arguments"]["revision"] == pack["provenance"]["knowledgeCommit"]
            assert (page["arguments"]["path"], page["arguments"]["startLine"],
                    page["arguments"]["endLine"]) == (
                top["span"]["file"], top["span"]["startLine"], top["span"]["endLine"])
            assert all(item["path"] != page["arguments"]["path"]
                       for item in pack["filesToInspect"]), pack["filesToInspect"]
            provenance = pack["provenance"]
            assert provenance["source"] == "ontoly"
            assert re.match(r"^[0-9a-f]{64}$", provenance["graphHash"])
            assert provenance["nodeCount"] == pack["graphFacts"]["nodes"]
            # The text rendering carries the answer for clients that show only text.
            assert pack["answer"] in text(result)
            # The generic capability call returns the same pack as its data.
            generic = structured(
                await session.call_tool("capability", {"name": "EvidencePack", "input": {"query": query}})
            )
            assert generic["capability"] == "EvidencePack"
            assert generic["data"] == pack
            # A capability whose data is text (a section's words, the references YAML) shows it
            # in the text content too, for clients that show only that.
            top = pack["topNodes"][0]
            refs = await session.call_tool("capability", {"name": "SectionReferences", "input": {
                "path": top["file"], "startLine": top["span"]["startLine"],
                "endLine": top["span"]["endLine"]}})
            assert structured(refs)["data"]["yaml"] in text(refs)
            section = await session.call_tool("capability", {
                "name": "SectionEvidence", "input": {"section": top["id"]}})
            assert structured(section)["data"]["text"].strip() in text(section)
            # Verify the answer as the instructions say: pinned reads of filesToInspect, staying
            # on the returned commits.
            assert pack["filesToInspect"], "the demo answer cites pinned sources"
            for item in pack["filesToInspect"][:4]:
                read = structured(await session.call_tool("read", {
                    "repository": item["repository"], "revision": item["commit"],
                    "path": item["path"], "start_line": item["startLine"],
                    "end_line": item["endLine"]}))
                assert read["commit"] == item["commit"]
                assert (read["startLine"], read["endLine"]) == (item["startLine"], item["endLine"])
                assert read["content"]
            return pack

    pack = {}

    async def capture():
        pack.update(await body())

    run(capture)
    # `ontoly evidence --format json` gives the same pack for the same graph and input.
    assert cli_pack(demo, query) == pack


def test_every_next_tool_call_of_a_pack_is_sent_as_it_is(demo):
    """A pack's `nextToolCalls` are MCP calls an agent sends without editing: each one answers
    (no tool error, no capability error); a weak pack asks for a wider pack before any search."""

    pinned = set()

    async def body():
        async with server(demo) as (session, _):
            # The commits the demo's citations pin, both repositories (shop-worker's from a
            # question about the worker).
            for query in ["How does the checkout service retry failed payments?",
                          "How do background worker jobs run?"]:
                cited = structured(await session.call_tool("EvidencePack", {"query": query}))
                pinned.update(f["commit"] for f in cited["filesToInspect"])
            for query in [questions(answerable=True)[0], "webhook signature secret rotation",
                          "zookeeper quorum election"]:
                result = await session.call_tool("EvidencePack", {"query": query})
                pack = structured(result)
                calls = pack["nextToolCalls"]
                assert calls, query
                # A client that shows only the text sees the same calls, not shell commands.
                listed = text(result).split("Next (tool calls):\n")[1].split("\n\n")[0]
                assert [line.split(" ", 4)[3:] for line in listed.splitlines()] == [
                    [c["tool"], json.dumps(c["arguments"], separators=(",", ":"), sort_keys=True,
                                           ensure_ascii=False)] for c in calls
                ], listed
                assert "$ ontoly" not in text(result)
                for call in calls:
                    result = await session.call_tool(call["tool"], call["arguments"])
                    assert field(result, "isError") is not True, (call, text(result))
                    if call["tool"] == "capability":
                        data = structured(result)
                        assert not any(d["code"] in {"CAPABILITY_INVALID_INPUT", "CAPABILITY_NOT_REGISTERED"}
                                       for d in data["diagnostics"]), (call, data["diagnostics"])
                        assert data["capability"] == call["arguments"]["name"]
                level = pack["confidence"]["level"]
                wide = {"tool": "EvidencePack", "arguments": {"query": query, "limit": 20}}
                assert (wide in calls) == (level == "low"), (query, calls)
                # Nothing in the graph: the search of the cited code to run instead. A weak match
                # may add searches for the words its top section leaves unmatched, after its
                # other calls (the wider pack included).
                searches = [i for i, c in enumerate(calls) if c["tool"] == "search"]
                if level == "none":
                    assert searches, (query, calls)
                elif level == "low":
                    assert all(i > calls.index(wide) for i in searches), (query, calls)
                else:
                    assert not searches, (query, calls)
            # The last question is not in the demo: its pack offers searches of the clones, at
            # the commits the workspace cites (not the branches, which may have moved on).
            assert pack["confidence"]["level"] == "none"
            # Whole words, the rarest the question wrote (everyday "quorum", "election" only
            # when nothing rarer is there).
            assert [c["arguments"]["pattern"] for c in pack["nextToolCalls"]][:1] == [
                r"\bzookeeper\b"], pack["nextToolCalls"]
            revisions = [c["arguments"].get("revision") for c in pack["nextToolCalls"]]
            assert revisions and all(r in pinned for r in revisions), (revisions, pinned)

    run(body)


def test_evidence_pack_limits_are_clamped_and_reported(demo):
    query = questions(answerable=True)[1]

    async def body():
        async with server(demo) as (session, _):
            big = structured(await session.call_tool("EvidencePack", {"query": query, "limit": 50}))
            assert len(big["topNodes"]) <= 20
            assert "CAPABILITY_LIMIT_CLAMPED" in [d["code"] for d in big["diagnostics"]]
            small = structured(await session.call_tool("EvidencePack", {"query": query, "limit": 2}))
            assert "CAPABILITY_LIMIT_CLAMPED" in [d["code"] for d in small["diagnostics"]]
            assert len(small["topNodes"]) <= 5
            plain = structured(await session.call_tool("EvidencePack", {"query": query, "limit": 7}))
            assert "CAPABILITY_LIMIT_CLAMPED" not in [d["code"] for d in plain["diagnostics"]]
            assert len(plain["topNodes"]) <= 7

    run(body)


def test_an_unanswerable_question_says_so_with_fallbacks(demo):
    query = questions(answerable=False)[0]

    async def body():
        async with server(demo) as (session, _):
            pack = structured(await session.call_tool("EvidencePack", {"query": query}))
            codes = {d["code"] for d in pack["diagnostics"]}
            assert codes & {"CAPABILITY_LOW_EVIDENCE", "CAPABILITY_NOT_FOUND"}, pack["diagnostics"]
            assert pack["confidence"]["level"] in {"none", "low"}
            assert pack["fallbacks"]

    run(body)


def marker_line(content: str, section: str) -> int:
    for number, line in enumerate(content.splitlines(), start=1):
        if f'<!-- context:section id="{section}" -->' in line:
            return number
    raise AssertionError(f"no section {section}")


def references(content: str) -> list[str]:
    """The reference lines appended after the page text (the YAML `references:` list)."""
    assert "\nreferences:\n" in content, content[-500:]
    tail = content.split("\nreferences:\n", 1)[1]
    return [line for line in tail.splitlines() if line.startswith("- ")]


def test_reading_a_knowledge_page_appends_its_references_and_they_can_be_read(demo):
    async def body():
        async with server(demo) as (session, _):
            pinned = structured(await session.call_tool("resolve", {"repository": KNOWLEDGE_REPO}))
            assert pinned["repository"] == KNOWLEDGE_REPO
            assert pinned["revision"] == "main"
            commit = pinned["commit"]
            assert HEX40.match(commit)

            page = "knowledge/guides/checkout.md"
            whole = structured(
                await session.call_tool(
                    "read", {"repository": KNOWLEDGE_REPO, "revision": commit, "path": page}
                )
            )
            assert whole["commit"] == commit
            assert whole["startLine"] == 1 and whole["hasMore"] is False
            page_text = (demo / page).read_text()
            # The page text comes first, byte for byte; the references follow a blank line.
            assert whole["content"].startswith(page_text)
            all_refs = references(whole["content"])
            assert all_refs

            # Only the sections overlapping the returned lines contribute references.
            start = marker_line(page_text, "payment-retry")
            narrow = structured(
                await session.call_tool(
                    "read",
                    # camelCase inputs, like the outputs (snake_case stays accepted below).
                    {"repository": KNOWLEDGE_REPO, "revision": commit, "path": page,
                     "startLine": start, "endLine": start + 2},
                )
            )
            assert narrow["hasMore"] is True and narrow["nextStartLine"] == start + 3
            some = references(narrow["content"])
            assert some and set(some) <= set(all_refs) and len(some) < len(all_refs)
            # Exactly what `ontoly read` prints for the same pinned range.
            cli = subprocess.run(
                [BIN, "--workspace", str(demo), "read", "--repo", KNOWLEDGE_REPO, "--rev", commit,
                 page, "--start", str(start), "--end", str(start + 2)],
                capture_output=True, check=True, timeout=120,
            )
            assert narrow["content"] == cli.stdout.decode()

            # Follow each pinned reference: read the cited lines at the recorded commit.
            followed = 0
            for line in some:
                match = URL.match(line)
                if not match:
                    continue
                repo, sha, path, first, last = match.groups()
                last = last or first
                cited = structured(
                    await session.call_tool(
                        "read",
                        {"repository": repo, "revision": sha, "path": path,
                         "start_line": int(first), "end_line": int(last)},
                    )
                )
                assert cited["commit"] == sha
                assert (cited["startLine"], cited["endLine"]) == (int(first), int(last))
                assert cited["content"].count("\n") == int(last) - int(first) + 1
                followed += 1
            assert followed > 0

    run(body)


def test_read_many_reports_a_failing_middle_item_without_failing_the_batch(demo):
    async def body():
        async with server(demo) as (session, _):
            head = structured(await session.call_tool("resolve", {"repo": "acme/shop-api"}))
            result = structured(
                await session.call_tool(
                    "read_many",
                    {"repository": "acme/shop-api", "revision": head["commit"], "items": [
                        {"path": "src/checkout.rs", "start_line": 1, "end_line": 5},
                        {"path": "src/does-not-exist.rs"},
                        {"path": "src/inventory.rs", "start_line": 2, "end_line": 3},
                    ]},
                )
            )
            assert result["commit"] == head["commit"]
            first, middle, last = result["items"]
            assert "error" not in first and first["content"].count("\n") == 5
            assert middle["error"]["code"] == "FILE_NOT_FOUND"
            assert middle["error"]["message"].startswith("Item 2: ")
            assert "content" not in middle
            assert "error" not in last and (last["startLine"], last["endLine"]) == (2, 3)

            too_many = await session.call_tool(
                "read_many",
                {"repository": "acme/shop-api", "items": [{"path": "README.md"}] * 11},
            )
            assert error(too_many)["code"] == "INVALID_INPUT", text(too_many)

    run(body)


def test_read_many_without_revision_says_which_commit_the_pages_cite(demo, tmp_path):
    """read_many of the branch, past the pinned commit, carries read's `note`, and its text
    the `repository@commit path lines a-b` header and `hint:` line: the plugin-reads walk
    (`repro_readmany_note.py`) got lines 3 off from the cited ones, with nothing saying so."""
    git(tmp_path, "clone", "-q", str(demo / "repos" / "shop-api.git"), "shop-api")
    moved = tmp_path / "shop-api"
    source = moved / "src" / "checkout.rs"
    source.write_text("// a\n// b\n// c\n" + source.read_text())
    git(moved, "commit", "-q", "-am", "three lines above")
    item = {"path": "src/checkout.rs", "startLine": 72, "endLine": 95}

    async def body():
        extra = ["--source", f"github.com/acme/shop-api={moved}", "--no-cache"]
        async with server(demo, extra=extra) as (session, _):
            one = structured(await session.call_tool("read", {"repository": "acme/shop-api", **item}))
            assert "not at this commit" in one["note"], one
            many = await session.call_tool(
                "read_many",
                {"repository": "acme/shop-api", "items": [item]},
            )
            got = structured(many)
            assert got["commit"] == one["commit"]
            assert got["items"][0]["note"] == one["note"]
            shown = text(many)
            assert f"acme/shop-api@{one['commit']} src/checkout.rs lines 72-95" in shown, shown
            assert f"hint: {one['note']}" in shown, shown
            pinned = structured(await session.call_tool(
                "read_many",
                {"repository": "acme/shop-api", "revision": "d6e6a37f40f1", "items": [item]},
            ))
            assert "note" not in pinned["items"][0], pinned

    run(body)


def test_a_cited_file_read_where_it_is_not_says_where_it_is_cited(demo):
    async def body():
        async with server(demo) as (session, _):
            # The knowledge repository does not hold the code its pages cite.
            missed = await session.call_tool(
                "read", {"repository": KNOWLEDGE_REPO, "path": "src/config.rs"})
            failed = error(missed)
            assert failed["code"] == "FILE_NOT_FOUND", failed
            match = re.search(
                r"the workspace cites src/config\.rs in repository (\S+) at revision ([0-9a-f]{40})",
                failed["message"])
            assert match, failed["message"]
            repo, sha = match.groups()
            # Read there, it is found.
            cited = structured(await session.call_tool(
                "read", {"repository": repo, "revision": sha, "path": "src/config.rs",
                         "start_line": 1, "end_line": 3}))
            assert cited["commit"] == sha and cited["content"].count("\n") == 3
            # read_many: the item's own message says it, after its `Item N: ` prefix.
            many = structured(await session.call_tool(
                "read_many", {"repository": KNOWLEDGE_REPO,
                              "items": [{"path": "src/config.rs"}, {"path": "src/nowhere.rs"}]}))
            first, second = many["items"]
            assert first["error"]["message"].startswith("Item 1: ")
            assert f"in repository {repo} at revision {sha}" in first["error"]["message"], first
            assert "cites" not in second["error"]["message"], second
            # A file no reference cites keeps the plain message.
            plain = error(await session.call_tool(
                "read", {"repository": KNOWLEDGE_REPO, "path": "src/nowhere.rs"}))
            assert plain["code"] == "FILE_NOT_FOUND" and "cites" not in plain["message"], plain

    run(body)


def test_search_finds_lines_at_a_pinned_commit(demo):
    async def body():
        async with server(demo) as (session, _):
            found = structured(
                await session.call_tool(
                    "search", {"repository": "acme/shop-api", "pattern": r"fn\s+checkout"}
                )
            )
            assert HEX40.match(found["commit"])
            assert found["files"], found
            for f in found["files"]:
                for m in f["matches"]:
                    assert re.search(r"fn\s+checkout", m["text"]), m
            assert "src/checkout.rs" in [f["path"] for f in found["files"]]
            assert "src/checkout.rs:" in text(await session.call_tool(
                "search", {"repository": "acme/shop-api", "pattern": "fn checkout",
                           "fixed_strings": True}))

            files = structured(
                await session.call_tool(
                    "search", {"repository": "acme/shop-api", "pattern": "reserve",
                               "output": "files", "glob": ["*.rs"]}
                )
            )
            assert files["files"] and all(f["path"].endswith(".rs") for f in files["files"])
            assert all("matches" not in f for f in files["files"])

            bad = await session.call_tool("search", {"repository": "acme/shop-api", "pattern": "x*"})
            assert error(bad)["code"] == "INVALID_PATTERN"

    run(body)


def test_revision_errors_are_tool_errors_with_their_codes(demo):
    async def body():
        async with server(demo) as (session, _):
            head = structured(await session.call_tool("resolve", {"repo": "acme/shop-api"}))
            cases = [
                ({"repository": "acme/shop-api", "revision": head["commit"][:6]}, "SHORT_SHA_UNSUPPORTED"),
                ({"repo": "acme/shop-api", "revision": "0" * 40}, "REVISION_NOT_FOUND"),
                ({"repo": "acme/nowhere"}, "REPOSITORY_NOT_FOUND"),
            ]
            for arguments, code in cases:
                result = await session.call_tool("resolve", arguments)
                assert error(result)["code"] == code, (arguments, text(result))
            traversal = await session.call_tool(
                "read", {"repository": "acme/shop-api", "path": "../secrets"})
            assert error(traversal)["code"] == "INVALID_PATH"

    run(body)


def test_twenty_concurrent_calls_on_one_session_all_answer_correctly(demo):
    query = questions(answerable=True)[2]

    async def body():
        async with server(demo) as (session, _):
            expected_pack = structured(await session.call_tool("EvidencePack", {"query": query}))
            head = structured(await session.call_tool("resolve", {"repo": "acme/shop-api"}))
            calls = []
            for i in range(5):
                calls.append(("EvidencePack", {"query": query}))
                calls.append(("read", {"repository": "acme/shop-api", "revision": head["commit"],
                                       "path": "src/checkout.rs", "start_line": 1 + i,
                                       "end_line": 10 + i}))
                calls.append(("search", {"repository": "acme/shop-api", "pattern": "reserve"}))
                calls.append(("resolve", {"repo": "acme/shop-api", "revision": "main"}))
            results: list = [None] * len(calls)

            async def call(i, name, arguments):
                results[i] = await session.call_tool(name, arguments)

            async with anyio.create_task_group() as tg:
                for i, (name, arguments) in enumerate(calls):
                    tg.start_soon(call, i, name, arguments)

            assert len(results) == 20
            for (name, arguments), result in zip(calls, results):
                value = structured(result)
                if name == "EvidencePack":
                    assert value == expected_pack
                elif name == "read":
                    assert value["startLine"] == arguments["start_line"]
                    assert value["commit"] == head["commit"]
                elif name == "resolve":
                    assert value["commit"] == head["commit"]
                else:
                    assert value["files"]

    run(body)


def test_drift_and_impact_tools_are_the_cli_reports(demo):
    """`Drift` and `Impact` answer like `ontoly drift` / `ontoly impact --format json`; the
    demo pins one module of shop-api at its first commit, so something drifted at HEAD."""

    def cli(*args) -> dict:
        out = subprocess.run(
            [BIN, *args, "--workspace", str(demo), "--format", "json"],
            capture_output=True, check=False, timeout=120,
        )
        assert out.returncode == 0, out.stderr.decode()
        return json.loads(out.stdout)

    async def body():
        async with server(demo) as (session, _):
            drift = structured(await session.call_tool("Drift", {}))
            assert drift == cli("drift")
            assert set(drift["counts"]) == {"unchanged", "moved", "changed", "missing", "unverifiable"}
            assert drift["counts"]["changed"] + drift["counts"]["missing"] > 0
            assert all(HEX40.match(c) for c in drift["to"].values())
            only = structured(await session.call_tool("Drift", {"onlyDrifted": True}))
            assert only["counts"] == drift["counts"]
            assert all(r["status"] != "unchanged" for r in only["references"])
            bounded = await session.call_tool("Drift", {"limit": 1})
            one = structured(bounded)
            assert f"{one['omitted']} more reference(s) not listed" in text(bounded)
            assert one["counts"] == drift["counts"]
            assert len(one["references"]) == 1 and one["omitted"] == len(drift["references"]) - 1
            assert one["references"][0]["status"] in {"moved", "changed", "missing"}
            assert one["references"][0] == next(
                r for r in drift["references"] if r["status"] in {"moved", "changed", "missing"})
            for limit in (0, 10001):
                message = error(await session.call_tool("Drift", {"limit": limit}))["message"]
                assert f"invalid arguments for `Drift`: limit: {limit} is outside 1..=10000" in message
                assert "using" not in message, message
            # A negative limit is said in JSON's words, not Rust's (`expected usize`).
            message = error(await session.call_tool("Drift", {"limit": -1}))["message"]
            assert "expected an integer of at least 0" in message, message
            assert "usize" not in message, message
            result = await session.call_tool("Drift", {"to": ["nope=main"]})
            assert error(result)["code"] == "INVALID_ARGUMENTS", text(result)

            args = {"from": "c1efd68", "to": "d6e6a37", "source": "acme/shop-api-legacy"}
            impact = structured(await session.call_tool("Impact", args))
            assert impact == cli("impact", "--from", "c1efd68", "--to", "d6e6a37", "--source", "acme/shop-api-legacy")
            assert impact["counts"]["sections"] > 0
            assert "touch" in text(await session.call_tool("Impact", args))
            # A diff that does not apply to the old side says which field fixes it.
            stale = {"diff": "--- a/src/checkout.rs\n+++ b/src/checkout.rs\n@@ -1,1 +1,1 @@\n"
                             "-zzq not this line\n+x\n", "source": "acme/shop-api-legacy"}
            message = error(await session.call_tool("Impact", stale))["message"]
            assert "the diff was not made against" in message, message
            assert "as `from`" in message, message
            # `to` needs `from`; `diff` does not (its old side defaults to the clone's HEAD),
            # and the message says which (MCP-TS walk: it said `diff` needs `from`).
            message = error(await session.call_tool(
                "Impact", {"to": "d6e6a37", "source": "acme/shop-api-legacy"}))["message"]
            assert message.startswith("`to` needs `from`"), message

    run(body)
