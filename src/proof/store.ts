import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { proofReceipts } from "../db/schema";
import { canonicalJson } from "../shared/canonical-json";
import type { SignedReceipt } from "./receipt";

/** A stored receipt's columns (one row of `proof_receipts`). */
export function receiptValues(ownerId: string, s: SignedReceipt) {
  return {
    requestId: s.receipt.request_id,
    ownerId,
    receipt: canonicalJson(s.receipt),
    proofHash: s.proofHash,
    signature: s.signature,
    signingKeyId: s.signingKeyId,
    createdAt: Date.parse(s.receipt.timestamp),
  };
}

export function receiptInsert(database: Db, ownerId: string, s: SignedReceipt) {
  return database.insert(proofReceipts).values(receiptValues(ownerId, s));
}

export function findReceipt(database: Db, requestId: string) {
  return database.select().from(proofReceipts).where(eq(proofReceipts.requestId, requestId)).get();
}
