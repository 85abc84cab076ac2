import { describe, expect, it } from "vitest";
import { verifyPass, type ChainReader, type Checkpoint, type PassOptions } from "../../src/handoff/incremental";
import { rowFromSubject, SUBJECT_VERSION, subjectHash, subjectText, type HandoffRow, type HandoffSubject } from "../../src/handoff/subject";
import type { ChainTip } from "../../src/handoff/verify";
import { signerFrom } from "../../src/shared/signing";

const signer = signerFrom("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")!;
const OPTS: PassOptions = { window: 5, page: 7 };

async function entry(prev: HandoffRow | undefined, seq: number): Promise<HandoffRow> {
  const s: HandoffSubject = {
    version: SUBJECT_VERSION, id: `ho_${seq}`, workspace_id: "ws", seq, objective: `step ${seq}`, from_tool: null, to_tool: null,
    files_touched: [], constraints: [], risks: [], validation: [], recommended_next_action: null, action_kind: "edit", est_cost: null,
    risk: { score: 0, tier: "auto", factors: [] }, created_at: new Date(1_800_000_000_000 + seq).toISOString(),
    prev_handoff_id: prev?.id ?? null, prev_hash: prev?.hash ?? null, prev_signature: prev?.signature ?? null, signing_key_id: signer.keyId,
  };
  const subject = subjectText(s);
  return rowFromSubject("usr_1", s, subject, subjectHash(subject), await signer.sign(subject));
}

/** An in-memory chain with a ledger tip, read the way the ledger reads D1. */
async function chain(n: number) {
  const rows: HandoffRow[] = [];
  for (let i = 0; i < n; i++) rows.push(await entry(rows[i - 1], i));
  let reads = 0;
  const store = {
    rows,
    tip: (): ChainTip => { const t = rows.at(-1)!; return { seq: t.seq, id: t.id, hash: t.hash, signature: t.signature }; },
    reader: {
      rows: async (from: number, to: number) => { reads++; return rows.filter((r) => r.seq >= from && r.seq <= to).sort((a, b) => a.seq - b.seq); },
      last: async () => [...rows].sort((a, b) => b.seq - a.seq)[0],
    } satisfies ChainReader,
    reads: () => reads,
  };
  return store;
}

describe("incremental verification", () => {
  it("verifies everything once, then only what is new plus a rolling window that wraps", async () => {
    const c = await chain(30);
    const first = await verifyPass("incremental", c.tip(), null, c.reader, signer, OPTS);
    expect(first.result).toMatchObject({ ok: true, n: 30, new_entries_checked: 30, rechecked: null });
    let cp: Checkpoint | null = first.checkpoint;
    expect(cp).toMatchObject({ seq: 29, id: "ho_29", anchor: 0 });

    const windows: Array<[number, number]> = [];
    for (let i = 0; i < 7; i++) {
      const p = await verifyPass("incremental", c.tip(), cp, c.reader, signer, OPTS);
      expect(p.result).toMatchObject({ ok: true, n: 30, new_entries_checked: 0 });
      windows.push([p.result.rechecked!.from, p.result.rechecked!.to]);
      cp = p.checkpoint;
    }
    expect(windows).toEqual([[0, 5], [5, 10], [10, 15], [15, 20], [20, 25], [25, 29], [0, 5]]);

    c.rows.push(await entry(c.rows[29], 30));
    const next = await verifyPass("incremental", c.tip(), cp, c.reader, signer, OPTS);
    expect(next.result).toMatchObject({ ok: true, n: 31, new_entries_checked: 1 });
    expect(next.checkpoint).toMatchObject({ seq: 30, id: "ho_30" });
  });

  it("a tamper of an old entry: full finds it at once, the rolling window within ceil(n / window) reads, and it stays reported until repaired", async () => {
    const c = await chain(30);
    let cp = (await verifyPass("full", c.tip(), null, c.reader, signer, OPTS)).checkpoint;
    const original = c.rows[17]!;
    c.rows[17] = { ...original, objective: "changed" };

    let reads = 0;
    for (;;) {
      reads++;
      const p = await verifyPass("incremental", c.tip(), cp, c.reader, signer, OPTS);
      cp = p.checkpoint;
      if (!p.result.ok) {
        expect(p.result.first_broken_index).toBe(17);
        break;
      }
      expect(reads).toBeLessThanOrEqual(Math.ceil(30 / OPTS.window));
    }
    for (let i = 0; i < 3; i++) {
      const again = await verifyPass("incremental", c.tip(), cp, c.reader, signer, OPTS);
      expect(again.result).toMatchObject({ ok: false, first_broken_index: 17 });
      cp = again.checkpoint;
    }
    expect((await verifyPass("full", c.tip(), cp, c.reader, signer, OPTS)).result).toMatchObject({ ok: false, first_broken_index: 17 });

    c.rows[17] = original;
    expect((await verifyPass("incremental", c.tip(), cp, c.reader, signer, OPTS)).result.ok).toBe(true);
  });

  it("finds entries deleted from the end against the ledger's tip, and a changed checkpoint entry", async () => {
    const c = await chain(12);
    const tip = c.tip();
    const cp = (await verifyPass("full", tip, null, c.reader, signer, OPTS)).checkpoint;
    const removed = c.rows.splice(9);
    const full = await verifyPass("full", tip, cp, c.reader, signer, OPTS);
    expect(full.result).toMatchObject({ ok: false, n: 12, first_broken_index: 9 });
    expect((await verifyPass("incremental", tip, cp, c.reader, signer, OPTS)).result).toMatchObject({ ok: false });
    c.rows.push(...removed);
    c.rows[11] = { ...c.rows[11]!, hash: "sha256:" + "0".repeat(64) };
    expect((await verifyPass("incremental", tip, cp, c.reader, signer, OPTS)).result).toMatchObject({ ok: false, first_broken_index: 11 });
  });

  it("reads a full pass in pages, never the whole chain at once", async () => {
    const c = await chain(30);
    await verifyPass("full", c.tip(), null, c.reader, signer, OPTS);
    expect(c.reads()).toBe(Math.ceil(30 / OPTS.page));
  });

  it("without a ledger tip, the last stored row stands in", async () => {
    const c = await chain(3);
    expect((await verifyPass("incremental", null, null, c.reader, signer, OPTS)).result).toMatchObject({ ok: true, n: 3 });
    const empty = await chain(0);
    expect((await verifyPass("incremental", null, null, empty.reader, signer, OPTS)).result).toMatchObject({ ok: true, n: 0, first_broken_index: null });
  });
});
