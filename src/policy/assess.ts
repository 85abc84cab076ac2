import { z } from "zod";
import type { Db } from "../db/client";
import { workspaceIdSchema } from "../shared/schemas";
import { loadPolicyManifest } from "./manifest";
import { assessRisk, type RiskAssessment, type RiskInput } from "./risk";

/**
 * Risk against a workspace's stored policy: the one "load the manifest, then score" step behind
 * risk scoring, policy checks and handoff creation. Without a workspace, the empty policy (nothing
 * protected or forbidden) applies.
 */
export async function assessWorkspaceRisk(database: Db, ownerId: string, workspaceId: string | undefined, input: RiskInput): Promise<RiskAssessment> {
  const manifest = workspaceId === undefined ? {} : await loadPolicyManifest(database, ownerId, workspaceId);
  return assessRisk(input, manifest);
}

export const riskScoreInput = z.object({
  kind: z.enum(["edit", "deploy", "delete", "exec", "network", "read"]),
  targets: z.array(z.string().min(1).max(4000)).max(1000).default([]),
  /** Optional: score against this workspace's stored manifest (read only). */
  workspace_id: workspaceIdSchema.optional(),
  commands: z.array(z.string().min(1).max(4000)).max(200).optional(),
  estimated_cost_usd: z.number().min(0).max(1_000_000).optional(),
});
export type RiskScoreInput = z.infer<typeof riskScoreInput>;

/**
 * POST /v1/risk/score (SPEC.md 4.12): a dry run, nothing is written. `targets` are paths (checked
 * against protected paths and secrets files); for `exec` and `network` they are also the commands
 * or addresses to check against forbidden, destructive, deploy and network patterns.
 */
export async function scoreRisk(database: Db, ownerId: string, input: RiskScoreInput) {
  const targetsAreCommands = input.kind === "exec" || input.kind === "network";
  const a = await assessWorkspaceRisk(database, ownerId, input.workspace_id, {
    kind: input.kind,
    files: input.targets,
    commands: [...(targetsAreCommands ? input.targets : []), ...(input.commands ?? [])],
    estimatedCostUsd: input.estimated_cost_usd,
  });
  return { object: "risk.score" as const, score: a.score, tier: a.tier, decision: a.decision, fired: a.fired, factors: a.factors, reason: a.reason };
}
