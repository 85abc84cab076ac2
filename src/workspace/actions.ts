import type { Db } from "../db/client";
import type { Env } from "../env";
import { loadVerifiedChain } from "../handoff/store";
import { saveManifest, type WorkspaceManifest } from "../policy/manifest";
import { scoreReadiness } from "./readiness";
import { buildSnapshot } from "./snapshot";

/**
 * The workspace area's operations with storage, called by its REST routes (and by MCP tools):
 * plain functions over explicit dependencies, no Hono. Generation is pure and needs none of this.
 */

/** SPEC.md 4.5: score the manifest and store it as the workspace policy (docs/governance.md). */
export async function checkReadiness(database: Db, ownerId: string, manifest: WorkspaceManifest) {
  await saveManifest(database, ownerId, manifest);
  return scoreReadiness(manifest);
}

/** SPEC.md 2.9: the snapshot of a workspace's verified handoff chain, with its last `limit` entries. */
export async function workspaceSnapshot(env: Env, database: Db, ownerId: string, workspaceId: string, limit: number) {
  const { rows, verification } = await loadVerifiedChain(env, database, ownerId, workspaceId);
  return buildSnapshot(workspaceId, rows, verification, limit);
}
