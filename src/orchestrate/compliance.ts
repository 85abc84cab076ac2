import { callCompliance, type CallCompliance } from "../compliance/chat-gate";
import { hashCanonical, type HashString } from "../shared/hash";

/**
 * The compliance gate for orchestration and code: the request's `compliance` policy, else
 * `brain_config.compliance`, checked against every message (all of them go upstream). Non-compliant
 * models are removed before any model is scored: the gate is a routing requirement the router never
 * relaxes. Null when no policy applies.
 */
export function gateFor(compliance: unknown, brainConfig: unknown, messages: ReadonlyArray<{ content: string }>, planModels: readonly string[] | null): CallCompliance | null {
  const policy = compliance ?? (brainConfig && typeof brainConfig === "object" ? (brainConfig as { compliance?: unknown }).compliance : undefined);
  return callCompliance({ compliance: policy }, messages, planModels);
}

/** The attestation a receipt carries: the gate's decision and its hash (docs/proofs.md). */
export function attestation(gate: CallCompliance): { decision_hash: HashString; matrix_version: string; detected_classes: string[]; allowed_count: number; excluded_count: number } {
  const d = gate.decision;
  return { decision_hash: hashCanonical(d), matrix_version: d.matrix_version, detected_classes: [...d.detected_classes], allowed_count: d.allowed_count, excluded_count: d.excluded_count };
}
