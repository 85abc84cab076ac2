import type { handoffs } from "../db/schema";
import { canonicalJson } from "../shared/canonical-json";
import { hashString, type HashString } from "../shared/hash";
import type { RiskTier } from "../policy/risk";

/** Marks the subject format; bump it if the field set ever changes (docs/ledger.md). */
export const SUBJECT_VERSION = "handoff-v1";

export type HandoffRow = typeof handoffs.$inferSelect;

export interface RiskItem {
  id: string;
  description: string;
}

/**
 * Everything a handoff entry asserts. The canonical JSON of this object is the `subject`:
 * hash = "sha256:" + hex(SHA-256(UTF-8(subject))), signature = Ed25519(UTF-8(subject)).
 * Absent optional values are null and absent lists are [], never missing keys, so a third party
 * rebuilds the same bytes from the fields alone.
 */
export interface HandoffSubject {
  version: typeof SUBJECT_VERSION;
  id: string;
  workspace_id: string;
  seq: number;
  objective: string;
  from_tool: string | null;
  to_tool: string | null;
  files_touched: string[];
  constraints: string[];
  risks: RiskItem[];
  validation: RiskItem[];
  recommended_next_action: string | null;
  action_kind: string;
  est_cost: number | null;
  risk: { score: number; tier: RiskTier | string; factors: string[] };
  created_at: string;
  prev_handoff_id: string | null;
  prev_hash: string | null;
  prev_signature: string | null;
  signing_key_id: string | null;
}

export const subjectText = (s: HandoffSubject): string => canonicalJson(s);
export const subjectHash = (subject: string): HashString => hashString(subject);

/**
 * The subject as the stored columns describe it. Verification rebuilds it from the columns, not from
 * the stored `subject` text, so an edit to any column (not only to `subject`) breaks the entry.
 * Throws on a column that no longer parses; the verifier reports that as a broken entry.
 */
export function subjectFromRow(r: HandoffRow): HandoffSubject {
  return {
    version: SUBJECT_VERSION,
    id: r.id,
    workspace_id: r.workspaceId,
    seq: r.seq,
    objective: r.objective,
    from_tool: r.fromTool,
    to_tool: r.toTool,
    files_touched: JSON.parse(r.filesTouched) as string[],
    constraints: JSON.parse(r.constraints) as string[],
    risks: JSON.parse(r.risks) as RiskItem[],
    validation: JSON.parse(r.validation) as RiskItem[],
    recommended_next_action: r.recommendedNextAction,
    action_kind: r.actionKind,
    est_cost: r.estCost,
    risk: { score: r.riskScore, tier: r.riskTier, factors: JSON.parse(r.riskFactors) as string[] },
    created_at: r.createdAt,
    prev_handoff_id: r.prevHandoffId,
    prev_hash: r.prevHash,
    prev_signature: r.prevSignature,
    signing_key_id: r.signingKeyId,
  };
}

/** The row that stores a subject, its hash and signature. */
export function rowFromSubject(ownerId: string, s: HandoffSubject, subject: string, hash: string, signature: string | null): HandoffRow {
  return {
    id: s.id,
    ownerId,
    workspaceId: s.workspace_id,
    seq: s.seq,
    objective: s.objective,
    fromTool: s.from_tool,
    toTool: s.to_tool,
    filesTouched: JSON.stringify(s.files_touched),
    constraints: JSON.stringify(s.constraints),
    risks: JSON.stringify(s.risks),
    validation: JSON.stringify(s.validation),
    recommendedNextAction: s.recommended_next_action,
    actionKind: s.action_kind,
    estCost: s.est_cost,
    prevHandoffId: s.prev_handoff_id,
    prevHash: s.prev_hash,
    prevSignature: s.prev_signature,
    subject,
    hash,
    signature,
    signingKeyId: s.signing_key_id,
    riskScore: s.risk.score,
    riskTier: s.risk.tier,
    riskFactors: JSON.stringify(s.risk.factors),
    createdAt: s.created_at,
  };
}
