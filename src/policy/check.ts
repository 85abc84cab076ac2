import { z } from "zod";
import { actorOf, recordAuditEvent } from "../audit/record";
import type { Db } from "../db/client";
import { workspaceIdSchema } from "../shared/schemas";
import { assessWorkspaceRisk } from "./assess";

export const policyCheckInput = z.object({
  workspace_id: workspaceIdSchema,
  action: z.string().trim().min(1).max(2000),
  action_kind: z.enum(["edit", "refactor", "deploy", "review", "setup", "delete"]).default("edit"),
  files_affected: z.array(z.string().min(1).max(1000)).max(1000).default([]),
  commands: z.array(z.string().min(1).max(4000)).max(200).default([]),
  estimated_cost_usd: z.number().min(0).max(1_000_000).optional(),
  context: z.record(z.string(), z.unknown()).optional(),
});
export type PolicyCheckInput = z.infer<typeof policyCheckInput>;

/** POST /v1/policy/check (SPEC.md 4.7, 2.11): a decision for every input, and one `policy_check` audit event each. */
export async function checkPolicy(database: Db, key: { id: string; ownerId: string }, input: PolicyCheckInput) {
  const a = await assessWorkspaceRisk(database, key.ownerId, input.workspace_id, {
    kind: input.action_kind,
    action: input.action,
    files: input.files_affected,
    commands: input.commands,
    estimatedCostUsd: input.estimated_cost_usd,
  });
  const event = await recordAuditEvent(database, {
    ownerId: key.ownerId,
    workspaceId: input.workspace_id,
    eventType: "policy_check",
    actor: actorOf(key),
    payload: {
      action: input.action,
      action_kind: input.action_kind,
      files_affected: input.files_affected,
      commands: input.commands,
      estimated_cost_usd: input.estimated_cost_usd ?? null,
      context: input.context ?? null,
      fired: a.fired,
      reason: a.reason,
    },
    decision: a.decision,
    riskScore: a.score,
    riskTier: a.tier,
  });
  return {
    object: "policy.decision" as const,
    workspace_id: input.workspace_id,
    decision: a.decision,
    risk_score: a.score,
    risk_tier: a.tier,
    factors: a.factors,
    reason: a.reason,
    event_id: event.id,
    created_at: event.createdAt,
  };
}
