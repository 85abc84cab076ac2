import { Hono } from "hono";
import { callDeps } from "../calls/deps";
import type { AppEnv } from "../env";
import { FAULT_HEADER } from "../sandbox/faults";
import { validate } from "../shared/validate";
import { ENDPOINT, runCode } from "./run";
import { codeRequestSchema } from "./schema";

/** SPEC.md 4.3: parse, run the coder and critic loop, render. */
export const codeRoutes = new Hono<AppEnv>().post(ENDPOINT, validate("json", codeRequestSchema), async (c) => {
  const calls = callDeps({ env: c.env, key: c.get("apiKey"), faults: c.req.header(FAULT_HEADER) ?? null, signal: c.req.raw.signal, waitUntil: (p) => c.executionCtx.waitUntil(p) });
  return c.json(await runCode({ calls }, { requestId: c.get("requestId"), startedAt: c.get("startedAt"), body: c.req.valid("json") }));
});
