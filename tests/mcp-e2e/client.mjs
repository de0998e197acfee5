// End-to-end test of `rea mcp` with the official TypeScript MCP SDK (pinned in package.json).
//
// usage: node client.mjs REA_BINARY SAMPLE_APP_DIR WORK_DIR
//
// Every check is an assertion; the script exits non-zero on the first failure and prints one
// JSON line of what it checked on success. WORK_DIR must be an empty scratch directory.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [rea, sampleApp, work] = process.argv.slice(2);
assert.ok(rea && sampleApp && work, "usage: client.mjs REA SAMPLE_APP WORK_DIR");
const checked = [];
const check = (name) => checked.push(name);

const EXPECTED_TOOLS = [
  "analyze_javascript_application",
  "binary_session",
  "close_binary",
  "compare_application_versions",
  "compare_artifacts",
  "compare_javascript_export_shapes",
  "compare_source_to_bundle",
  "export_evidence_bundle",
  "extract_artifact",
  "get_evidence_bundle",
  "import_evidence_bundle",
  "inspect_artifact",
  "inventory_artifact",
  "open_binary",
  "trace_application_feature",
  "trace_javascript_semantics",
];

async function connect(env = {}) {
  const transport = new StdioClientTransport({
    command: rea,
    args: ["mcp"],
    env: { ...process.env, ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "rea-e2e-ts", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

async function call(client, name, args, options = {}) {
  return client.callTool({ name, arguments: args }, undefined, { timeout: 300000, ...options });
}

/** The structured content of a successful call, after checking the text form carries the same JSON. */
function ok(result, what) {
  assert.ok(!result.isError, `${what} failed: ${JSON.stringify(result.structuredContent)}`);
  const text = result.content.find((c) => c.type === "text");
  assert.deepEqual(JSON.parse(text.text), result.structuredContent, `${what}: text and structured forms differ`);
  return result.structuredContent;
}

function failed(result, what) {
  assert.equal(result.isError, true, `${what} should fail`);
  const error = result.structuredContent.error;
  for (const key of ["code", "category", "message", "retryable", "remediation", "details"]) {
    assert.ok(key in error, `${what}: error lacks ${key}`);
  }
  return error;
}

/**
 * The schema profile: no recursive local $ref, and at most 10 levels of object, array,
 * anyOf/oneOf/allOf nesting along any path, following local refs. Property maps, definitions and
 * examples add no level.
 */
function schemaDepth(node, root, refs = []) {
  if (node === null || typeof node !== "object") return 0;
  if (typeof node.$ref === "string") {
    assert.ok(node.$ref.startsWith("#"), `non-local $ref ${node.$ref}`);
    assert.ok(!refs.includes(node.$ref), `recursive $ref ${node.$ref}`);
    const target = node.$ref
      .slice(2)
      .split("/")
      .filter(Boolean)
      .reduce((at, key) => at?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], root);
    assert.ok(target !== undefined, `unresolved $ref ${node.$ref}`);
    return schemaDepth(target, root, [...refs, node.$ref]);
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  let depth = types.includes("object") || types.includes("array") ? 1 : 0;
  const children = [
    ...Object.values(node.properties ?? {}),
    ...Object.values(node.patternProperties ?? {}),
    ...(typeof node.additionalProperties === "object" ? [node.additionalProperties] : []),
    ...(typeof node.items === "object" && !Array.isArray(node.items) ? [node.items] : []),
    ...(Array.isArray(node.items) ? node.items : []),
    ...(node.prefixItems ?? []),
    ...(node.anyOf ?? []),
    ...(node.oneOf ?? []),
    ...(node.allOf ?? []),
  ];
  for (const child of children) depth = Math.max(depth, 1 + schemaDepth(child, root, refs));
  return depth;
}

// A directory big enough that its complete inventory exceeds the 10 MiB response budget.
function bigTree(dir, files) {
  fs.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < files; i++) {
    const sub = path.join(dir, `d${String(i % 64).padStart(2, "0")}`);
    if (i < 64) fs.mkdirSync(sub);
    fs.writeFileSync(path.join(sub, `file-${String(i).padStart(6, "0")}.txt`), `content ${i}\n`);
  }
}

async function main() {
  const { client, transport } = await connect();

  // initialize
  assert.equal(client.getServerVersion().name, "rea");
  assert.ok(client.getServerCapabilities().tools, "tools capability");
  assert.ok(!client.getServerCapabilities().tools.listChanged, "no list_changed");
  check("initialize");

  // tools/list: complete inventory, schemas, annotations, and the schema profile.
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), EXPECTED_TOOLS);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, "object", tool.name);
    assert.equal(tool.outputSchema.type, "object", tool.name);
    assert.ok(tool.description.length > 40, `${tool.name} description`);
    assert.equal(typeof tool.annotations.readOnlyHint, "boolean", tool.name);
    assert.equal(tool.annotations.openWorldHint, false, tool.name);
    for (const schema of [tool.inputSchema, tool.outputSchema]) {
      const depth = schemaDepth(schema, schema);
      assert.ok(depth <= 10, `${tool.name} schema depth ${depth}`);
    }
  }
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  assert.equal(byName.binary_session.annotations.readOnlyHint, true);
  assert.equal(byName.analyze_javascript_application.annotations.readOnlyHint, false);
  assert.equal(byName.analyze_javascript_application.annotations.destructiveHint, false);
  assert.equal(byName.close_binary.annotations.destructiveHint, true);
  check("tools/list and schema profile");

  // binary_session: availability for every tool, identity, alignment.
  const session = ok(await call(client, "binary_session", {}), "binary_session").result;
  assert.deepEqual(session.tool_availability.map((t) => t.name).sort(), EXPECTED_TOOLS);
  for (const entry of session.tool_availability) {
    assert.equal(typeof entry.available, "boolean");
    assert.ok("reason" in entry && "remediation" in entry);
    assert.ok(Array.isArray(entry.client_requirements.missing_required));
  }
  assert.equal(session.alignment.state, "unknown");
  assert.equal(session.server_identity.sdk.server, "rmcp");
  assert.ok(session.server_identity.negotiated_protocol_version);
  const ids = session.analysis_provider_candidates.map((c) => c.provider.id);
  assert.deepEqual(ids, [...ids].sort());
  assert.equal(session.process_lineage.status, "not_observed");
  const digest = session.server_identity.catalog.digests.combined_sha256;
  const aligned = ok(await call(client, "binary_session", { expected_catalog_digest: digest }), "aligned").result;
  assert.equal(aligned.alignment.state, "aligned");
  const stale = ok(await call(client, "binary_session", { expected_package_version: "0.0.0-other" }), "stale").result;
  assert.equal(stale.alignment.state, "mcp_server_restart_required");
  assert.deepEqual(stale.alignment.reasons, ["package_version_mismatch"]);
  check("binary_session");

  // analyze_javascript_application with progress.
  const updates = [];
  const analyzed = ok(
    await call(client, "analyze_javascript_application", { input_path: sampleApp }, {
      onprogress: (p) => updates.push(p),
    }),
    "analyze",
  );
  assert.match(analyzed.evidence_id, /^ev_[0-9a-f]{64}$/);
  assert.equal(analyzed.evidence.evidence_id, analyzed.evidence_id);
  assert.deepEqual(analyzed.evidence.normalized_result, analyzed.result);
  assert.equal(analyzed.evidence.operation, "analyze_javascript_application");
  assert.ok(updates.length >= 1, "progress updates arrive");
  for (let i = 1; i < updates.length; i++) {
    assert.ok(updates[i].progress >= updates[i - 1].progress, "progress is monotonic");
  }
  for (const u of updates) if (u.total !== undefined) assert.ok(u.total >= u.progress, "total >= progress");
  assert.match(updates.at(-1).message, /^done: /, "the last update is the terminal one");
  check("analyze with progress");

  // Retained references: compare an inventory retained by id with the same one inline.
  const inventory = ok(await call(client, "inventory_artifact", { input_path: sampleApp, all: true }), "inventory");
  const compared = ok(
    await call(client, "compare_artifacts", {
      left: { kind: "retained-evidence", evidence_id: inventory.evidence_id },
      right: inventory.evidence,
    }),
    "compare",
  );
  assert.ok(compared.evidence.evidence_links.includes(inventory.evidence_id));
  const missingId = "ev_" + "0".repeat(64);
  const missing = failed(
    await call(client, "compare_artifacts", {
      left: { kind: "retained-evidence", evidence_id: missingId },
      right: inventory.evidence,
    }),
    "missing reference",
  );
  assert.equal(missing.details.reason, "missing");
  assert.equal(missing.details.evidence_id, missingId);
  check("retained and missing references");

  // Two versions of an application: the retained analysis against itself inline pairs every
  // node and changes none; an inventory is not an application and is refused.
  const versions = ok(
    await call(client, "compare_application_versions", {
      left: { kind: "retained-evidence", evidence_id: analyzed.evidence_id },
      right: analyzed.evidence,
    }),
    "compare versions",
  );
  assert.deepEqual(versions.evidence.evidence_links, [analyzed.evidence_id, analyzed.evidence_id]);
  assert.equal(versions.result.summary.unchanged, analyzed.result.graph.nodes.length);
  for (const s of ["added", "removed", "changed", "unknown"]) assert.equal(versions.result.summary[s], 0, s);
  assert.equal(versions.result.items.length, analyzed.result.graph.nodes.length);
  const notApp = failed(
    await call(client, "compare_application_versions", {
      left: { kind: "retained-evidence", evidence_id: inventory.evidence_id },
      right: analyzed.evidence,
    }),
    "inventory as a version",
  );
  assert.equal(notApp.details.side, "left");
  check("compare_application_versions");

  // The sample's own directory as the historical source of its retained analysis: every file
  // it holds is unchanged, nothing modified or removed; a relative directory is refused.
  const sourced = ok(
    await call(client, "compare_source_to_bundle", {
      reference: { kind: "directory", input_path: sampleApp },
      application: { kind: "retained-evidence", evidence_id: analyzed.evidence_id },
    }),
    "compare source to bundle",
  );
  assert.deepEqual(sourced.evidence.evidence_links, [analyzed.evidence_id]);
  assert.ok(sourced.result.summary.unchanged > 0);
  assert.equal(sourced.result.summary.unchanged, sourced.result.items.length);
  for (const s of ["modified", "removed", "split", "merged", "unknown"]) {
    assert.equal(sourced.result.summary[s], 0, s);
  }
  failed(
    await call(client, "compare_source_to_bundle", {
      reference: { kind: "directory", input_path: "relative/dir" },
      application: analyzed.evidence,
    }),
    "relative reference",
  );
  check("compare_source_to_bundle");

  // An export the analysis lists, compared with itself (one side by reference, one inline):
  // every variant pairs as identical and nothing changed; a name it does not list is unknown,
  // with the module's real exports as candidates.
  const shipped = analyzed.result.export_shapes.exports.find((e) => e.kind === "function");
  assert.ok(shipped, "the sample exports a function");
  const selector = { left_module_path: shipped.module_path, left_export_name: shipped.export_name };
  const same = ok(
    await call(client, "compare_javascript_export_shapes", {
      left: { kind: "retained-evidence", evidence_id: analyzed.evidence_id },
      right: analyzed.evidence,
      ...selector,
    }),
    "compare export shapes",
  ).result;
  assert.equal(same.left.selection, "exact");
  assert.deepEqual(same.left.export, shipped);
  assert.equal(same.variants.length, shipped.shapes.length);
  assert.ok(same.variants.every((v) => v.pairing === "identical"));
  assert.equal(same.attribute_changes.length, 0);
  assert.equal(same.summary.added + same.summary.removed + same.summary.changed, 0);
  const unlisted = ok(
    await call(client, "compare_javascript_export_shapes", {
      left: analyzed.evidence,
      right: analyzed.evidence,
      ...selector,
      left_export_name: `${shipped.export_name}-not-shipped`,
    }),
    "compare a missing export",
  ).result;
  assert.equal(unlisted.status, "unknown");
  assert.equal(unlisted.left.selection, "missing");
  assert.ok(unlisted.left.candidates.some((c) => c.export_id === shipped.export_id));
  check("compare_javascript_export_shapes");

  // The sample's IPC channel queried in its semantic graph, the analysis by reference: the
  // preload's invoke reaches the channel the main process handles, and on to its handler; the
  // first page's cursor gives the second page; a cursor of another query is refused.
  const semantic = analyzed.result.semantic_graph;
  assert.equal(semantic.schema, "JavaScriptSemanticRelationGraph");
  assert.equal(semantic.application_graph_id, analyzed.result.graph.graph_id);
  const query = {
    seed: { kind: "event", value: "settings:get" },
    direction: "forward-influence",
  };
  const flow = ok(
    await call(client, "trace_javascript_semantics", {
      application: { kind: "retained-evidence", evidence_id: analyzed.evidence_id },
      query,
      limits: { page_size: 1 },
    }),
    "semantic trace",
  );
  assert.deepEqual(flow.evidence.evidence_links, [analyzed.evidence_id]);
  assert.equal(flow.result.graph_id, semantic.graph_id);
  assert.equal(flow.result.seed_matches.total, 2);
  assert.equal(flow.result.nodes.length, 1);
  assert.ok(flow.result.page.total_nodes >= 3);
  const byId = new Map(semantic.nodes.map((n) => [n.node_id, n]));
  let cursor = flow.result.page.next_cursor;
  const reached = [...flow.result.nodes];
  const relations = [...flow.result.relations];
  while (cursor) {
    const next = ok(
      await call(client, "trace_javascript_semantics", {
        application: analyzed.evidence,
        query: { ...query, cursor },
        limits: { page_size: 1 },
      }),
      "semantic trace page",
    ).result;
    reached.push(...next.nodes);
    relations.push(...next.relations);
    cursor = next.page.next_cursor;
  }
  assert.equal(reached.length, flow.result.page.total_nodes);
  const handler = reached.find((n) => n.node.kind === "function");
  assert.ok(handler, "the handler is reached");
  assert.equal(handler.node.identity.module_path, "src/main.js");
  assert.ok(
    relations.some(
      (r) =>
        r.relation === "dispatches-candidate" &&
        byId.get(r.source_node_id).identity.module_path === "src/preload.js" &&
        byId.get(r.target_node_id).identity.module_path === "src/main.js",
    ),
    "the channel links the preload to the main process",
  );
  const wrongCursor = failed(
    await call(client, "trace_javascript_semantics", {
      application: analyzed.evidence,
      query: { ...query, direction: "backward-provenance", cursor: flow.result.page.next_cursor },
      limits: { page_size: 1 },
    }),
    "a cursor of another query",
  );
  assert.equal(wrongCursor.details.reason, "invalid-cursor");
  check("trace_javascript_semantics");

  // A feature traced from the sample's bridge, the analysis by reference: the bridge leads to
  // the channel and on to its handler in the main process; a seed that names nothing is
  // no-match; a seed kind outside the vocabulary is refused by the schema.
  const traced = ok(
    await call(client, "trace_application_feature", {
      application: { kind: "retained-evidence", evidence_id: analyzed.evidence_id },
      seed: { kind: "api", value: "settings" },
      direction: "outgoing",
    }),
    "trace",
  );
  assert.deepEqual(traced.evidence.evidence_links, [analyzed.evidence_id]);
  assert.equal(traced.result.summary.matched_seeds, 1);
  const kinds = new Map(traced.result.graph.nodes.map((n) => [n.node_id, n.kind]));
  const toHandler = traced.result.paths.find((p) => p.end_kind === "ipc-handler");
  assert.ok(toHandler, "a path ends at the handler");
  assert.deepEqual(
    toHandler.node_ids.map((id) => kinds.get(id)),
    ["context-bridge-api", "ipc-channel", "ipc-handler"],
  );
  const none = ok(
    await call(client, "trace_application_feature", {
      application: analyzed.evidence,
      seed: { kind: "route", value: "/missing" },
    }),
    "trace no match",
  );
  assert.equal(none.result.graph, null);
  assert.equal(none.result.coverage.status, "no-match");
  const badSeed = await call(client, "trace_application_feature", {
    application: analyzed.evidence,
    seed: { kind: "regex", value: ".*" },
  }).catch((err) => ({ isError: true, thrown: err }));
  assert.equal(badSeed.isError, true, "an unknown seed kind is refused");
  check("trace_application_feature");

  // 32 concurrent calls on one connection; identical inputs give identical ids.
  const concurrent = await Promise.all(
    Array.from({ length: 32 }, (_, i) => {
      if (i % 4 === 0) return call(client, "binary_session", {});
      if (i % 4 === 1) return call(client, "inspect_artifact", { input_path: sampleApp });
      return call(client, "analyze_javascript_application", { input_path: sampleApp });
    }),
  );
  const analyzeIds = new Set();
  concurrent.forEach((result, i) => {
    const body = ok(result, `concurrent call ${i}`);
    if (i % 4 >= 2) analyzeIds.add(body.evidence_id);
  });
  assert.deepEqual([...analyzeIds], [analyzed.evidence_id]);
  check("32 concurrent calls");

  // Garbage on stdin: the server answers with a parse error and keeps serving.
  const errors = [];
  client.onerror = (e) => errors.push(String(e));
  transport._process.stdin.write("this is not json\n{\"jsonrpc\": \n");
  const afterGarbage = await client.listTools();
  assert.equal(afterGarbage.tools.length, EXPECTED_TOOLS.length);
  await new Promise((r) => setTimeout(r, 200));
  assert.ok(errors.length >= 1, "the parse errors reached the client");
  check("garbage on stdin");

  // Export, then import into a fresh connection: the round trip is exact.
  const bundlePath = path.join(work, "session.bundle.json");
  const exported = ok(await call(client, "export_evidence_bundle", { path: bundlePath }), "export").result;
  const fileText = fs.readFileSync(bundlePath, "utf8");
  assert.equal(exported.bytes, Buffer.byteLength(fileText));
  const again = failed(await call(client, "export_evidence_bundle", { path: bundlePath }), "export without overwrite");
  assert.ok(again.message.length > 0);
  ok(await call(client, "export_evidence_bundle", { path: bundlePath, overwrite: true }), "export with overwrite");
  const fresh = await connect();
  const imported = ok(await call(fresh.client, "import_evidence_bundle", { path: bundlePath }), "import").result;
  assert.equal(imported.imported, exported.records);
  assert.equal(imported.total, exported.records);
  const roundTrip = await call(fresh.client, "get_evidence_bundle", {});
  const bundle = ok(roundTrip, "get_evidence_bundle").result;
  assert.equal(JSON.stringify(bundle), JSON.stringify(JSON.parse(fileText)));
  assert.equal(roundTrip.content[0].text, `{"result":${fileText}}`);
  const viaImport = ok(
    await fresh.client.callTool({
      name: "compare_artifacts",
      arguments: {
        left: { kind: "retained-evidence", evidence_id: inventory.evidence_id },
        right: { kind: "retained-evidence", evidence_id: inventory.evidence_id },
      },
    }),
    "compare imported records",
  );
  assert.equal(viaImport.evidence_id.length, 67);
  await fresh.client.close();
  check("export, import and round trip");

  // Cancellation through an AbortSignal: nothing is recorded, and the next call works.
  const big = path.join(work, "big-tree");
  bigTree(big, 9000);
  const before = ok(await call(client, "binary_session", {}), "session").result.evidence_ledger.records;
  const controller = new AbortController();
  let aborted = false;
  const cancelled = call(client, "inventory_artifact", { input_path: big, all: true }, {
    signal: controller.signal,
    onprogress: () => {
      if (!aborted) {
        aborted = true;
        controller.abort("test cancels");
      }
    },
  });
  await assert.rejects(cancelled);
  let settled;
  for (let i = 0; i < 200; i++) {
    settled = ok(await call(client, "binary_session", {}), "session").result.evidence_ledger;
    if (settled.running_calls === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(settled.running_calls, 0);
  assert.equal(settled.records, before, "a cancelled call records nothing");
  ok(await call(client, "inspect_artifact", { input_path: sampleApp }), "the call after cancellation");
  check("cancellation");

  // Over the response budget: resource_constraint with a retained reference, then export it.
  const tooBig = failed(await call(client, "inventory_artifact", { input_path: big, all: true }), "oversized");
  assert.equal(tooBig.code, "resource_constraint");
  assert.equal(tooBig.details.resource, "transport");
  assert.ok(tooBig.details.measured_bytes > tooBig.details.limit - 1024);
  const reference = tooBig.details.reported_limits.evidence_reference;
  assert.equal(reference.kind, "retained-evidence");
  const bigBundle = path.join(work, "big.bundle.json");
  ok(await call(client, "export_evidence_bundle", { path: bigBundle }), "export oversized");
  const written = JSON.parse(fs.readFileSync(bigBundle, "utf8"));
  const record = written.records.find((r) => r.evidence_id === reference.evidence_id);
  assert.ok(record, "the oversized record is in the exported bundle");
  assert.ok(record.normalized_result.manifest.occurrence_count >= 9000);
  check("response budget");

  // close_binary clears the ledger.
  const closed = ok(await call(client, "close_binary", {}), "close").result;
  assert.ok(closed.records_cleared >= 3);
  const gone = failed(
    await call(client, "compare_artifacts", {
      left: { kind: "retained-evidence", evidence_id: inventory.evidence_id },
      right: inventory.evidence,
    }),
    "reference after close",
  );
  assert.equal(gone.details.reason, "missing");
  check("close_binary");

  await client.close();
  console.log(JSON.stringify({ client: "typescript", sdk: "1.32.2", checked }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
