import { sha256Hex, timingSafeEqualStr } from "../shared/hash";
import { verifySignatureNative } from "../shared/signing";
import { subjectFromRow, subjectText, type HandoffRow } from "./subject";

/** SPEC.md 2.10's `verification` block (the service adds `signing_enabled` and how it checked). */
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

/** An entry as the next one links to it. */
export interface LinkPoint {
  id: string;
  hash: string;
  signature: string | null;
}

/** The ledger's own record of its last entry (kept by the WorkspaceLedger Durable Object). */
export interface ChainTip extends LinkPoint {
  seq: number;
}

export interface Finding {
  index: number;
  reason: string;
}

/** What a run of entries links back to: the entry before it, null before entry 0, or nothing checked. */
export type LinkBefore = LinkPoint | null | "unchecked";

/**
 * Verified (key, signature, subject hash) triples. The subject hash is recomputed from the rebuilt
 * subject before the memo is consulted, so a hit means the same key signed these very bytes; only
 * successes are kept, so a tampered entry is always checked afresh. Re-checking entries (the rolling
 * window, a full pass) then costs a digest, not a signature verification.
 */
const VERIFIED_MAX = 100_000;
const verified = new Set<string>();

async function signatureVerifies(subject: Uint8Array<ArrayBuffer>, hash: string, signature: string, key: VerifyKey): Promise<boolean> {
  const memo = `${key.publicKeyHex}|${signature}|${hash}`;
  if (verified.has(memo)) return true;
  const ok = await verifySignatureNative(subject, signature, key.publicKeyHex);
  if (ok) {
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.values().next().value!);
    verified.add(memo);
  }
  return ok;
}

/**
 * Checks rows that must be consecutive chain entries starting at index `start` (docs/ledger.md,
 * "Verification"). For entry i:
 * 1. rebuild the subject from the stored fields; it must equal the stored `subject` text;
 * 2. its hash must equal the stored `hash`;
 * 3. `seq` must be i, and `prev_handoff_id`, `prev_hash`, `prev_signature` must be entry i-1's
 *    `id`, `hash`, `signature` (all null for entry 0): a deleted or reordered entry breaks here;
 * 4. when the subject names a signing key, the signature must verify under the published key.
 * `before` is what the first row links to; "unchecked" skips that one link (the first row of a
 * re-check window, whose predecessor is not re-checked with it). Every problem is reported.
 */
export async function checkEntries(rows: readonly HandoffRow[], start: number, before: LinkBefore, key: VerifyKey | null): Promise<Finding[]> {
  const rebuilt = rows.map(rebuild);
  const findings: Finding[] = [];
  for (let j = 0; j < rows.length; j++) {
    const r = rows[j]!;
    const i = start + j;
    const broken = (reason: string) => findings.push({ index: i, reason: `entry ${i} (${r.id}): ${reason}` });
    const subject = rebuilt[j];
    if (!subject) {
      broken("stored fields are not valid JSON");
      continue;
    }
    if (subject.text !== r.subject) broken("stored fields differ from the signed subject");
    if (!timingSafeEqualStr(subject.hash, r.hash)) broken("hash does not match the subject");
    if (r.seq !== i) broken(`seq is ${r.seq}, expected ${i} (an entry was deleted or reordered)`);

    const prev: LinkBefore = j > 0 ? rows[j - 1]! : before;
    if (prev !== "unchecked") {
      if (r.prevHandoffId !== (prev?.id ?? null)) broken(`prev_handoff_id does not link to entry ${i - 1}`);
      if (r.prevHash !== (prev?.hash ?? null)) broken(`prev_hash does not match entry ${i - 1}'s hash`);
      if (r.prevSignature !== (prev?.signature ?? null)) broken(`prev_signature does not match entry ${i - 1}'s signature`);
    }

    if (r.signingKeyId === null) {
      if (r.signature !== null) broken("carries a signature but its subject says unsigned");
    } else if (r.signature === null) {
      broken("signature missing");
    } else if (key) {
      if (r.signingKeyId !== key.keyId) broken(`signed with key ${r.signingKeyId}, not the published key ${key.keyId}`);
      else if (!(await signatureVerifies(subject.bytes, subject.hash, r.signature, key))) broken("signature does not verify");
    }
  }
  return findings;
}

/** The subject the stored columns describe, its bytes and hash; null when a column no longer parses. */
function rebuild(r: HandoffRow): { text: string; bytes: Uint8Array<ArrayBuffer>; hash: string } | null {
  let text: string;
  try {
    text = subjectText(subjectFromRow(r));
  } catch {
    return null;
  }
  const bytes = new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
  return { text, bytes, hash: `sha256:${sha256Hex(bytes)}` };
}

/**
 * The stored entry at the tip's position must be the one the ledger wrote last. (Rows missing up to
 * the tip are the caller's to report: it knows where the chain it read ends.)
 */
export function checkTip(tip: ChainTip, lastRow: HandoffRow | undefined): Finding[] {
  if (!lastRow || lastRow.seq !== tip.seq) return [];
  if (lastRow.id !== tip.id || lastRow.hash !== tip.hash) return [{ index: tip.seq, reason: `entry ${tip.seq} (${lastRow.id}): differs from the ledger's record of its last entry` }];
  return [];
}

/** At most this many reasons are returned; `first_broken_index` is exact whatever the count. */
export const MAX_REASONS = 100;

export function verdict(findings: readonly Finding[], n: number): ChainVerification {
  const sorted = [...findings].sort((a, b) => a.index - b.index);
  return { ok: sorted.length === 0, n, first_broken_index: sorted[0]?.index ?? null, reasons: sorted.slice(0, MAX_REASONS).map((f) => f.reason) };
}

/** A whole chain held in memory, oldest first, checked against the ledger's tip when there is one. */
export async function verifyChain(rows: readonly HandoffRow[], key: VerifyKey | null, tip: ChainTip | null = null): Promise<ChainVerification> {
  const findings = await checkEntries(rows, 0, null, key);
  if (tip && rows.length <= tip.seq) {
    findings.push({ index: rows.length, reason: `chain ends after ${rows.length} entries but the ledger's last entry is seq ${tip.seq} (${tip.id}): entries were deleted` });
  } else if (tip) {
    findings.push(...checkTip(tip, rows[tip.seq]));
  }
  return verdict(findings, rows.length);
}
