import { costUsd, type Model } from "../catalog/models";
import { proofHash, requestHash, responseHash, type Receipt } from "../proof/receipt";
import type { HashString } from "../shared/hash";
import type { ChatMessage, TokenUsage } from "../providers/types";
import type { RouteDecision } from "../routing/types";

/** Everything known once a model has answered; the inputs of the response's `svc` block and receipt. */
export interface Outcome {
  requestId: string;
  created: number;
  decision: RouteDecision;
  model: Model;
  fallbackFrom: Model | null;
  sandbox: boolean;
  content: string;
  finishReason: string;
  usage: TokenUsage;
  latencyMs: number;
  request: { messages: ChatMessage[]; model: string; max_tokens: number; temperature: number };
  endpoint: string;
}

type Cost = ReturnType<typeof costUsd>;

function receiptFor(o: Outcome, cost: Cost): Receipt {
  return {
    version: "svc-receipt-v1",
    request_id: o.requestId,
    timestamp: new Date(o.created * 1000).toISOString(),
    endpoint: o.endpoint,
    model: o.model.id,
    provider: o.model.provider,
    mode: o.decision.mode,
    reason: reasonFor(o),
    request_hash: requestHash(o.request),
    response_hash: responseHash({ content: o.content, finish_reason: o.finishReason, model: o.model.id, usage: o.usage }),
    usage: o.usage,
    cost_usd: cost.total_usd,
    fallback_from: o.fallbackFrom?.id ?? null,
    sandbox: o.sandbox,
  };
}

function reasonFor(o: Outcome): string {
  return o.fallbackFrom ? `${o.decision.reason} ${o.fallbackFrom.id} was unavailable; ${o.model.id} served the call.` : o.decision.reason;
}

/** SPEC.md 2.1 `svc`: routing, cost, latency, proof and fallback, describing the model that ran. */
function svcBlock(o: Outcome, cost: Cost, receipt: Receipt, proof: HashString) {
  return {
    routing: {
      mode: o.decision.mode,
      model: o.model.id,
      model_display: o.model.display_name,
      provider: o.model.provider,
      reason: receipt.reason,
      tier: o.model.tier,
      signals_detected: o.decision.signals_detected,
    },
    cost,
    latency_ms: o.latencyMs,
    proof: {
      request_id: o.requestId,
      timestamp: receipt.timestamp,
      proof_hash: proof,
      model: o.model.id,
      provider: o.model.provider,
      mode: o.decision.mode,
      reason: receipt.reason,
      request_hash: receipt.request_hash,
      response_hash: receipt.response_hash,
      verifiable: true,
    },
    fallback: o.fallbackFrom !== null,
    fallback_from: o.fallbackFrom?.id ?? null,
    fallback_to: o.fallbackFrom ? o.model.id : null,
    ...(o.sandbox ? { sandbox: true } : {}),
  };
}

/** An outcome's receipt, its proof hash and the response's svc block, made once for either path. */
export function seal(o: Outcome) {
  const cost = costUsd(o.model, o.usage.prompt_tokens, o.usage.completion_tokens);
  const receipt = receiptFor(o, cost);
  const proof = proofHash(receipt);
  return { receipt, proof, svc: svcBlock(o, cost, receipt, proof) };
}
