import { Hono } from "hono";
import { z } from "zod";
import { actorOf } from "../audit/record";
import { db } from "../db/client";
import type { AppEnv } from "../env";
import { assessWorkspaceRisk } from "../policy/assess";
import { notFound } from "../shared/errors";
import { workspaceIdSchema } from "../shared/schemas";
import { jsonAtMost } from "../shared/bounds";
import { validate } from "../shared/validate";
import { ledgerFor } from "./ledger";
import { chainQuery, findHandoff, handoffView, readChain } from "./store";

/**
 * A handoff row stores every list twice (its column and the signed `subject`), so each list is held
 * to 64 KiB of JSON: four lists and the scalar fields at their worst come to about 560 KB a row,
 * under D1's 1,000,000-byte row limit with room to spare (docs/ledger.md, "Storage bounds").
 */
export const LIST_MAX_BYTES = 65_536;

const text = (max: number) => z.string().trim().min(1).max(max);
const items = jsonAtMost(z.array(z.object({ id: text(200), description: text(2000) })).max(100), LIST_MAX_BYTES);

/** SPEC.md 4.6. Client-sent link fields (`prev_handoff_id`, ...) are not in the schema: zod drops them. */
const createBody = z.object({
  workspace_id: workspaceIdSchema,
  objective: z.string().trim().min(1).max(500),
  from_tool: text(200).optional(),
  to_tool: text(200).optional(),
  files_touched: jsonAtMost(z.array(text(1000)).max(1000), LIST_MAX_BYTES).default([]),
  constraints: jsonAtMost(z.array(text(2000)).max(100), LIST_MAX_BYTES).default([]),
  risks: items.default([]),
  validation: items.default([]),
  recommended_next_action: text(2000).optional(),
  action_kind: z.enum(["edit", "refactor", "deploy", "review", "setup"]).default("edit"),
  est_cost: z.number().min(0).max(1_000_000).optional(),
});

export const handoffRoutes = new Hono<AppEnv>()
  .post("/v1/handoff", validate("json", createBody), async (c) => {
    const body = c.req.valid("json");
    const key = c.get("apiKey");
    const risk = await assessWorkspaceRisk(db(c.env.DB), key.ownerId, body.workspace_id, { kind: body.action_kind, action: body.objective, files: body.files_touched, commands: [], estimatedCostUsd: body.est_cost });
    const ledger = ledgerFor(c.env, key.ownerId, body.workspace_id);
    const { row, eventId } = await ledger.append({
      actor: actorOf(key),
      objective: body.objective,
      fromTool: body.from_tool ?? null,
      toTool: body.to_tool ?? null,
      filesTouched: body.files_touched,
      constraints: body.constraints,
      risks: body.risks,
      validation: body.validation,
      recommendedNextAction: body.recommended_next_action ?? null,
      actionKind: body.action_kind,
      estCost: body.est_cost ?? null,
      risk: { score: risk.score, tier: risk.tier, factors: risk.fired },
    });
    return c.json({ ...handoffView(row), event_id: eventId });
  })
  .get("/v1/handoff/chain/:workspace_id", validate("param", z.object({ workspace_id: workspaceIdSchema })), validate("query", chainQuery), async (c) => {
    const pubkey = new URL("/v1/proof/pubkey", c.req.url).toString();
    return c.json(await readChain(c.env, db(c.env.DB), c.get("apiKey").ownerId, c.req.valid("param").workspace_id, c.req.valid("query"), pubkey));
  })
  .get("/v1/handoff/:handoff_id", validate("param", z.object({ handoff_id: z.string().min(1).max(200) })), async (c) => {
    const { handoff_id } = c.req.valid("param");
    // Another owner's handoff is as absent as an unknown one: 404, never 403.
    const row = await findHandoff(db(c.env.DB), c.get("apiKey").ownerId, handoff_id);
    if (!row) throw notFound("handoff_not_found", `No handoff ${handoff_id}.`);
    return c.json(handoffView(row));
  });
