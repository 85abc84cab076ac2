import { Hono } from "hono";
import type { AppEnv } from "../env";
import { cachedManifest, MCP_PATH, toolManifest } from "./manifest";
import { openApiDocument } from "./openapi";
import { buildRegistry, type RouteLike } from "./registry";
import { handleMcp, type Dispatch } from "./server";

/**
 * GET /openapi.json (public), GET /v1/mcp/manifest (public) and the MCP transport at /v1/mcp
 * (bearer key). They describe and call the app they are mounted on, so app.ts hands in its routes
 * and its fetch.
 */
export function mcpRoutes(app: { routes: readonly RouteLike[]; fetch: (req: Request, env: AppEnv["Bindings"], ctx: ExecutionContext) => Response | Promise<Response> }) {
  let registry: ReturnType<typeof buildRegistry> | undefined;
  // Read once the app is fully mounted (the first request), then kept for the isolate's life.
  const operations = () => (registry ??= buildRegistry(app.routes)).operations;

  return new Hono<AppEnv>()
    .get("/openapi.json", (c) => c.json(openApiDocument(operations(), new URL(c.req.url).origin), 200, { "cache-control": "public, max-age=300" }))
    .get("/v1/mcp/manifest", async (c) => {
      const origin = new URL(c.req.url).origin;
      const manifest = await cachedManifest(c.env.CACHE, origin, () => toolManifest(operations(), origin), (p) => c.executionCtx.waitUntil(p));
      return c.json(manifest, 200, { "cache-control": "public, max-age=300" });
    })
    .all(MCP_PATH, (c) => {
      const dispatch: Dispatch = async (req) => app.fetch(req, c.env, c.executionCtx as ExecutionContext);
      return handleMcp(c.req.raw, operations(), dispatch);
    });
}
