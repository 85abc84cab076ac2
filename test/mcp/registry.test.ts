import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { cachedManifest, toolManifest } from "../../src/mcp/manifest";
import { buildRegistry } from "../../src/mcp/registry";
import { call, newKey } from "../helpers";

describe("the operation registry", () => {
  it("has exactly the app's routes: none undocumented, none without a route", () => {
    const r = buildRegistry(app.routes);
    expect(r.undocumented, "routes missing from src/mcp/operations.ts: add an entry (summary, tool, response) for each").toEqual([]);
    expect(r.unrouted, "entries of src/mcp/operations.ts with no route: remove them").toEqual([]);
    expect(r.operations.length).toBeGreaterThan(30);
  });

  it("reads request schemas off the routes' validators", () => {
    const ops = new Map(buildRegistry(app.routes).operations.map((o) => [o.key, o]));
    expect(ops.get("POST /v1/chat/completions")!.body).toBeDefined();
    expect(ops.get("GET /v1/agent/:run_id/trajectory")!.params).toBeDefined();
    expect(ops.get("GET /v1/agent/:run_id/trajectory")!.query).toBeDefined();
    expect(ops.get("GET /v1/models")!.access).toBe("public");
    expect(ops.get("POST /v1/agent/verify")!.access).toBe("public");
    expect(ops.get("POST /v1/agent/run")!.access).toBe("key");
    expect(ops.get("POST /admin/keys")!.access).toBe("admin");
  });
});

describe("GET /openapi.json", () => {
  it("describes every operation with its parameters, bodies, error shapes and security", async () => {
    const r = await call("/openapi.json");
    expect(r.status).toBe(200);
    const doc = r.json;
    expect(doc.openapi).toBe("3.1.0");
    const ops = buildRegistry(app.routes).operations;
    for (const op of ops) expect(doc.paths[op.templatePath]?.[op.method.toLowerCase()], op.key).toBeDefined();
    const run = doc.paths["/v1/agent/run"].post;
    expect(run.security).toEqual([{ bearerKey: [] }]);
    expect(run.requestBody.content["application/json"].schema.properties.goal).toBeDefined();
    expect(run.responses["401"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/WrappedError" });
    expect(doc.paths["/v1/agent/verify"].post.security).toEqual([]);
    expect(doc.paths["/v1/agent/{run_id}/trajectory"].get.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "run_id", in: "path", required: true }), expect.objectContaining({ name: "full", in: "query", required: false })]),
    );
  });
});

describe("GET /v1/mcp/manifest", () => {
  it("is public, SPEC.md 2.19 in every field, with urls from the request origin", async () => {
    const r = await call("/v1/mcp/manifest");
    expect(r.status).toBe(200);
    const m = r.json;
    expect(m).toMatchObject({ object: "mcp.manifest", version: "svc-mcp-manifest-v0.1", base_url: "https://svc.test" });
    expect(m.tool_count).toBe(m.tools.length);
    const chat = m.tools.find((t: any) => t.name === "chat_completion");
    expect(chat).toMatchObject({ method: "POST", path: "/v1/chat/completions", auth_required: true, url: "https://svc.test/v1/chat/completions" });
    expect(chat.input_schema.properties.messages).toBeDefined();
    expect(m.tools.find((t: any) => t.name === "verify_trajectory")).toMatchObject({ auth_required: false, path: "/v1/agent/verify" });
    expect(m.tools.find((t: any) => t.name === "get_agent_run").path).toBe("/v1/agent/{run_id}");
    expect(m.install.claude_code_config.mcpServers.svc).toEqual({ transport: "http", url: "https://svc.test/v1/mcp", auth: { type: "bearer", header: "Authorization", value: "Bearer ${SVC_API_KEY}" } });
  });

  it("is cached in KV per origin, and a KV failure never fails the request", async () => {
    await call("/v1/mcp/manifest");
    const keys = await env.CACHE.list({ prefix: "mcp-manifest:" });
    expect(keys.keys.some((k) => k.name.endsWith(":https://svc.test"))).toBe(true);
    const broken = { get: () => Promise.reject(new Error("kv down")), put: () => Promise.reject(new Error("kv down")) } as unknown as KVNamespace;
    const ops = buildRegistry(app.routes).operations;
    const pending: Promise<unknown>[] = [];
    const m = await cachedManifest(broken, "https://x.test", () => toolManifest(ops, "https://x.test"), (p) => pending.push(p));
    await Promise.all(pending);
    expect(m.base_url).toBe("https://x.test");
  });
});

describe("/v1/mcp", () => {
  const rpc = (key: string | undefined, method: string, params: unknown = {}) =>
    call("/v1/mcp", { key, json: { jsonrpc: "2.0", id: 1, method, params }, headers: { accept: "application/json, text/event-stream" } });

  it("needs a bearer key: 401 in the SPEC.md 7 wrapped shape", async () => {
    const r = await rpc(undefined, "tools/list");
    expect(r.status).toBe(401);
    expect(r.json.detail.error).toBe("invalid_api_key");
  });

  it("lists the manifest's tools and calls them through the REST endpoints with the caller's key", async () => {
    const { key } = await newKey();
    const list = await rpc(key, "tools/list");
    expect(list.status).toBe(200);
    const names = list.json.result.tools.map((t: any) => t.name);
    expect(names).toContain("policy_check");
    const manifest = (await call("/v1/mcp/manifest")).json;
    expect(names.toSorted()).toEqual(manifest.tools.map((t: any) => t.name).toSorted());
    const risk = await rpc(key, "tools/call", { name: "risk_score", arguments: { kind: "delete", targets: ["prod/db"] } });
    expect(risk.json.result.isError).toBeFalsy();
    expect(risk.json.result.structuredContent.score).toBeGreaterThan(0);
    const bad = await rpc(key, "tools/call", { name: "risk_score", arguments: { kind: "teleport" } });
    expect(bad.json.result.isError).toBe(true);
    expect(bad.json.result.content[0].text).toMatch(/^invalid_request \(HTTP 400\)/);
    const missing = await rpc(key, "tools/call", { name: "get_agent_run", arguments: { run_id: "agt_nope" } });
    expect(missing.json.result).toMatchObject({ isError: true, structuredContent: { status: 404, error: "run_not_found" } });
  });
});
