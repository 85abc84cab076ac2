import { Hono } from "hono";
import { z } from "zod";
import { callDeps } from "../calls/deps";
import { db } from "../db/client";
import type { AppEnv } from "../env";
import { FAULT_HEADER } from "../sandbox/faults";
import { validate } from "../shared/validate";
import { agentRunState, agentTrajectory, cancelAgentRun, listAgentRuns, startAgentRun, verifyAgentBundle } from "./run";
import { agentRunSchema, agentVerifySchema, runsQuerySchema, trajectoryQuerySchema } from "./schema";

const runIdParam = z.object({ run_id: z.string().min(1).max(200) });

/** SPEC.md 4.4. `/verify` and `/runs` are declared before `/{run_id}` so they are never read as ids. */
export const agentRoutes = new Hono<AppEnv>()
  .post("/v1/agent/verify", validate("json", agentVerifySchema), (c) => c.json(verifyAgentBundle(c.req.valid("json"))))
  .post("/v1/agent/run", validate("json", agentRunSchema), async (c) => {
    const deps = callDeps({ env: c.env, key: c.get("apiKey"), faults: c.req.header(FAULT_HEADER) ?? null, signal: c.req.raw.signal, waitUntil: (p) => c.executionCtx.waitUntil(p) });
    return c.json(await startAgentRun(deps, c.req.valid("json")));
  })
  .get("/v1/agent/runs", validate("query", runsQuerySchema), async (c) => c.json(await listAgentRuns({ db: db(c.env.DB), key: c.get("apiKey") }, c.req.valid("query").limit)))
  .get("/v1/agent/:run_id", validate("param", runIdParam), async (c) => c.json(await agentRunState({ db: db(c.env.DB), key: c.get("apiKey") }, c.req.valid("param").run_id)))
  .get("/v1/agent/:run_id/trajectory", validate("param", runIdParam), validate("query", trajectoryQuerySchema), async (c) =>
    c.json(await agentTrajectory({ db: db(c.env.DB), key: c.get("apiKey") }, c.req.valid("param").run_id, c.req.valid("query").full)),
  )
  .post("/v1/agent/:run_id/cancel", validate("param", runIdParam), async (c) => c.json(await cancelAgentRun({ db: db(c.env.DB), key: c.get("apiKey") }, c.req.valid("param").run_id)));
