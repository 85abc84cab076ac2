import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { workspaceManifests } from "../db/schema";
import { jsonAtMost } from "../shared/bounds";
import { workspaceIdSchema } from "../shared/schemas";
import type { PolicyManifest } from "./risk";

/**
 * The workspace policy: the manifest a workspace last posted to readiness (SPEC.md 2.6), stored per
 * owner and workspace, and read by risk scoring, policy checks, handoffs and the workspace area.
 */

/** Each list at most 64 KiB of JSON, so a stored manifest (one D1 row) stays under about 200 KB. */
const listOf = (max: number) => jsonAtMost(z.array(z.string().trim().min(1).max(500)).max(max), 65_536);

/** SPEC.md 2.6, plus one optional extension read by the risk scorer (`budget_cap_usd`). */
export const manifestSchema = z.object({
  workspace_id: workspaceIdSchema,
  project_name: z.string().trim().min(1).max(200).optional(),
  stack: listOf(100).optional(),
  protected_paths: listOf(500).optional(),
  forbidden_commands: listOf(500).optional(),
  require_handoffs: z.boolean().optional(),
  require_risk_gate: z.boolean().optional(),
  budget_cap_usd: z.number().positive().max(1_000_000).optional(),
});
export type WorkspaceManifest = z.infer<typeof manifestSchema>;

/** Readiness stores the manifest it scored: the last one posted is the workspace's policy. */
export async function saveManifest(database: Db, ownerId: string, manifest: WorkspaceManifest, now = Date.now()): Promise<void> {
  const row = { ownerId, workspaceId: manifest.workspace_id, manifest: JSON.stringify(manifest), updatedAt: now };
  await database
    .insert(workspaceManifests)
    .values(row)
    .onConflictDoUpdate({ target: [workspaceManifests.ownerId, workspaceManifests.workspaceId], set: { manifest: row.manifest, updatedAt: now } });
}

/** The workspace's policy, or an empty one (nothing protected or forbidden) before any readiness call. */
export async function loadPolicyManifest(database: Db, ownerId: string, workspaceId: string): Promise<PolicyManifest> {
  const rows = await database
    .select({ manifest: workspaceManifests.manifest })
    .from(workspaceManifests)
    .where(and(eq(workspaceManifests.ownerId, ownerId), eq(workspaceManifests.workspaceId, workspaceId)))
    .limit(1);
  if (!rows[0]) return {};
  const parsed = manifestSchema.safeParse(JSON.parse(rows[0].manifest));
  return parsed.success ? parsed.data : {};
}
