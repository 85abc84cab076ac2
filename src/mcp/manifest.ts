import { SERVICE_VERSION } from "../version";
import { toolInputSchema, type Operation } from "./registry";

/** SPEC.md 2.19: the tools of the registry, as an MCP client installs them. */
export const MANIFEST_VERSION = "svc-mcp-manifest-v0.1";
export const MCP_PATH = "/v1/mcp";

export function toolManifest(ops: readonly Operation[], origin: string) {
  const tools = ops
    .filter((op) => op.tool)
    .map((op) => ({
      name: op.tool!,
      description: op.summary,
      method: op.method,
      path: op.templatePath,
      input_schema: toolInputSchema(op),
      auth_required: op.access !== "public",
      url: origin + op.templatePath,
    }));
  return {
    object: "mcp.manifest" as const,
    version: MANIFEST_VERSION,
    base_url: origin,
    tool_count: tools.length,
    tools,
    install: {
      claude_code_config: {
        mcpServers: {
          svc: { transport: "http", url: origin + MCP_PATH, auth: { type: "bearer", header: "Authorization", value: "Bearer ${SVC_API_KEY}" } },
        },
      },
    },
  };
}

/** The manifest is cached in KV per origin for this long (KV needs at least 60 s). */
export const MANIFEST_TTL_S = 300;

/** KV is a cache: a failure reading or writing it never fails the request. */
export async function cachedManifest(kv: KVNamespace, origin: string, build: () => ReturnType<typeof toolManifest>, defer: (p: Promise<unknown>) => void) {
  const key = `mcp-manifest:${MANIFEST_VERSION}:${SERVICE_VERSION}:${origin}`;
  try {
    const hit = await kv.get(key, "text");
    if (hit) return JSON.parse(hit) as ReturnType<typeof toolManifest>;
  } catch (err) {
    console.error("manifest cache read failed", err);
  }
  const manifest = build();
  defer(kv.put(key, JSON.stringify(manifest), { expirationTtl: MANIFEST_TTL_S }).catch((err) => console.error("manifest cache write failed", err)));
  return manifest;
}
