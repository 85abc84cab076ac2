import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker-provider.js";
import { SERVICE_VERSION } from "../version";
import { toolInputSchema, type Operation } from "./registry";

/**
 * The MCP server at /v1/mcp, on the official SDK over Streamable HTTP, stateless: a new server and
 * transport per HTTP request (no session to keep across Worker isolates; every tool call carries the
 * caller's key anyway). A tool call is dispatched as a request to the REST endpoint it names, with
 * the caller's key, through the app's own fetch: the same validation, limits, usage, receipts and
 * audit events apply, and a REST error comes back as an MCP tool error with its code and message.
 */
export type Dispatch = (request: Request) => Promise<Response>;

/** The REST request a tool call stands for: path params filled in, query fields in the URL, the rest as the body. */
export function restRequestFor(op: Operation, args: Record<string, unknown>, origin: string, headers: Headers): Request {
  const rest = { ...args };
  const path = op.path.replace(/:(\w+)/g, (_, name: string) => {
    const v = rest[name];
    delete rest[name];
    return encodeURIComponent(v === undefined ? "" : String(v));
  });
  const url = new URL(origin + path);
  const queryKeys = Object.keys((toolInputSchema({ ...op, params: undefined, body: undefined }).properties as Record<string, unknown>) ?? {});
  for (const k of queryKeys) {
    if (rest[k] !== undefined) url.searchParams.set(k, String(rest[k]));
    delete rest[k];
  }
  const init: RequestInit = { method: op.method, headers };
  if (op.method !== "GET" && op.method !== "DELETE") {
    headers.set("content-type", "application/json");
    init.body = JSON.stringify(rest);
  }
  return new Request(url, init);
}

async function toolResult(res: Response): Promise<CallToolResult> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (an SSE stream is never asked for by a tool); pass the text through
  }
  if (res.ok) {
    return { content: [{ type: "text", text }], ...(body && typeof body === "object" && !Array.isArray(body) ? { structuredContent: body as Record<string, unknown> } : {}) };
  }
  const flat = (body as { detail?: { error?: string; message?: string }; error?: string | { code?: string; message?: string }; message?: string }) ?? {};
  const inner = flat.detail ?? (typeof flat.error === "object" ? { error: flat.error.code, message: flat.error.message } : flat);
  const code = (inner as { error?: string }).error ?? `http_${res.status}`;
  const message = (inner as { message?: string }).message ?? text;
  return { isError: true, content: [{ type: "text", text: `${code} (HTTP ${res.status}): ${message}` }], structuredContent: { status: res.status, error: code, message, body: body as never } };
}

export async function handleMcp(request: Request, ops: readonly Operation[], dispatch: Dispatch): Promise<Response> {
  const tools = ops.filter((op) => op.tool);
  const byName = new Map(tools.map((op) => [op.tool!, op]));
  const origin = new URL(request.url).origin;
  const server = new Server({ name: "svc-gateway", version: SERVICE_VERSION }, { capabilities: { tools: {} }, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((op) => ({ name: op.tool!, description: `${op.summary} (${op.method} ${op.templatePath})`, inputSchema: toolInputSchema(op) as never })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const op = byName.get(req.params.name);
    if (!op) return { isError: true, content: [{ type: "text", text: `unknown_tool: no tool named ${req.params.name}; see tools/list.` }] };
    const headers = new Headers();
    const auth = request.headers.get("authorization");
    if (auth) headers.set("authorization", auth);
    const fault = request.headers.get("x-sandbox-fault");
    if (fault) headers.set("x-sandbox-fault", fault);
    return toolResult(await dispatch(restRequestFor(op, (req.params.arguments ?? {}) as Record<string, unknown>, origin, headers)));
  });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  return transport.handleRequest(request);
}
