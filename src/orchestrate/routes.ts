import { Hono } from "hono";
import { callDeps } from "../calls/deps";
import type { AppEnv } from "../env";
import { FAULT_HEADER } from "../sandbox/faults";
import { validate } from "../shared/validate";
import { ENDPOINT, orchestrate } from "./orchestrate";
import { orchestrateRequestSchema } from "./schema";

/** SPEC.md 4.2: parse, orchestrate, render. */
export const orchestrateRoutes = new Hono<AppEnv>().post(ENDPOINT, validate("json", orchestrateRequestSchema), async (c) => {
  const calls = callDeps({ env: c.env, key: c.get("apiKey"), faults: c.req.header(FAULT_HEADER) ?? null, signal: c.req.raw.signal, waitUntil: (p) => c.executionCtx.waitUntil(p) });
  return c.json(await orchestrate({ calls }, { requestId: c.get("requestId"), startedAt: c.get("startedAt"), body: c.req.valid("json") }));
});
