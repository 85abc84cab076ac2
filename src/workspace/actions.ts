import type { Db } from "../db/client";
import type { Env } from "../env";
import { readSnapshotParts } from "../handoff/store";
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

/**
 * SPEC.md 2.9: the snapshot of a workspace's handoff chain, verified as a whole, with its last `limit`
 * entries (or the `limit` before `cursor`, paging towards older ones).
 */
export async function workspaceSnapshot(env: Env, database: Db, ownerId: string, workspaceId: string, limit: number, cursor?: string) {
  const { stats, tail, verification } = await readSnapshotParts(env, database, ownerId, workspaceId, limit, cursor);
  return buildSnapshot(workspaceId, stats, tail, verification);
}
