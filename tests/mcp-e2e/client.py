"""End-to-end test of `rea mcp` with the Python MCP SDK (pinned in requirements.txt).

usage: python client.py REA_BINARY SAMPLE_APP_DIR WORK_DIR CATALOG_JSON

Every check is an assertion; the script exits non-zero on the first failure and prints one JSON
line of what it checked on success. WORK_DIR must be an empty scratch directory.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

REA, SAMPLE_APP, WORK, CATALOG = sys.argv[1:5]
checked = []


def ok(result, what):
    assert not result.is_error, f"{what} failed: {result.structured_content}"
    text = next(c for c in result.content if c.type == "text")
    assert json.loads(text.text) == result.structured_content, f"{what}: text and structured differ"
    return result.structured_content


def failed(result, what):
    assert result.is_error, f"{what} should fail"
    error = result.structured_content["error"]
    for key in ("code", "category", "message", "retryable", "remediation", "details"):
        assert key in error, f"{what}: error lacks {key}"
    return error


def server(env=None):
    return StdioServerParameters(command=REA, args=["mcp"], env=env)


async def main():
    catalog = json.load(open(CATALOG, encoding="utf-8"))
    expected = sorted(t["name"] for t in catalog["tools"]["items"])
    bundle_path = os.path.join(WORK, "py.bundle.json")

    async with stdio_client(server()) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            assert init.server_info.name == "rea"
            checked.append("initialize")

            listed = await session.list_tools()
            assert sorted(t.name for t in listed.tools) == expected
            for tool in listed.tools:
                assert tool.input_schema["type"] == "object"
                assert tool.output_schema["type"] == "object"
                assert tool.annotations is not None and tool.annotations.open_world_hint is False
            checked.append("tools/list equals the checked-in catalog")

            state = ok(await session.call_tool("binary_session", {}), "binary_session")["result"]
            assert sorted(t["name"] for t in state["tool_availability"]) == expected
            assert state["alignment"]["state"] == "unknown"
            digest = state["server_identity"]["catalog"]["digests"]["combined_sha256"]
            assert digest == catalog["digests"]["combined_sha256"], "live digest equals the catalog's"
            checked.append("binary_session")

            opened = ok(await session.call_tool("open_binary", {"path": SAMPLE_APP}), "open")["result"]
            assert opened["provider_id"] == "rea-static"
            assert opened["selection_source"] == "auto-single-candidate"
            state = ok(await session.call_tool("binary_session", {}), "session")["result"]
            assert state["analysis_run"]["run_id"] == opened["run_id"]
            assert state["target"]["format"] == "directory"
            reopened = ok(await session.call_tool("open_binary", {"path": SAMPLE_APP}), "reopen")["result"]
            assert reopened["run_id"] != opened["run_id"], "every transition allocates a run id"
            unknown = failed(
                await session.call_tool("open_binary", {"path": SAMPLE_APP, "provider_id": "no-such"}),
                "unknown provider",
            )
            assert unknown["details"]["selection_reason"] == "unknown_provider"
            checked.append("open_binary")

            updates = []

            async def on_progress(progress, total, message):
                updates.append((progress, total, message))

            analyzed = ok(
                await session.call_tool(
                    "analyze_javascript_application",
                    {"input_path": SAMPLE_APP},
                    progress_callback=on_progress,
                ),
                "analyze",
            )
            assert analyzed["evidence"]["normalized_result"] == analyzed["result"]
            assert updates, "progress arrives"
            assert all(b[0] >= a[0] for a, b in zip(updates, updates[1:])), "monotonic"
            assert updates[-1][2].startswith("done: "), "terminal update last"
            checked.append("analyze with progress")

            # The retained analysis against itself, both sides by reference: nothing changed.
            reference = {"kind": "retained-evidence", "evidence_id": analyzed["evidence_id"]}
            versions = ok(
                await session.call_tool(
                    "compare_application_versions", {"left": reference, "right": reference}
                ),
                "compare versions",
            )["result"]
            nodes = len(analyzed["result"]["graph"]["nodes"])
            assert versions["summary"]["unchanged"] == nodes
            assert versions["summary"]["paired"] == nodes
            assert all(versions["summary"][s] == 0 for s in ("added", "removed", "changed", "unknown"))
            checked.append("compare_application_versions")

            # The sample's own directory as the historical source of the retained analysis:
            # every file it holds is unchanged.
            sourced = ok(
                await session.call_tool(
                    "compare_source_to_bundle",
                    {
                        "reference": {"kind": "directory", "input_path": SAMPLE_APP},
                        "application": reference,
                    },
                ),
                "compare source to bundle",
            )
            assert sourced["evidence"]["evidence_links"] == [analyzed["evidence_id"]]
            summary = sourced["result"]["summary"]
            assert summary["unchanged"] == len(sourced["result"]["items"]) > 0, summary
            assert all(summary[s] == 0 for s in ("modified", "removed", "unknown")), summary
            checked.append("compare_source_to_bundle")

            # An export the analysis lists, against itself by reference: unchanged, every
            # variant identical; the other side's selector can name it under another module.
            exported = next(
                e for e in analyzed["result"]["export_shapes"]["exports"] if e["kind"] == "function"
            )
            shapes = ok(
                await session.call_tool(
                    "compare_javascript_export_shapes",
                    {
                        "left": reference,
                        "right": reference,
                        "left_module_path": exported["module_path"],
                        "left_export_name": exported["export_name"],
                        "limits": {"max_changes": 10},
                    },
                ),
                "compare export shapes",
            )
            result = shapes["result"]
            assert shapes["evidence"]["evidence_links"] == [analyzed["evidence_id"]] * 2
            assert result["right"]["export"] == exported
            assert [v["pairing"] for v in result["variants"]] == ["identical"] * len(exported["shapes"])
            assert result["summary"]["changed"] == 0 and not result["attribute_changes"]
            moved = ok(
                await session.call_tool(
                    "compare_javascript_export_shapes",
                    {
                        "left": reference,
                        "right": reference,
                        "left_module_path": exported["module_path"],
                        "left_export_name": exported["export_name"],
                        "right_module_path": "no/such/module.js",
                    },
                ),
                "compare a moved export",
            )["result"]
            assert moved["status"] == "unknown" and moved["reason"] == "right-missing"
            assert moved["right"]["selection"] == "missing"
            checked.append("compare_javascript_export_shapes")

            # The same retained analysis traced from its bridge, along the flow.
            traced = ok(
                await session.call_tool(
                    "trace_application_feature",
                    {
                        "application": reference,
                        "seed": {"kind": "api", "value": "SETTINGS"},
                        "direction": "outgoing",
                        "limits": {"max_depth": 2},
                    },
                ),
                "trace",
            )["result"]
            assert traced["seed_matches"][0]["kind"] == "context-bridge-api"
            ends = {p["end_kind"] for p in traced["paths"]}
            assert "ipc-handler" in ends, ends
            assert traced["coverage"]["status"] in ("complete-within-source", "partial", "truncated")
            checked.append("trace_application_feature")

            # The retained analysis's semantic graph: who calls the handler's channel, backwards
            # from the handler to the preload that invokes it.
            def semantic_query(direction, **more):
                query = {"seed": {"kind": "event", "value": "settings:get"}, "direction": direction}
                return {"application": reference, "query": {**query, **more}}

            sem = ok(
                await session.call_tool(
                    "trace_javascript_semantics", semantic_query("backward-provenance")
                ),
                "semantic trace",
            )["result"]
            assert sem["status"] in ("partial", "truncated"), sem["status"]
            paths = {n["node"]["identity"]["module_path"] for n in sem["nodes"]}
            assert paths == {"src/main.js", "src/preload.js"}, paths
            assert any(
                n["node"]["kind"] == "call-site" and "invoke" in n["node"]["label"]
                for n in sem["nodes"]
            ), [n["node"]["label"] for n in sem["nodes"]]
            bad = failed(
                await session.call_tool(
                    "trace_javascript_semantics",
                    semantic_query("callers", allowed_relations=["teleports"]),
                ),
                "an unknown relation",
            )
            assert "teleports" in bad["message"], bad
            checked.append("trace_javascript_semantics")

            missing_id = "ev_" + "f" * 64
            missing = failed(
                await session.call_tool(
                    "compare_artifacts",
                    {
                        "left": {"kind": "retained-evidence", "evidence_id": missing_id},
                        "right": {"kind": "retained-evidence", "evidence_id": missing_id},
                    },
                ),
                "missing",
            )
            assert missing["details"] == {**missing["details"], "reason": "missing", "evidence_id": missing_id}
            checked.append("missing reference")

            exported = ok(await session.call_tool("export_evidence_bundle", {"path": bundle_path}), "export")
            # The analysis, the two comparisons, the two export shape comparisons, the trace and
            # the semantic query (the refused query records nothing).
            assert exported["result"]["records"] == 7

    async with stdio_client(server()) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            imported = ok(await session.call_tool("import_evidence_bundle", {"path": bundle_path}), "import")
            assert imported["result"] == {"imported": 7, "duplicates": 0, "total": 7}
            bundle = ok(await session.call_tool("get_evidence_bundle", {}), "bundle")["result"]
            assert bundle == json.load(open(bundle_path, encoding="utf-8"))
            again = ok(await session.call_tool("import_evidence_bundle", {"path": bundle_path}), "reimport")
            assert again["result"] == {"imported": 0, "duplicates": 7, "total": 7}
            tampered = json.load(open(bundle_path, encoding="utf-8"))
            tampered["records"][0]["normalized_result"]["limitations"] = ["edited"]
            tampered_path = os.path.join(WORK, "tampered.bundle.json")
            json.dump(tampered, open(tampered_path, "w", encoding="utf-8"))
            rejected = failed(
                await session.call_tool("import_evidence_bundle", {"path": tampered_path}), "tampered"
            )
            assert rejected["code"] == "evidence_integrity_mismatch", rejected
            checked.append("export, import, tamper rejection")

    print(json.dumps({"client": "python", "sdk": "mcp 2.3.0", "checked": checked}))


asyncio.run(main())
