import { RISK_TIERS } from "../policy/risk";
import type { ChainStats, ChainTail } from "../handoff/store";
import type { ChainVerification } from "../handoff/verify";

/** SPEC.md 2.9, from the chain's aggregates, one page of its tail and its whole-chain verification. Pure. */
export function buildSnapshot(workspaceId: string, stats: ChainStats, tail: ChainTail, integrity: ChainVerification) {
  const distribution: Record<string, number> = { auto: 0, confirm: 0, approve: 0, block: 0, unknown: 0 };
  for (const [tier, n] of Object.entries(stats.tiers)) {
    distribution[(RISK_TIERS as readonly string[]).includes(tier) ? tier : "unknown"]! += n;
  }
  const n = stats.count;
  return {
    object: "workspace.snapshot" as const,
    workspace_id: workspaceId,
    count: n,
    risk_distribution: distribution,
    avg_risk_score: n ? Math.round((stats.riskSum / n) * 100) / 100 : null,
    signed_share: n ? stats.signed / n : 0,
    integrity: { ok: integrity.ok, n: integrity.n, first_broken_index: integrity.first_broken_index, reasons: integrity.reasons },
    // The last `limit` entries (before the cursor), in chain order (oldest of them first), like the chain itself.
    tail: tail.rows.map((r) => ({
      id: r.id,
      seq: r.seq,
      objective: r.objective,
      from_tool: r.fromTool,
      to_tool: r.toTool,
      created_at: r.createdAt,
      risk_tier: r.riskTier,
      risk_score: r.riskScore,
      signed: r.signature !== null,
    })),
    has_more: tail.has_more,
    next_cursor: tail.next_cursor,
  };
}
