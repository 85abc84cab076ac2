import { hashCanonical, type HashString } from "../shared/hash";
import type { Signer } from "../shared/signing";
import type { DataClass } from "./matrix";
import type { CompiledPolicy } from "./policy";

/**
 * A compliance attestation: the facts of one gate decision for one model, hashed and signed like a
 * proof receipt. attestation_hash = sha256(canonical JSON of the six facts below); the signature is
 * Ed25519 over the hash string. docs/compliance.md has a worked example a third party can recompute.
 */
export interface AttestationFacts {
  policy: CompiledPolicy;
  detected_classes: DataClass[];
  model: string;
  matrix_version: string;
  timestamp: string;
  request_id: string;
}

export interface SignedAttestation {
  facts: AttestationFacts;
  hash: HashString;
  signature: string | null;
  signingKeyId: string | null;
}

export const attestationHash = (facts: AttestationFacts): HashString => hashCanonical(facts);

export async function signAttestation(facts: AttestationFacts, signer: Signer | null): Promise<SignedAttestation> {
  const hash = attestationHash(facts);
  return { facts, hash, signature: signer ? await signer.sign(hash) : null, signingKeyId: signer?.keyId ?? null };
}
