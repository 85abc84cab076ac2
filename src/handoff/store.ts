import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { handoffs } from "../db/schema";
import type { Env } from "../env";
import { signerFrom } from "../shared/signing";
import { ledgerFor } from "./ledger";
import { subjectFromRow, type HandoffRow } from "./subject";
import { verifyChain, type ChainVerification } from "./verify";

export async function findHandoff(database: Db, ownerId: string, id: string): Promise<HandoffRow | undefined> {
  const rows = await database.select().from(handoffs).where(and(eq(handoffs.id, id), eq(handoffs.ownerId, ownerId))).limit(1);
  return rows[0];
}

export interface VerifiedChain {
  rows: HandoffRow[];
  verification: ChainVerification & { signing_enabled: boolean };
}

/**
 * The whole chain of a workspace, oldest first, verified. The ledger's tip is read before the rows:
 * the tip only moves after its row is in D1, so a tip read first never names a row the read misses.
 */
export async function loadVerifiedChain(env: Env, database: Db, ownerId: string, workspaceId: string): Promise<VerifiedChain> {
  const tip = await ledgerFor(env, ownerId, workspaceId).tip();
  const rows = await database
    .select()
    .from(handoffs)
    .where(and(eq(handoffs.ownerId, ownerId), eq(handoffs.workspaceId, workspaceId)))
    .orderBy(asc(handoffs.seq));
  const signer = signerFrom(env.LEDGER_SIGNING_KEY);
  return { rows, verification: { ...verifyChain(rows, signer, tip), signing_enabled: signer !== null } };
}

/** SPEC.md 2.10, plus the receipt fields a verifier needs (hash, signature, links, lists). */
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
