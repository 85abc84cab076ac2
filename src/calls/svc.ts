import type { Model } from "../catalog/models";
import type { ChatReceipt } from "../proof/chat";
import { fallbackSentence } from "../proof/chat";
import type { Sealed } from "../proof/receipt";
import type { RouteDecision } from "../routing/types";

/** Costs of one call in dollars (SPEC.md 2.1 `svc.cost`). */
export interface CostUsd {
  input_usd: number;
  output_usd: number;
  total_usd: number;
}

/** What the `svc` block describes: the decision, the model that ran and the sealed receipt. */
export interface SvcFacts {
  decision: RouteDecision;
  model: Model;
  fallbackFrom: Model | null;
  sandbox: boolean;
  cost: CostUsd;
  latencyMs: number;
  requestId: string;
  sealed: Sealed<ChatReceipt>;
}

/** SPEC.md 2.1 `svc`: routing, cost, latency, proof and fallback, describing the model that ran. */
export function svcBlock(f: SvcFacts) {
  const { receipt, proofHash } = f.sealed;
  return {
    routing: {
      mode: f.decision.mode,
      model: f.model.id,
      model_display: f.model.display_name,
      provider: f.model.provider,
      // The full reason, with whatever of the caller's own text it quotes; the public receipt has its own.
      reason: f.decision.reason + fallbackSentence(f.fallbackFrom, f.model),
      tier: f.model.tier,
      signals_detected: f.decision.signals_detected,
    },
    cost: f.cost,
    latency_ms: f.latencyMs,
    proof: {
      request_id: f.requestId,
      timestamp: receipt.timestamp,
      proof_hash: proofHash,
      model: f.model.id,
      provider: f.model.provider,
      mode: f.decision.mode,
      reason: receipt.reason,
      request_hash: receipt.request_hash,
      response_hash: receipt.response_hash,
      verifiable: true,
    },
    fallback: f.fallbackFrom !== null,
    fallback_from: f.fallbackFrom?.id ?? null,
    fallback_to: f.fallbackFrom ? f.model.id : null,
    ...(f.sandbox ? { sandbox: true } : {}),
  };
}

export type SvcBlock = ReturnType<typeof svcBlock>;
