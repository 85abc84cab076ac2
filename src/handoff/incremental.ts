import type { HandoffRow } from "./subject";
import { checkEntries, checkTip, verdict, type ChainTip, type ChainVerification, type Finding, type LinkBefore, type VerifyKey } from "./verify";

/**
 * Incremental verification (docs/ledger.md, "Verification modes"). The ledger keeps a checkpoint:
 * the entry up to which the chain has been walked (`seq`, `id`, `hash`, `signature`) and `anchor`,
 * where the next rolling re-check starts. A read then checks
 * - the stored row at the checkpoint (it must still be the entry the walk ended on);
 * - every entry appended since, linked to the checkpoint, and the ledger's tip;
 * - a rolling window of `window` older entries, starting at `anchor`, which moves on by a window per
 *   read and wraps, so a change to any older entry is found within ceil(n / window) reads.
 * A problem found pins the window at it (`anchor` stays just before the first broken entry), so a
 * broken chain keeps reading as broken until it is repaired. A full pass walks the whole chain.
 * Rows are read in pages of `page`, so no pass holds more than a page in memory.
 */
export interface Checkpoint extends ChainTip {
  anchor: number;
}

export type VerifyMode = "incremental" | "full";

export interface ChainReader {
  /** The stored rows with `from <= seq <= to`, by seq. */
  rows(from: number, to: number): Promise<HandoffRow[]>;
  /** The stored row with the highest seq (for a ledger that has no tip of its own). */
  last(): Promise<HandoffRow | undefined>;
}

export interface PassOptions {
  window: number;
  page: number;
}

export interface PassResult extends ChainVerification {
  mode: VerifyMode;
  /** Entries appended since the last checkpoint, all checked by this pass (the whole chain in a full pass). */
  new_entries_checked: number;
  /** The older entries this incremental pass re-checked, or null. */
  rechecked: { from: number; to: number } | null;
}

export const DEFAULT_PASS: PassOptions = { window: 50, page: 500 };

interface Walk {
  findings: Finding[];
  first: HandoffRow | undefined;
  last: HandoffRow | undefined;
}

/** Checks entries `from..to` page by page, the first linked to `before`; a short page means entries are missing. */
async function walk(read: ChainReader, from: number, to: number, before: LinkBefore, key: VerifyKey | null, page: number): Promise<Walk> {
  const out: Walk = { findings: [], first: undefined, last: undefined };
  let prev = before;
  for (let at = from; at <= to; at += page) {
    const upto = Math.min(to, at + page - 1);
    const rows = await read.rows(at, upto);
    out.findings.push(...(await checkEntries(rows, at, prev, key)));
    if (rows.length < upto - at + 1) {
      const missing = at + rows.length;
      out.findings.push({ index: missing, reason: `entries ${missing} to ${upto}: ${upto - missing + 1} missing (the chain ends early or entries were deleted)` });
    }
    out.first ??= rows[0];
    out.last = rows.at(-1) ?? out.last;
    prev = rows.at(-1) ?? "unchecked";
  }
  return out;
}

/**
 * One verification pass. `tip` is the ledger's record of its last entry (null for a ledger that lost
 * its storage or never wrote: the last stored row stands in, and truncation cannot be seen).
 * Returns the verdict and the checkpoint to keep.
 */
export async function verifyPass(
  mode: VerifyMode,
  tip: ChainTip | null,
  checkpoint: Checkpoint | null,
  read: ChainReader,
  key: VerifyKey | null,
  opts: PassOptions = DEFAULT_PASS,
): Promise<{ result: PassResult; checkpoint: Checkpoint | null }> {
  let end = tip;
  if (!end) {
    const last = await read.last();
    end = last ? { seq: last.seq, id: last.id, hash: last.hash, signature: last.signature } : null;
  }
  if (!end) return { result: { ...verdict([], 0), mode, new_entries_checked: 0, rechecked: null }, checkpoint: null };
  const n = end.seq + 1;
  const usable = checkpoint && checkpoint.seq <= end.seq ? checkpoint : null;

  if (mode === "full" || !usable) {
    const w = await walk(read, 0, end.seq, null, key, opts.page);
    if (tip) w.findings.push(...checkTip(tip, w.last));
    const result = { ...verdict(w.findings, n), mode, new_entries_checked: n, rechecked: null };
    return { result, checkpoint: { ...end, anchor: anchorAfter(result.first_broken_index, 0) } };
  }

  // A chain that fits in one window is re-checked whole on every read.
  const from = usable.seq <= opts.window || usable.anchor >= usable.seq ? 0 : usable.anchor;
  const to = Math.min(usable.seq, from + opts.window);
  const [fresh, rolled] = await Promise.all([
    // The checkpoint row itself (its link to the entry before is the window's job), then everything
    // appended after it.
    walk(read, usable.seq, end.seq, "unchecked", key, opts.page),
    // The rolling window over the entries verified before.
    walk(read, from, to, from === 0 ? null : "unchecked", key, opts.page),
  ]);
  const atCheckpoint = fresh.first?.seq === usable.seq ? fresh.first : undefined;
  if (atCheckpoint && (atCheckpoint.id !== usable.id || atCheckpoint.hash !== usable.hash || atCheckpoint.signature !== usable.signature)) {
    fresh.findings.push({ index: usable.seq, reason: `entry ${usable.seq} (${atCheckpoint.id}): differs from the entry verified there before` });
  }
  if (tip) fresh.findings.push(...checkTip(tip, fresh.last));

  const findings = [...fresh.findings, ...rolled.findings];
  const result = { ...verdict(findings, n), mode, new_entries_checked: end.seq - usable.seq, rechecked: { from, to } };
  const next = anchorAfter(result.first_broken_index, to >= usable.seq ? 0 : to);
  return { result, checkpoint: { ...end, anchor: next } };
}

/** Where the next window starts: just before the first break (so its link is re-checked), else `otherwise`. */
const anchorAfter = (firstBroken: number | null, otherwise: number) => (firstBroken === null ? otherwise : Math.max(0, firstBroken - 1));
