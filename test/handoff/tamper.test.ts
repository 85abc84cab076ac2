import { env } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../src/db/client";
import { handoffs } from "../../src/db/schema";
import { verifyChain } from "../../src/handoff/verify";
import { hashString } from "../../src/shared/hash";
import { call, newKey } from "../helpers";

/**
 * Tampering with the chain in D1, the way someone with database access would: every signed field of
 * every entry, deletion of any entry, and swapping two entries. Each must be detected and located.
 */
const WS = "ws-tamper";
let key: string;
let ownerId: string;
let original: Array<typeof handoffs.$inferSelect>;

type Mutation = (value: any, index: number) => unknown;
const flipHex = (s: string) => (s[0] === "a" ? "b" : "a") + s.slice(1);
const grow = (json: string) => JSON.stringify([...JSON.parse(json), json.includes("{") ? { id: "x", description: "y" } : "injected"]);
const orSet = (v: string | null) => (v === null ? "injected" : v + "!");

// Column name in D1 -> how to mutate it. Covers every column of the handoffs table.
const MUTATIONS: Array<[string, Mutation]> = [
  ["id", (v) => v + "x"],
  ["owner_id", () => "usr_someone_else"],
  ["workspace_id", () => "ws-elsewhere"],
  ["seq", (v) => v + 1000],
  ["objective", (v) => v + "!"],
  ["from_tool", orSet],
  ["to_tool", orSet],
  ["files_touched", grow],
  ["constraints", grow],
  ["risks", grow],
  ["validation", grow],
  ["recommended_next_action", orSet],
  ["action_kind", (v) => (v === "deploy" ? "edit" : "deploy")],
  ["est_cost", (v) => (v ?? 0) + 0.5],
  ["prev_handoff_id", () => "ho_forged"],
  ["prev_hash", () => "sha256:" + "1".repeat(64)],
  ["prev_signature", () => "ab".repeat(64)],
  ["subject", (v) => v + " "],
  ["hash", () => "sha256:" + "2".repeat(64)],
  ["signature", flipHex],
  ["signing_key_id", () => "0000000000000000"],
  ["risk_score", (v) => v + 1],
  ["risk_tier", (v) => (v === "block" ? "auto" : "block")],
  ["risk_factors", () => '["injected"]'],
  ["created_at", (v) => new Date(Date.parse(v) + 1).toISOString()],
];

const rowsNow = () => db(env.DB).select().from(handoffs).where(and(eq(handoffs.ownerId, ownerId), eq(handoffs.workspaceId, WS)));

async function restore() {
  const database = db(env.DB);
  // Storage is per test file: this file's chain is the whole table, mutated rows included.
  await database.delete(handoffs);
  await database.batch(original.map((r) => database.insert(handoffs).values(r)) as [any, ...any[]]);
}

async function verification(mode: "incremental" | "full" = "incremental") {
  const r = await call(`/v1/handoff/chain/${WS}?verify=${mode}`, { key });
  expect(r.status).toBe(200);
  expect(r.json.verification.mode).toBe(mode);
  return r.json.verification;
}

/** Both modes must find it: on a chain this short the incremental read re-checks every entry. */
async function bothModes() {
  const [incremental, full] = [await verification("incremental"), await verification("full")];
  expect([incremental.ok, incremental.first_broken_index], incremental.reasons.join(" | ")).toEqual([full.ok, full.first_broken_index]);
  return full;
}

beforeAll(async () => {
  const k = await newKey("corporate");
  key = k.key;
  ownerId = k.record.ownerId;
  await call("/v1/workspace/readiness", { key, json: { workspace_id: WS, protected_paths: ["db/**"] } });
  const bodies = [
    { objective: "first", files_touched: ["db/schema.sql"], action_kind: "setup", est_cost: 0.25 },
    { objective: "second", from_tool: "a", to_tool: "b", constraints: ["c1"], risks: [{ id: "r", description: "d" }], validation: [{ id: "v", description: "w" }] },
    { objective: "third", recommended_next_action: "review", action_kind: "deploy" },
    { objective: "fourth", files_touched: ["README.md"] },
  ];
  for (const b of bodies) expect((await call("/v1/handoff", { key, json: { workspace_id: WS, ...b } })).status).toBe(200);
  original = (await rowsNow()).sort((a, b) => a.seq - b.seq);
  expect(original).toHaveLength(4);
});

describe("tamper detection", () => {
  it("the untouched chain verifies", async () => {
    expect(await verification("full")).toEqual({ ok: true, n: 4, first_broken_index: null, reasons: [], signing_enabled: true, mode: "full", new_entries_checked: 4, rechecked: null });
    expect(await verification()).toEqual({ ok: true, n: 4, first_broken_index: null, reasons: [], signing_enabled: true, mode: "incremental", new_entries_checked: 0, rechecked: { from: 0, to: 3 } });
  });

  for (const [column, mutate] of MUTATIONS) {
    it(`detects and locates a change to ${column} of any entry`, async () => {
      for (let i = 0; i < original.length; i++) {
        const row = original[i]!;
        const current = (await env.DB.prepare(`SELECT ${column} AS v FROM handoffs WHERE id = ?`).bind(row.id).first<{ v: unknown }>())!.v;
        await env.DB.prepare(`UPDATE handoffs SET ${column} = ? WHERE id = ?`).bind(mutate(current, i), row.id).run();
        const v = await bothModes();
        expect(v.ok, `${column} of entry ${i}`).toBe(false);
        expect(v.first_broken_index, `${column} of entry ${i}: ${v.reasons.join(" | ")}`).toBe(i);
        expect(v.reasons.length).toBeGreaterThan(0);
        await restore();
      }
      expect((await verification()).ok).toBe(true);
    });
  }

  it("detects and locates the deletion of any entry, the last one included", async () => {
    for (let i = 0; i < original.length; i++) {
      await env.DB.prepare("DELETE FROM handoffs WHERE id = ?").bind(original[i]!.id).run();
      const v = await bothModes();
      expect(v.ok).toBe(false);
      expect(v.first_broken_index, v.reasons.join(" | ")).toBe(i);
      await restore();
    }
  });

  it("detects and locates two entries swapped", async () => {
    for (const [a, b] of [[0, 1], [1, 3], [2, 3], [0, 3]] as const) {
      const [ra, rb] = [original[a]!, original[b]!];
      await env.DB.batch([
        env.DB.prepare("UPDATE handoffs SET seq = -1 WHERE id = ?").bind(ra.id),
        env.DB.prepare("UPDATE handoffs SET seq = ? WHERE id = ?").bind(a, rb.id),
        env.DB.prepare("UPDATE handoffs SET seq = ? WHERE id = ?").bind(b, ra.id),
      ]);
      const v = await bothModes();
      expect(v.ok).toBe(false);
      expect(v.first_broken_index).toBe(a);
      await restore();
    }
  });

  it("a chain re-signed without the key still fails: the signature is checked against the published key", async () => {
    // A forger who rewrites entry 3 consistently (fields, subject, hash) but cannot sign it.
    const rows = original.map((r) => ({ ...r }));
    const last = rows[3]!;
    const subject = JSON.parse(last.subject);
    subject.objective = "forged";
    last.objective = "forged";
    last.subject = JSON.stringify(Object.fromEntries(Object.keys(subject).sort().map((k) => [k, subject[k]])));
    last.hash = hashString(last.subject);
    const key = { keyId: last.signingKeyId!, publicKeyHex: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a" };
    const v = await verifyChain(rows, key);
    expect(v.first_broken_index).toBe(3);
    expect(v.reasons).toEqual([`entry 3 (${last.id}): signature does not verify`]);
    expect((await verifyChain(original, key)).ok).toBe(true);
  });
});
