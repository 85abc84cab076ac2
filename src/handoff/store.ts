import { and, asc, count, desc, eq, gt, lt, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { handoffs } from "../db/schema";
import type { Env } from "../env";
import { base64url, fromBase64url } from "../shared/base64url";
import { invalidRequest } from "../shared/errors";
import { ledgerFor } from "./ledger";
import { SUBJECT_VERSION, subjectFromRow, type HandoffRow } from "./subject";

export async function findHandoff(database: Db, ownerId: string, id: string): Promise<HandoffRow | undefined> {
  const rows = await database.select().from(handoffs).where(and(eq(handoffs.id, id), eq(handoffs.ownerId, ownerId))).limit(1);
  return rows[0];
}

const chainOf = (ownerId: string, workspaceId: string) => and(eq(handoffs.ownerId, ownerId), eq(handoffs.workspaceId, workspaceId));

/**
 * Cursors are opaque to clients: base64url of `seq:<n>`, the position a page continues from. The
 * chain is append-only and ordered by seq, so a cursor stays valid while entries are appended.
 */
const encodeCursor = (seq: number) => base64url(`seq:${seq}`);

function decodeCursor(cursor: string): number {
  let text = "";
  try {
    text = new TextDecoder().decode(fromBase64url(cursor));
  } catch {
    // reported below
  }
  const m = /^seq:(0|[1-9]\d{0,9})$/.exec(text);
  if (!m) throw invalidRequest("Invalid cursor: pass next_cursor from a previous response unchanged.", [{ path: "cursor", message: "invalid cursor" }]);
  return Number(m[1]);
}

/** GET /v1/handoff/chain/{workspace_id} query: a page of entries, and how to verify the whole chain. */
export const chainQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: z.string().min(1).max(100).optional(),
  verify: z.enum(["incremental", "full"]).default("incremental"),
});
export type ChainQuery = z.infer<typeof chainQuery>;

/**
 * SPEC.md 2.10's chain response, one page at a time, oldest first. `verification` speaks for the whole
 * chain whatever the page (the ledger object keeps a verified checkpoint, ./incremental.ts); `count`
 * is the number of entries in the chain as the ledger counts them (what it wrote, so a deletion in D1
 * shows as data missing against the count); `next_cursor` continues after the last entry returned, also
 * on the last page, so a client can come back later for what has been appended since.
 */
export async function readChain(env: Env, database: Db, ownerId: string, workspaceId: string, q: ChainQuery, pubkeyEndpoint: string) {
  const after = q.cursor === undefined ? -1 : decodeCursor(q.cursor);
  const chain = chainOf(ownerId, workspaceId);
  const [verification, rows] = await Promise.all([
    ledgerFor(env, ownerId, workspaceId).verify(q.verify),
    database.select().from(handoffs).where(and(chain, gt(handoffs.seq, after))).orderBy(asc(handoffs.seq)).limit(q.limit + 1),
  ]);
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  const { checkpoint, ...rest } = verification;
  return {
    object: "handoff.chain" as const,
    workspace_id: workspaceId,
    count: verification.n,
    data: page.map(handoffView),
    has_more: rows.length > q.limit,
    next_cursor: last ? encodeCursor(last.seq) : (q.cursor ?? null),
    verification: rest,
    checkpoint,
    pubkey_endpoint: pubkeyEndpoint,
  };
}

export interface ChainStats {
  count: number;
  riskSum: number;
  signed: number;
  tiers: Record<string, number>;
}

export interface ChainTail {
  rows: HandoffRow[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * What SPEC.md 2.9's snapshot needs, without loading the chain: counts by SQL aggregate, the `limit`
 * entries before `cursor` (the newest when absent; `next_cursor` pages towards older ones), and
 * the ledger's whole-chain verification.
 */
export async function readSnapshotParts(env: Env, database: Db, ownerId: string, workspaceId: string, limit: number, cursor: string | undefined) {
  const before = cursor === undefined ? null : decodeCursor(cursor);
  const chain = chainOf(ownerId, workspaceId);
  const [verification, byTier, newest] = await Promise.all([
    ledgerFor(env, ownerId, workspaceId).verify("incremental"),
    database
      .select({ tier: handoffs.riskTier, n: count(), riskSum: sql<number>`coalesce(sum(${handoffs.riskScore}), 0)`, signed: count(handoffs.signature) })
      .from(handoffs)
      .where(chain)
      .groupBy(handoffs.riskTier),
    database
      .select()
      .from(handoffs)
      .where(before === null ? chain : and(chain, lt(handoffs.seq, before)))
      .orderBy(desc(handoffs.seq))
      .limit(limit + 1),
  ]);
  const stats: ChainStats = { count: 0, riskSum: 0, signed: 0, tiers: {} };
  for (const t of byTier) {
    stats.count += t.n;
    stats.riskSum += Number(t.riskSum);
    stats.signed += t.signed;
    stats.tiers[t.tier] = t.n;
  }
  const page = newest.slice(0, limit).reverse();
  const oldest = page[0];
  const tail: ChainTail = { rows: page, has_more: newest.length > limit, next_cursor: newest.length > limit && oldest ? encodeCursor(oldest.seq) : null };
  return { stats, tail, verification };
}

/** SPEC.md 2.10, plus the receipt fields a verifier needs (hash, signature, links, lists, version). */
export function handoffView(r: HandoffRow) {
  let s: ReturnType<typeof subjectFromRow> | null = null;
  try {
    s = subjectFromRow(r);
  } catch {
    // A row whose list columns were damaged still renders; verification reports the damage.
  }
  return {
    id: r.id,
    object: "handoff" as const,
    version: SUBJECT_VERSION,
    workspace_id: r.workspaceId,
    seq: r.seq,
    objective: r.objective,
    from_tool: r.fromTool,
    to_tool: r.toTool,
    files_touched: s?.files_touched ?? null,
    constraints: s?.constraints ?? null,
    risks: s?.risks ?? null,
    validation: s?.validation ?? null,
    recommended_next_action: r.recommendedNextAction,
    action_kind: r.actionKind,
    est_cost: r.estCost,
    prev_handoff_id: r.prevHandoffId,
    prev_hash: r.prevHash,
    prev_signature: r.prevSignature,
    risk: { score: r.riskScore, tier: r.riskTier, factors: s?.risk.factors ?? null },
    subject: r.subject,
    hash: r.hash,
    signature: r.signature,
    signing_key_id: r.signingKeyId,
    signed: r.signature !== null,
    created_at: r.createdAt,
  };
}
