import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, inject, it } from "vitest";

/** The official MCP SDK client against `npm run dev`, and the OpenAPI document through a validator. */
const baseUrl = inject("baseUrl");
const key = inject("devKey");

async function connect(auth: string | null) {
  const client = new Client({ name: "svc-e2e", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/v1/mcp`), { requestInit: { headers: auth ? { authorization: `Bearer ${auth}` } : {} } });
  await client.connect(transport);
  return client;
}

const text = (r: any) => r.content[0].text as string;

describe("the MCP server with the MCP SDK client", () => {
  it("initializes, lists every manifest tool with its schema, and calls chat, route, policy check, readiness and verify", async () => {
    const client = await connect(key);
    const { tools } = await client.listTools();
    const manifest = await (await fetch(`${baseUrl}/v1/mcp/manifest`)).json();
    expect(tools.map((t) => t.name).toSorted()).toEqual(manifest.tools.map((t: any) => t.name).toSorted());
    for (const t of manifest.tools) expect(tools.find((x) => x.name === t.name)!.inputSchema).toEqual(t.input_schema);

    const chat = await client.callTool({ name: "chat_completion", arguments: { model: "auto", messages: [{ role: "user", content: "Say hi in French." }] } });
    expect(chat.isError).toBeFalsy();
    expect((chat.structuredContent as any).svc.proof.verifiable).toBe(true);
    const route = await client.callTool({ name: "route_preview", arguments: { messages: [{ role: "user", content: "Prove that sqrt(2) is irrational." }] } });
    expect((route.structuredContent as any).object).toBe("route");
    const check = await client.callTool({ name: "policy_check", arguments: { workspace_id: "ws-mcp", action: "drop the users table in production", action_kind: "delete", files_affected: ["prod/users.sql"] } });
    expect(check.isError, text(check)).toBeFalsy();
    expect((check.structuredContent as any).decision).toBeDefined();
    const readiness = await client.callTool({ name: "workspace_readiness", arguments: { workspace_id: "ws-mcp", project_name: "Parser", stack: ["TypeScript"], protected_paths: [".env*"], forbidden_commands: ["rm -rf"], require_handoffs: true, require_risk_gate: true } });
    expect(readiness.isError, text(readiness)).toBeFalsy();
    const verify = await client.callTool({ name: "verify_trajectory", arguments: { run_id: "agt_x", trajectory_proof: "sha256:x", output: "", steps: [] } });
    expect((verify.structuredContent as any).valid).toBe(false);
    await client.close();
  });

  it("a bad argument is a tool error carrying the REST code and message", async () => {
    const client = await connect(key);
    const bad = await client.callTool({ name: "risk_score", arguments: { kind: "teleport", targets: [] } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/^invalid_request \(HTTP 400\): .*kind/);
    await client.close();
  });

  it("a missing key is refused", async () => {
    await expect(connect(null)).rejects.toThrow(/401|invalid_api_key/);
  });
});

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.1 document covering the manifest's tools", async () => {
    const doc = await (await fetch(`${baseUrl}/openapi.json`)).json();
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    const manifest = await (await fetch(`${baseUrl}/v1/mcp/manifest`)).json();
    for (const t of manifest.tools) expect(doc.paths[t.path][t.method.toLowerCase()].operationId).toBe(t.name);
  });
});
