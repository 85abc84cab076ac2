import { canonicalJson } from "../shared/canonical-json";
import { hashCanonical, hashString, type HashString } from "../shared/hash";
import type { Signer } from "../shared/signing";
import type { ChatMessage, TokenUsage } from "../providers/types";

/**
 * A proof receipt: what ran, for whom nothing identifying, and hashes of what went in and out.
 * proof_hash = sha256(canonical JSON of the receipt); the signature is Ed25519 over the proof_hash
 * string. docs/proofs.md gives the formulas for third parties.
 */
export interface Receipt {
  version: "svc-receipt-v1";
  request_id: string;
  timestamp: string;
  endpoint: string;
  model: string;
  provider: string;
  mode: string;
  reason: string;
  request_hash: HashString;
  response_hash: HashString;
  usage: TokenUsage;
  cost_usd: number;
  fallback_from: string | null;
  sandbox: boolean;
}

/** The request as the receipt covers it: messages and the parameters that shape the answer. */
export function requestHash(req: { messages: ChatMessage[]; model: string; max_tokens: number; temperature: number }): HashString {
  return hashCanonical({
    messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
    model: req.model,
    max_tokens: req.max_tokens,
    temperature: req.temperature,
  });
}

export function responseHash(res: { content: string; finish_reason: string; model: string; usage: TokenUsage }): HashString {
  return hashCanonical({ content: res.content, finish_reason: res.finish_reason, model: res.model, usage: res.usage });
}

export function proofHash(receipt: Receipt): HashString {
  return hashString(canonicalJson(receipt));
}

export interface SignedReceipt {
  receipt: Receipt;
  proofHash: HashString;
  signature: string | null;
  signingKeyId: string | null;
}

export async function signReceipt(receipt: Receipt, proof: HashString, signer: Signer | null): Promise<SignedReceipt> {
  return { receipt, proofHash: proof, signature: signer ? await signer.sign(proof) : null, signingKeyId: signer?.keyId ?? null };
}
