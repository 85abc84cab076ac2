import { canonicalJson } from "../shared/canonical-json";
import { hashString, type HashString } from "../shared/hash";
import type { Signer } from "../shared/signing";
import type { AttestationReceipt } from "./attestation";
import type { ChatReceipt } from "./chat";
import type { CodeReceipt, OrchestrationReceipt } from "./orchestration";

/**
 * Every receipt kind the service issues, one discriminated union on `version`. docs/proofs.md gives
 * each kind's fields and formulas for third parties. proof_hash = sha256(canonical JSON of the
 * receipt); the signature is Ed25519 over the proof_hash string, `sha256:` prefix included.
 * Orchestration and code receipts (SPEC.md 2.2), trajectories (DESIGN.md 3) and compliance
 * attestations join the union as they land, each with its builder in `seal.ts`.
 */
export type Receipt = ChatReceipt | AttestationReceipt | OrchestrationReceipt | CodeReceipt;

export const proofHash = (receipt: Receipt): HashString => hashString(canonicalJson(receipt));

/** A receipt with its proof hash: what a response shows, before signing. */
export interface Sealed<R extends Receipt = Receipt> {
  receipt: R;
  proofHash: HashString;
}

export interface SignedReceipt extends Sealed {
  signature: string | null;
  signingKeyId: string | null;
}

export async function signReceipt(sealed: Sealed, signer: Signer | null): Promise<SignedReceipt> {
  return { ...sealed, signature: signer ? await signer.sign(sealed.proofHash) : null, signingKeyId: signer?.keyId ?? null };
}
