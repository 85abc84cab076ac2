import type { AttestationFacts } from "../compliance/attestation";
import type { Db } from "../db/client";
import type { Signer } from "../shared/signing";
import { signReceipt, type SignedReceipt } from "./receipt";
import { seal } from "./seal";
import { receiptInsert } from "./store";

/** Seal, sign and store a compliance attestation under its request id (docs/compliance.md). */
export async function recordAttestation(database: Db, ownerId: string, facts: AttestationFacts, signer: Signer | null): Promise<SignedReceipt> {
  const signed = await signReceipt(seal("attestation", facts), signer);
  await receiptInsert(database, ownerId, signed).run();
  return signed;
}
