import { env, evictDurableObject, listDurableObjectIds, runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { bufferRecorder, writeRecords, type BufferedRecord, type CallRecord } from "../../src/calls/record";
import { FLUSH_AT, type BufferStats } from "../../src/calls/usage-buffer";
import { db } from "../../src/db/client";
import { signerFrom } from "../../src/shared/signing";
import { call, eventually, newKey } from "../helpers";

/**
 * The write-behind buffer (docs/storage.md "Write-behind"): every call's usage row and receipt reach
 * D1 through the key's UsageBuffer Durable Object, batched, durable, idempotent on retry. Everything
 * here runs the real object and local D1; the batch counts are the buffer's own instrumentation.
 */
const chat = (key: string, content = "Say something short.") =>
  call("/v1/chat/completions", { key, json: { model: "gpt-5-nano", messages: [{ role: "user", content }], max_tokens: 16 } });

const usageCount = async (requestId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM usage_events WHERE request_id = ?").bind(requestId).first<{ n: number }>())!.n;
const receiptCount = async (requestId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM proof_receipts WHERE request_id = ?").bind(requestId).first<{ n: number }>())!.n;

/** Every buffer's counters added up (an isolate sends to one of USAGE_BUFFER_SHARDS buffers, picked at random). */
async function totals(): Promise<BufferStats> {
  const all = await Promise.all((await listDurableObjectIds(env.USAGE_BUFFER)).map((id) => env.USAGE_BUFFER.get(id).stats()));
  const sum = (k: "pending" | "batches" | "records" | "failures" | "failing") => all.reduce((n, s) => n + s[k], 0);
  return { pending: sum("pending"), batches: sum("batches"), records: sum("records"), failures: sum("failures"), failing: sum("failing"), lastError: all.map((s) => s.lastError).find((e) => e) ?? null };
}

/** A sealed chat call's record as the buffer holds it, taken from a real call's stored rows. */
async function recordOf(requestId: string): Promise<BufferedRecord> {
  const u = (await env.DB.prepare("SELECT * FROM usage_events WHERE request_id = ?").bind(requestId).first<Record<string, any>>())!;
  const r = (await env.DB.prepare("SELECT receipt, proof_hash FROM proof_receipts WHERE request_id = ?").bind(requestId).first<{ receipt: string; proof_hash: string }>())!;
  return {
    usage: {
      id: u.id, createdAt: u.created_at, ownerId: u.owner_id, keyId: u.key_id, requestId: u.request_id, endpoint: u.endpoint, model: u.model,
      provider: u.provider, mode: u.mode, promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens, costNanos: u.cost_nanos,
      latencyMs: u.latency_ms, fallback: Boolean(u.fallback),
    },
    receipt: { receipt: JSON.parse(r.receipt), proofHash: r.proof_hash as `sha256:${string}` },
  };
}

describe("write-behind: usage rows and receipts through the isolate's buffer", () => {
  it(`under load writes at most one D1 batch per ${FLUSH_AT} calls: 200 calls on one key, at most 4 batches`, async () => {
    const { key, record } = await newKey("pro");
    await chat(key, "warm the key cache");
    const before = await eventually(async () => {
      const s = await totals();
      return s.records >= 1 && s.pending === 0 ? s : undefined;
    });

    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => chat(key, `call ${i}`)));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const after = await eventually(async () => {
      const s = await totals();
      return s.records - before.records === 200 && s.pending === 0 ? s : undefined;
    });
    const batches = after.batches - before.batches;
    console.log(`200 calls on one key: ${batches} D1 batch(es)`);
    expect(batches).toBeLessThanOrEqual(4);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM usage_events WHERE key_id = ?").bind(record.id).first<{ n: number }>();
    expect(rows!.n).toBe(201);
    const receipts = await env.DB.prepare("SELECT count(*) AS n FROM proof_receipts WHERE request_id IN (SELECT request_id FROM usage_events WHERE key_id = ?)").bind(record.id).first<{ n: number }>();
    expect(receipts!.n).toBe(201);
  });

  it("batches across keys: 200 calls spread over 10 keys also take at most 4 D1 batches", async () => {
    const keys = await Promise.all(Array.from({ length: 10 }, () => newKey("pro")));
    await Promise.all(keys.map(({ key }) => chat(key, "warm the key cache")));
    const before = await eventually(async () => {
      const s = await totals();
      return s.pending === 0 ? s : undefined;
    });
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => chat(keys[i % 10]!.key, `call ${i}`)));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const after = await eventually(async () => {
      const s = await totals();
      return s.records - before.records === 200 && s.pending === 0 ? s : undefined;
    });
    const batches = after.batches - before.batches;
    console.log(`200 calls on 10 keys: ${batches} D1 batch(es)`);
    expect(batches).toBeLessThanOrEqual(4);
  });

  it("GET /v1/usage and GET /v1/proof/{request_id} see a call within one second of its response", async () => {
    const { key } = await newKey("pro");
    const latencies: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await chat(key, `visible ${i}`);
      const answered = Date.now();
      const requestId = r.json.svc.proof.request_id;
      await eventually(async () => {
        const [usage, proof] = await Promise.all([call("/v1/usage", { key }), call(`/v1/proof/${requestId}`)]);
        return usage.json.total_requests === i + 1 && proof.status === 200 && proof.json.valid === true;
      }, 1000);
      latencies.push(Date.now() - answered);
    }
    console.log(`visible after ${latencies.join(", ")} ms`);
    expect(Math.max(...latencies)).toBeLessThan(1000);
  });

  it("a failing D1 batch keeps the records and retries: they arrive, once, when D1 takes them again", async () => {
    const { key } = await newKey("pro");
    const before = await totals();
    expect(before.pending).toBe(0);
    await env.DB.exec("ALTER TABLE usage_events RENAME TO usage_events_away");
    let requestId: string;
    try {
      const r = await chat(key, "recorded while D1 refuses");
      expect(r.status).toBe(200);
      requestId = r.json.svc.proof.request_id;
      const failed = await eventually(async () => {
        const s = await totals();
        return s.failures > before.failures ? s : undefined;
      });
      expect(failed).toMatchObject({ pending: 1, batches: before.batches });
      expect(failed.lastError).toContain("usage_events");
      // The batch is one transaction: the receipt did not land without its usage row.
      expect(await receiptCount(requestId)).toBe(0);
    } finally {
      await env.DB.exec("ALTER TABLE usage_events_away RENAME TO usage_events");
    }
    // The retry is scheduled with backoff; run it now rather than wait for it.
    for (const id of await listDurableObjectIds(env.USAGE_BUFFER)) await runDurableObjectAlarm(env.USAGE_BUFFER.get(id));
    expect(await totals()).toMatchObject({ pending: 0, batches: before.batches + 1, records: before.records + 1, failing: 0 });
    expect(await usageCount(requestId)).toBe(1);
    expect((await call(`/v1/proof/${requestId}`)).json).toMatchObject({ valid: true, signed: true, signature_valid: true });
  });

  it("a retried flush whose rows already reached D1 writes nothing twice and does not fail", async () => {
    const { key } = await newKey("pro");
    const r = await chat(key, "written once");
    const requestId = r.json.svc.proof.request_id;
    await eventually(async () => (await receiptCount(requestId)) === 1);
    const rec = await recordOf(requestId);
    // As if the object were evicted after D1 took the batch but before it deleted the records.
    const buffer = env.USAGE_BUFFER.getByName("test-retry");
    await buffer.append([rec, rec]);
    expect(await runDurableObjectAlarm(buffer)).toBe(true);
    expect(await buffer.stats()).toMatchObject({ pending: 0, failing: 0, batches: 1, records: 2 });
    await writeRecords(db(env.DB), signerFrom(env.LEDGER_SIGNING_KEY), [rec]);
    expect(await usageCount(requestId)).toBe(1);
    expect(await receiptCount(requestId)).toBe(1);
  });

  it("records survive the buffer object being evicted before its flush", async () => {
    const { key } = await newKey("pro");
    const r = await chat(key, "outlive an eviction");
    const requestId = r.json.svc.proof.request_id;
    const rec = await eventually(async () => ((await receiptCount(requestId)) === 1 ? recordOf(requestId) : undefined));
    // A record the D1 tables have not seen yet: same call, new ids.
    const fresh: BufferedRecord = {
      usage: { ...rec.usage, id: `${rec.usage.id}-2`, requestId: `${requestId}-2` },
      receipt: { ...rec.receipt!, receipt: { ...rec.receipt!.receipt, request_id: `${requestId}-2` } as never },
    };
    const buffer = env.USAGE_BUFFER.getByName("test-evict");
    await buffer.append([fresh]);
    expect((await buffer.stats()).pending).toBe(1);
    await evictDurableObject(buffer);
    // A new instance loads the records from storage and its alarm (kept across the eviction) flushes them.
    await eventually(async () => (await usageCount(`${requestId}-2`)) === 1, 3000);
    expect(await receiptCount(`${requestId}-2`)).toBe(1);
    expect((await buffer.stats()).pending).toBe(0);
  });

  it("when the buffer cannot be reached, the isolate writes the records to D1 itself", async () => {
    const { record } = await newKey("pro");
    const waits: Promise<unknown>[] = [];
    const database = db(env.DB);
    // Sent once: both records gathered within GATHER_MS.
    const recorder = bufferRecorder(
      () => Promise.reject(new Error("buffer unreachable")),
      (records) => writeRecords(database, null, records),
      (p) => waits.push(p),
    );
    const usage = (requestId: string): CallRecord => ({
      usage: { ownerId: record.ownerId, keyId: record.id, requestId, endpoint: "/v1/chat/completions", model: "gpt-5-nano", provider: "openai", mode: "direct", promptTokens: 3, completionTokens: 4, costNanos: 1750, latencyMs: 2, fallback: false },
      receipt: null,
    });
    recorder(usage("req_fallback_1"));
    recorder(usage("req_fallback_2"));
    expect(waits).toHaveLength(1);
    await Promise.all(waits);
    expect(await usageCount("req_fallback_1")).toBe(1);
    expect(await usageCount("req_fallback_2")).toBe(1);
  });
});
