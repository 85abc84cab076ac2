import type { AttestationFacts } from "../compliance/attestation";
import type { Env } from "../env";
import { seal } from "../proof/seal";
import { keeper } from "./deps";
import { bufferedReceipt } from "./record";

/** The request an attestation is kept for: the Worker's env, the key's owner, the request's waitUntil. */
export interface AttestationRequest {
  env: Env;
  ownerId: string;
  waitUntil(p: Promise<unknown>): void;
}

/**
 * Seals a compliance attestation under its request id (docs/compliance.md) and keeps it through the
 * write-behind buffer as every receipt is (docs/storage.md): signed by the buffer as it arrives, and in
 * GET /v1/proof/{request_id} within a second of the response. The proof hash, which the response
 * carries, is known once sealed; the request waits for no storage and no signing.
 */
export function recordAttestation(req: AttestationRequest, facts: AttestationFacts): { proofHash: string } {
  const sealed = seal("attestation", facts);
  keeper(req.env, req.waitUntil)(bufferedReceipt(req.ownerId, sealed));
  return { proofHash: sealed.proofHash };
}
