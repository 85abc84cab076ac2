import { z } from "zod";
import { actorOf, recordAuditEvent } from "../audit/record";
import type { Db } from "../db/client";
import { jsonAtMost } from "../shared/bounds";
import { workspaceIdSchema } from "../shared/schemas";
import { assessWorkspaceRisk } from "./assess";

/**
 * Every field is echoed into the `policy_check` audit event's payload, one D1 row: the lists are held
 * to 64 KiB of JSON and `context` to 16 KiB, so a payload stays under about 160 KB (D1 rejects rows
 * over 1,000,000 bytes; docs/ledger.md, "Storage bounds").
 */
export const policyCheckInput = z.object({
  workspace_id: workspaceIdSchema,
  action: z.string().trim().min(1).max(2000),
  action_kind: z.enum(["edit", "refactor", "deploy", "review", "setup", "delete"]).default("edit"),
  files_affected: jsonAtMost(z.array(z.string().min(1).max(1000)).max(1000), 65_536).default([]),
  commands: jsonAtMost(z.array(z.string().min(1).max(4000)).max(200), 65_536).default([]),
  estimated_cost_usd: z.number().min(0).max(1_000_000).optional(),
  context: jsonAtMost(z.record(z.string(), z.unknown()), 16_384).optional(),
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
