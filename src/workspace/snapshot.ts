import { RISK_TIERS } from "../policy/risk";
import type { HandoffRow } from "../handoff/subject";
import type { ChainVerification } from "../handoff/verify";

/** SPEC.md 2.9, from a verified chain (oldest first). Pure. */
export function buildSnapshot(workspaceId: string, rows: readonly HandoffRow[], integrity: ChainVerification, limit: number) {
  const distribution: Record<string, number> = { auto: 0, confirm: 0, approve: 0, block: 0, unknown: 0 };
  let riskSum = 0;
  let signed = 0;
  for (const r of rows) {
    const tier = (RISK_TIERS as readonly string[]).includes(r.riskTier) ? r.riskTier : "unknown";
    distribution[tier]! += 1;
    riskSum += r.riskScore;
    if (r.signature !== null) signed++;
  }
  const n = rows.length;
  return {
    object: "workspace.snapshot" as const,
    workspace_id: workspaceId,
    count: n,
    risk_distribution: distribution,
    avg_risk_score: n ? Math.round((riskSum / n) * 100) / 100 : null,
    signed_share: n ? signed / n : 0,
    integrity: { ok: integrity.ok, n: integrity.n, first_broken_index: integrity.first_broken_index, reasons: integrity.reasons },
    // The last `limit` entries, in chain order (oldest of them first), like the chain itself.
    tail: rows.slice(Math.max(0, n - limit)).map((r) => ({
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
  };
}
