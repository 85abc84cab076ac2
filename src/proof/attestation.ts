import type { AttestationFacts } from "../compliance/attestation";

/**
 * The compliance attestation (docs/compliance.md): the gate's decision for one model, as a receipt.
 * Its proof hash is the attestation hash: sha256 over the canonical JSON of the version and the six
 * facts, signed and stored like every receipt, so GET /v1/proof/{request_id} verifies it.
 */
export const ATTESTATION_VERSION = "svc-attestation-v1";

export interface AttestationReceipt extends AttestationFacts {
  version: typeof ATTESTATION_VERSION;
}

export const attestationReceipt = (facts: AttestationFacts): AttestationReceipt => ({
  version: ATTESTATION_VERSION,
  policy: facts.policy,
  detected_classes: facts.detected_classes,
  model: facts.model,
  matrix_version: facts.matrix_version,
  timestamp: facts.timestamp,
  request_id: facts.request_id,
});
