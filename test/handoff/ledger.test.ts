import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "../../src/db/client";
import { auditEvents, handoffs } from "../../src/db/schema";
import { ledgerFor, type WorkspaceLedger } from "../../src/handoff/ledger";
import { verifySignature } from "../../src/shared/signing";
import { call, newKey } from "../helpers";

const PUB = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";

async function append(key: string, workspace_id: string, extra: Record<string, unknown> = {}) {
  const r = await call("/v1/handoff", { key, json: { workspace_id, objective: "Ship the parser", ...extra } });
  expect(r.status, r.text).toBe(200);
  return r.json;
}

const chain = async (key: string, ws: string) => (await call(`/v1/handoff/chain/${ws}`, { key })).json;

describe("POST /v1/handoff", () => {
  it("appends a signed entry with every field echoed and the subject it signed", async () => {
    const { key, record } = await newKey();
    const body = {
      workspace_id: "ws-a",
      objective: "Refactor the tokenizer",
      from_tool: "planner",
      to_tool: "human",
      files_touched: ["src/tok.ts", "src/tok.test.ts"],
      constraints: ["keep the public API"],
      risks: [{ id: "r1", description: "slower on long inputs" }],
      validation: [{ id: "v1", description: "npm test" }],
      recommended_next_action: "review the diff",
      action_kind: "refactor",
      est_cost: 0.0123,
    };
    const r = await call("/v1/handoff", { key, json: body });
    expect(r.status).toBe(200);
    const h = r.json;
    expect(h).toMatchObject({ ...body, object: "handoff", seq: 0, prev_handoff_id: null, prev_hash: null, signed: true, risk: { score: 0, tier: "auto", factors: [] } });
    expect(h.id).toMatch(/^ho_/);
    expect(h.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(h.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(JSON.parse(h.subject)).toMatchObject({ id: h.id, seq: 0, objective: body.objective, est_cost: 0.0123, workspace_id: "ws-a" });
    const pub = (await call("/v1/proof/pubkey")).json;
    expect(pub.public_key_hex).toBe(PUB);
    expect(h.signing_key_id).toBe(pub.key_id);
    expect(verifySignature(h.subject, h.signature, pub.public_key_hex)).toBe(true);

    // The handoff and its audit event were written together.
    const events = await db(env.DB).select().from(auditEvents).where(eq(auditEvents.ownerId, record.ownerId));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ id: h.event_id, eventType: "handoff_created", workspaceId: "ws-a", actor: `key:${record.id}` });
    expect(JSON.parse(events[0]!.payload)).toMatchObject({ handoff_id: h.id, seq: 0, hash: h.hash, signed: true });
  });

  it("ignores a client-supplied previous link: the server links to the real latest entry", async () => {
    const { key } = await newKey();
    const first = await append(key, "ws-b");
    const second = await append(key, "ws-b", { prev_handoff_id: "ho_forged", prev_hash: "sha256:" + "0".repeat(64), prev_signature: "00" });
    expect(second).toMatchObject({ seq: 1, prev_handoff_id: first.id, prev_hash: first.hash, prev_signature: first.signature });
    expect((await chain(key, "ws-b")).verification).toMatchObject({ ok: true, n: 2, first_broken_index: null, reasons: [], signing_enabled: true });
  });

  it("scores risk against the workspace's stored manifest", async () => {
    const { key } = await newKey();
    await call("/v1/workspace/readiness", { key, json: { workspace_id: "ws-c", protected_paths: ["migrations/**"] } });
    const h = await append(key, "ws-c", { files_touched: ["migrations/0002.sql"], action_kind: "deploy" });
    expect(h.risk).toEqual({ score: 70, tier: "approve", factors: ["protected_path", "deploy_action"] });
  });

  it("50 concurrent appends to one workspace form one linear chain that verifies", async () => {
    const { key } = await newKey("corporate");
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => call("/v1/handoff", { key, json: { workspace_id: "ws-race", objective: `step ${i}` } })));
    const elapsed = performance.now() - started;
    console.log(`50 concurrent appends: ${elapsed.toFixed(0)} ms`);
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.map((r) => r.json.seq).sort((a: number, b: number) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const readStarted = performance.now();
    const c = await chain(key, "ws-race");
    console.log(`GET chain of 50 with verification: ${(performance.now() - readStarted).toFixed(0)} ms`);
    expect(c.count).toBe(50);
    expect(c.verification).toEqual({ ok: true, n: 50, first_broken_index: null, reasons: [], signing_enabled: true, mode: "incremental", new_entries_checked: 50, rechecked: null });
    expect(c).toMatchObject({ has_more: false, checkpoint: { count: 50, last_id: c.data[49].id, last_hash: c.data[49].hash } });
    c.data.forEach((e: any, i: number) => {
      expect(e.seq).toBe(i);
      expect(e.prev_handoff_id).toBe(i === 0 ? null : c.data[i - 1].id);
      expect(e.created_at >= (i === 0 ? "" : c.data[i - 1].created_at)).toBe(true);
    });
    expect(c.pubkey_endpoint).toBe("https://svc.test/v1/proof/pubkey");
  });

  it.each([
    [{ objective: "" }], [{ objective: "x".repeat(501) }], [{ objective: 5 }], [{ action_kind: "delete" }], [{ workspace_id: "a/b" }],
    [{ est_cost: -1 }], [{ risks: [{ id: "r" }] }], [{ files_touched: "src/a.ts" }],
  ])("400 invalid_request on %j", async (patch) => {
    const { key } = await newKey();
    const r = await call("/v1/handoff", { key, json: { workspace_id: "ws-v", objective: "ok", ...patch } });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("invalid_request");
  });

  it("accepts a 500-character objective", async () => {
    const { key } = await newKey();
    expect((await append(key, "ws-v", { objective: "x".repeat(500) })).objective).toHaveLength(500);
  });
});

describe("GET /v1/handoff/{id} and tenant isolation", () => {
  it("returns the caller's handoff; 404 handoff_not_found for an unknown or another owner's id", async () => {
    const a = await newKey();
    const b = await newKey();
    const h = await append(a.key, "shared-name");
    const own = await call(`/v1/handoff/${h.id}`, { key: a.key });
    expect(own.status).toBe(200);
    const { event_id: _e, ...view } = h;
    expect(own.json).toEqual(view);
    for (const [key, id] of [[b.key, h.id], [a.key, "ho_nope"]] as const) {
      const r = await call(`/v1/handoff/${id}`, { key });
      expect(r.status).toBe(404);
      expect(r.json.error).toBe("handoff_not_found");
    }
  });

  it("two owners using the same workspace id get separate chains", async () => {
    const a = await newKey();
    const b = await newKey();
    await append(a.key, "same");
    await append(a.key, "same");
    // Before it appends, the second owner reads its own, empty, chain: not the first owner's.
    expect((await chain(b.key, "same"))).toMatchObject({ count: 0, data: [], verification: { ok: true, n: 0, first_broken_index: null }, checkpoint: null });
    const hb = await append(b.key, "same");
    expect(hb).toMatchObject({ seq: 0, prev_handoff_id: null });
    expect((await chain(b.key, "same")).count).toBe(1);
    expect((await chain(a.key, "same")).count).toBe(2);
    const rows = await db(env.DB).select().from(handoffs).where(and(eq(handoffs.ownerId, b.record.ownerId)));
    expect(rows).toHaveLength(1);
  });

  // Issue 16: the object name once joined owner and workspace with ':', so these pairs shared a chain.
  it.each([":", ".", "_", "@", "+", "=", "-"])("owner and workspace ids that differ only in where %j splits them get separate chains", async (s) => {
    const tag = `t${Math.random().toString(36).slice(2, 8)}`;
    const a = await newKey("pro", `${tag}`);
    const b = await newKey("pro", `${tag}${s}team`);
    const ha = await append(a.key, `team${s}ws`);
    const hb = await append(b.key, "ws");
    expect(ha).toMatchObject({ seq: 0, prev_handoff_id: null });
    expect(hb).toMatchObject({ seq: 0, prev_handoff_id: null });
    const second = await append(a.key, `team${s}ws`);
    expect(second).toMatchObject({ seq: 1, prev_handoff_id: ha.id });
    for (const [k, ws, n] of [[a.key, `team${s}ws`, 2], [b.key, "ws", 1]] as const) {
      const c = await chain(k, ws);
      expect(c.count).toBe(n);
      expect(c.verification).toMatchObject({ ok: true, n, first_broken_index: null });
    }
  });
});

describe("WorkspaceLedger recovery", () => {
  type Sql = { exec: (q: string, ...b: unknown[]) => { toArray(): any[] } };
  const tipOf = (sql: Sql, table: string) => sql.exec(`SELECT seq, handoff_id FROM ${table}`).toArray();

  it("an append written to D1 but not promoted to the tip (the object died in between) is adopted", async () => {
    const { key, record } = await newKey();
    const first = await append(key, "ws-rec");
    const second = await append(key, "ws-rec");
    const stub = ledgerFor(env, record.ownerId, "ws-rec");
    // Rewind the stored tip to the first entry and leave the second as pending, as a crash would.
    await runInDurableObject(stub, (_i: WorkspaceLedger, state) => {
      const sql = state.storage.sql;
      sql.exec("INSERT INTO pending SELECT * FROM tip");
      sql.exec("UPDATE tip SET seq = 0, handoff_id = ?, hash = ?, signature = ?, created_at = ?", first.id, first.hash, first.signature, first.created_at);
    });
    await evictDurableObject(stub);
    const third = await append(key, "ws-rec");
    expect(third).toMatchObject({ seq: 2, prev_handoff_id: second.id });
    await runInDurableObject(stub, (_i: WorkspaceLedger, state) => {
      expect(tipOf(state.storage.sql, "pending")).toEqual([]);
      expect(tipOf(state.storage.sql, "tip")).toEqual([{ seq: 2, handoff_id: third.id }]);
    });
    expect((await chain(key, "ws-rec")).verification.ok).toBe(true);
  });

  it("a pending append that never reached D1 is dropped", async () => {
    const { key, record } = await newKey();
    const first = await append(key, "ws-rec2");
    const stub = ledgerFor(env, record.ownerId, "ws-rec2");
    await runInDurableObject(stub, (_i: WorkspaceLedger, state) => {
      state.storage.sql.exec("INSERT INTO pending (id, seq, handoff_id, hash, signature, created_at) VALUES (1, 1, 'ho_lost', 'sha256:x', NULL, '2026-01-01T00:00:00.000Z')");
    });
    await evictDurableObject(stub);
    const second = await append(key, "ws-rec2");
    expect(second).toMatchObject({ seq: 1, prev_handoff_id: first.id });
    expect((await chain(key, "ws-rec2")).verification.ok).toBe(true);
  });

  it("a ledger without a stored tip continues from the latest entry in D1", async () => {
    const { key, record } = await newKey();
    const first = await append(key, "ws-rec3");
    const stub = ledgerFor(env, record.ownerId, "ws-rec3");
    await runInDurableObject(stub, (_i: WorkspaceLedger, state) => {
      state.storage.sql.exec("DELETE FROM tip");
    });
    await evictDurableObject(stub);
    expect(await append(key, "ws-rec3")).toMatchObject({ seq: 1, prev_handoff_id: first.id, prev_hash: first.hash });
  });

  it("keeps its tip across an eviction: the next append links to the entry written before it", async () => {
    const { key, record } = await newKey();
    const first = await append(key, "ws-evict");
    const stub = ledgerFor(env, record.ownerId, "ws-evict");
    await evictDurableObject(stub);
    expect(await stub.tip()).toEqual({ seq: 0, id: first.id, hash: first.hash, signature: first.signature });
    expect(await append(key, "ws-evict")).toMatchObject({ seq: 1, prev_handoff_id: first.id });
  });

  it("stores its schema version, and storage from before versioning (no version row) is brought up to it on wake", async () => {
    const { key, record } = await newKey();
    const first = await append(key, "ws-schema");
    const stub = ledgerFor(env, record.ownerId, "ws-schema");
    const version = () => runInDurableObject(stub, (_i: WorkspaceLedger, state) => state.storage.sql.exec("SELECT version FROM schema_version").toArray());
    const [current] = await version();
    expect(current!.version).toBeGreaterThanOrEqual(1);
    await runInDurableObject(stub, (_i: WorkspaceLedger, state) => {
      state.storage.sql.exec("DROP TABLE schema_version");
    });
    await evictDurableObject(stub);
    expect(await append(key, "ws-schema")).toMatchObject({ seq: 1, prev_handoff_id: first.id });
    expect(await version()).toEqual([current]);
  });

  it("takes its owner and workspace from its own name: an object reached by a bare id refuses to append", async () => {
    const req = { actor: "key:x", objective: "o", fromTool: null, toTool: null, filesTouched: [], constraints: [], risks: [], validation: [], recommendedNextAction: null, actionKind: "edit", estCost: null, risk: { score: 0, tier: "auto" as const, factors: [] } };
    await runInDurableObject(env.LEDGER.get(env.LEDGER.newUniqueId()), (ledger: WorkspaceLedger) => {
      expect(() => ledger.append(req)).toThrow(/reached by name/);
    });
  });
});
