import { timingSafeEqualStr } from "../shared/hash";
import { verifySignature } from "../shared/signing";
import { subjectFromRow, subjectHash, subjectText, type HandoffRow } from "./subject";

export interface ChainVerification {
  ok: boolean;
  n: number;
  first_broken_index: number | null;
  reasons: string[];
}

export interface VerifyKey {
  keyId: string;
  publicKeyHex: string;
}

/** The ledger's own record of its last entry (kept by the WorkspaceLedger Durable Object). */
export interface ChainTip {
  seq: number;
  id: string;
  hash: string;
}

/**
 * Walks the chain oldest first (docs/ledger.md, "Verification"). For entry i:
 * 1. rebuild the subject from the stored fields; it must equal the stored `subject` text;
 * 2. its hash must equal the stored `hash`;
 * 3. `seq` must be i, and `prev_handoff_id`, `prev_hash`, `prev_signature` must be entry i-1's
 *    `id`, `hash`, `signature` (all null for entry 0): a deleted or reordered entry breaks here;
 * 4. when the subject names a signing key, the signature must verify under the published key.
 * Finally the chain must reach the ledger's tip, which catches entries deleted from the end.
 * Every problem is reported; `first_broken_index` is the lowest index with one.
 */
export function verifyChain(rows: readonly HandoffRow[], key: VerifyKey | null, tip: ChainTip | null = null): ChainVerification {
  const reasons: string[] = [];
  let firstBroken: number | null = null;
  const broken = (i: number, why: string) => {
    reasons.push(why);
    if (firstBroken === null || i < firstBroken) firstBroken = i;
  };

  rows.forEach((r, i) => {
    const at = `entry ${i} (${r.id})`;
    let rebuilt: string;
    try {
      rebuilt = subjectText(subjectFromRow(r));
    } catch {
      broken(i, `${at}: stored fields are not valid JSON`);
      return;
    }
    if (rebuilt !== r.subject) broken(i, `${at}: stored fields differ from the signed subject`);
    if (!timingSafeEqualStr(subjectHash(rebuilt), r.hash)) broken(i, `${at}: hash does not match the subject`);
    if (r.seq !== i) broken(i, `${at}: seq is ${r.seq}, expected ${i} (an entry was deleted or reordered)`);

    const prev = i > 0 ? rows[i - 1]! : null;
    if (r.prevHandoffId !== (prev?.id ?? null)) broken(i, `${at}: prev_handoff_id does not link to entry ${i - 1}`);
    if (r.prevHash !== (prev?.hash ?? null)) broken(i, `${at}: prev_hash does not match entry ${i - 1}'s hash`);
    if (r.prevSignature !== (prev?.signature ?? null)) broken(i, `${at}: prev_signature does not match entry ${i - 1}'s signature`);

    if (r.signingKeyId === null) {
      if (r.signature !== null) broken(i, `${at}: carries a signature but its subject says unsigned`);
    } else if (r.signature === null) {
      broken(i, `${at}: signature missing`);
    } else if (key) {
      if (r.signingKeyId !== key.keyId) broken(i, `${at}: signed with key ${r.signingKeyId}, not the published key ${key.keyId}`);
      else if (!verifySignature(rebuilt, r.signature, key.publicKeyHex)) broken(i, `${at}: signature does not verify`);
    }
  });

  if (tip && rows.length <= tip.seq) {
    broken(rows.length, `chain ends after ${rows.length} entries but the ledger's last entry is seq ${tip.seq} (${tip.id}): entries were deleted`);
  } else if (tip && rows[tip.seq]!.hash !== tip.hash) {
    broken(tip.seq, `entry ${tip.seq}: hash differs from the ledger's record of its last entry`);
  }

  return { ok: reasons.length === 0, n: rows.length, first_broken_index: firstBroken, reasons };
}
