import { Hono } from "hono";
import { z } from "zod";
import { actorOf, recordAuditEvent } from "../audit/record";
import { db } from "../db/client";
import type { AppEnv } from "../env";
import { validate } from "../shared/validate";
import { loadPolicyManifest, workspaceIdSchema } from "../workspace/manifest";
import { assessRisk } from "./risk";

const paths = z.array(z.string().min(1).max(1000)).max(1000);
const commands = z.array(z.string().min(1).max(4000)).max(200);
const cost = z.number().min(0).max(1_000_000);

const riskScoreBody = z.object({
  kind: z.enum(["edit", "deploy", "delete", "exec", "network", "read"]),
  targets: z.array(z.string().min(1).max(4000)).max(1000).default([]),
  /** Optional: score against this workspace's stored manifest (read only). */
  workspace_id: workspaceIdSchema.optional(),
  commands: commands.optional(),
  estimated_cost_usd: cost.optional(),
});

const policyCheckBody = z.object({
  workspace_id: workspaceIdSchema,
  action: z.string().trim().min(1).max(2000),
  action_kind: z.enum(["edit", "refactor", "deploy", "review", "setup", "delete"]).default("edit"),
  files_affected: paths.default([]),
  commands: commands.default([]),
  estimated_cost_usd: cost.optional(),
  context: z.record(z.string(), z.unknown()).optional(),
});

export const policyRoutes = new Hono<AppEnv>()
  /**
   * POST /v1/risk/score (SPEC.md 4.12): a dry run, nothing is written. `targets` are paths (checked
   * against protected paths and secrets files); for `exec` and `network` they are also the commands
   * or addresses to check against forbidden, destructive, deploy and network patterns.
   */
  .post("/v1/risk/score", validate("json", riskScoreBody), async (c) => {
    const body = c.req.valid("json");
    const manifest = body.workspace_id ? await loadPolicyManifest(db(c.env.DB), c.get("apiKey").ownerId, body.workspace_id) : {};
    const a = assessRisk(
      { kind: body.kind, files: body.targets, commands: [...(body.kind === "exec" || body.kind === "network" ? body.targets : []), ...(body.commands ?? [])], estimatedCostUsd: body.estimated_cost_usd },
      manifest,
    );
    return c.json({ object: "risk.score", score: a.score, tier: a.tier, decision: a.decision, fired: a.fired, factors: a.factors, reason: a.reason });
  })
  /** POST /v1/policy/check (SPEC.md 4.7, 2.11): 200 for every decision, one `policy_check` audit event each. */
  .post("/v1/policy/check", validate("json", policyCheckBody), async (c) => {
    const body = c.req.valid("json");
    const key = c.get("apiKey");
    const database = db(c.env.DB);
    const manifest = await loadPolicyManifest(database, key.ownerId, body.workspace_id);
    const a = assessRisk(
      { kind: body.action_kind, action: body.action, files: body.files_affected, commands: body.commands, estimatedCostUsd: body.estimated_cost_usd },
      manifest,
    );
    const event = await recordAuditEvent(database, {
      ownerId: key.ownerId,
      workspaceId: body.workspace_id,
      eventType: "policy_check",
      actor: actorOf(key),
      payload: {
        action: body.action,
        action_kind: body.action_kind,
        files_affected: body.files_affected,
        commands: body.commands,
        estimated_cost_usd: body.estimated_cost_usd ?? null,
        context: body.context ?? null,
        fired: a.fired,
        reason: a.reason,
      },
      decision: a.decision,
      riskScore: a.score,
      riskTier: a.tier,
    });
    return c.json({
      object: "policy.decision",
      workspace_id: body.workspace_id,
      decision: a.decision,
      risk_score: a.score,
      risk_tier: a.tier,
      factors: a.factors,
      reason: a.reason,
      event_id: event.id,
      created_at: event.createdAt,
    });
  });
