/**
 * The storage meter's counting, over fake bindings shaped like the runtime's: which methods count,
 * that D1's batch gets the runtime's own statements back, and which calls land on and off the
 * request path. The same meter over the real bindings in workerd: storage-meter.test.ts.
 */
import { describe, expect, it } from "vitest";
import { formatCounts, meteredDurableObject, notAwaited, meterEnv, meterTotals, parseCounts, STORAGE_METER_HEADER, STORAGE_METER_PATH, withStorageMeter, zeroCounts, type StorageKind } from "../../src/shared/storage-meter";

class FakeStatement {
  constructor(readonly sql: string, readonly params: unknown[] = []) {}
  bind(...params: unknown[]) {
    return new FakeStatement(this.sql, params);
  }
  async first() {
    return { sql: this.sql };
  }
  async all() {
    return { results: [] };
  }
  async run() {
    return { success: true };
  }
  async raw() {
    return [];
  }
}

class FakeD1 {
  batched: unknown[] = [];
  prepare(sql: string) {
    return new FakeStatement(sql);
  }
  async batch(stmts: unknown[]) {
    // The runtime refuses anything but its own statements.
    if (!stmts.every((s) => s instanceof FakeStatement)) throw new TypeError("not a D1 statement");
    // Storage is I/O: it completes in a later turn of the event loop, never within the caller's microtasks.
    await new Promise((r) => setTimeout(r, 5));
    this.batched = stmts;
    return stmts.map(() => ({ success: true }));
  }
  async exec() {
    return { count: 1 };
  }
}

const fakeStub = () => ({ id: "object-id", fetch: async () => new Response("ok"), lease: async (n: number) => ({ granted: n }) });
const fakeEnv = () => ({
  DB: new FakeD1(),
  CACHE: { get: async () => null, getWithMetadata: async () => ({ value: null }), put: async () => {}, delete: async () => {}, list: async () => ({ keys: [] }) },
  LIMITER: { idFromName: (n: string) => n, get: (_id?: string) => fakeStub(), getByName: (_name: string) => fakeStub() },
  QUEUE: { send: async () => {}, sendBatch: async () => {} },
  SOME_VAR: "plain",
});

function recorder() {
  const calls: StorageKind[] = [];
  return { calls, count: (kind: StorageKind) => void calls.push(kind) };
}

describe("meterEnv", () => {
  it("counts one call a round trip, and none for what stays local", async () => {
    const env = fakeEnv();
    const r = recorder();
    const m = meterEnv(env, r.count);
    const stmt = m.DB.prepare("SELECT ?").bind(1);
    expect(r.calls).toEqual([]);
    await stmt.first();
    await stmt.all();
    await m.DB.prepare("x").run();
    await m.DB.exec();
    await m.DB.batch([m.DB.prepare("a"), m.DB.prepare("b").bind(2)]);
    expect(r.calls).toEqual(["d1", "d1", "d1", "d1", "d1"]);
    // The batch reached the binding with its own statements, not the proxies.
    expect(env.DB.batched.every((s) => s instanceof FakeStatement)).toBe(true);

    r.calls.length = 0;
    await m.CACHE.get();
    await m.CACHE.put();
    await m.CACHE.list();
    const stub = m.LIMITER.getByName("key_1");
    expect(stub.id).toBe("object-id");
    expect(await stub.lease(3)).toEqual({ granted: 3 });
    await m.LIMITER.get().fetch();
    await m.QUEUE.sendBatch();
    expect(r.calls).toEqual(["kv", "kv", "kv", "do", "do", "queue"]);
    expect(m.SOME_VAR).toBe("plain");
  });
});

describe("withStorageMeter", () => {
  const ctx = { waitUntil: () => {}, passThroughOnException: () => {} } as unknown as ExecutionContext;

  it("off: the handler gets the env itself and the response is untouched", async () => {
    const env = { ...fakeEnv(), STORAGE_METER: "off" };
    let seen: unknown;
    const handler = withStorageMeter(async (_req, e: typeof env) => {
      seen = e;
      return new Response("hi");
    });
    const res = await handler(new Request(`https://svc.test${STORAGE_METER_PATH}`), env, ctx);
    expect(seen).toBe(env);
    expect(res.headers.has(STORAGE_METER_HEADER)).toBe(false);
  });

  it("on: calls completed before the Response are on the path, the rest off it", async () => {
    const env = { ...fakeEnv(), STORAGE_METER: "on" };
    const later: Promise<unknown>[] = [];
    const handler = withStorageMeter(async (_req, e: typeof env) => {
      await e.LIMITER.getByName("k").lease(1);
      await e.DB.prepare("SELECT 1").first();
      // Issued but not awaited before answering, as a waitUntil write is.
      later.push(e.DB.batch([e.DB.prepare("INSERT")]));
      return new Response("hi", { headers: { "x-a": "1" } });
    });
    const before = (await (await handler(new Request(`https://svc.test${STORAGE_METER_PATH}`), env, ctx)).json()) as { requests: number; onPath: Record<string, number>; offPath: Record<string, number> };
    const res = await handler(new Request("https://svc.test/v1/chat/completions"), env, ctx);
    await Promise.all(later);
    // Issued after the response, as the end of a stream is.
    await env.DB.prepare("not metered").first();
    expect(await res.text()).toBe("hi");
    expect(res.headers.get("x-a")).toBe("1");
    expect(parseCounts(res.headers.get(STORAGE_METER_HEADER)!)).toEqual({ ...zeroCounts(), do: 1, d1: 1 });
    const after = (await (await handler(new Request(`https://svc.test${STORAGE_METER_PATH}`), env, ctx)).json()) as typeof before;
    expect(after.requests - before.requests).toBe(1);
    expect(after.onPath.d1! - before.onPath.d1!).toBe(1);
    expect(after.onPath.do! - before.onPath.do!).toBe(1);
    expect(after.offPath.d1! - before.offPath.d1!).toBe(1);
  });

  it("a call started under notAwaited is off the path even when it completes before the Response", async () => {
    const env = { ...fakeEnv(), STORAGE_METER: "on" };
    const handler = withStorageMeter(async (_req, e: typeof env) => {
      const ahead = notAwaited(() => e.LIMITER.getByName("k").lease(1)); // a lease fetched ahead
      await e.DB.prepare("SELECT 1").first();
      await ahead; // finished before the response, yet nobody had to wait for it
      return new Response("hi");
    });
    const meter = async () => (await (await handler(new Request(`https://svc.test${STORAGE_METER_PATH}`), env, ctx)).json()) as { offPath: Record<string, number> };
    const before = await meter();
    const res = await handler(new Request("https://svc.test/v1/chat/completions"), env, ctx);
    expect(parseCounts(res.headers.get(STORAGE_METER_HEADER)!)).toEqual({ ...zeroCounts(), d1: 1 });
    expect((await meter()).offPath.do! - before.offPath.do!).toBe(1);
  });

  it("meters a Durable Object's own env only when STORAGE_METER is on", async () => {
    class Buffer {
      constructor(readonly ctx: unknown, readonly env: ReturnType<typeof fakeEnv> & { STORAGE_METER?: string }) {}
      flush() {
        return this.env.DB.batch([this.env.DB.prepare("INSERT")]);
      }
    }
    const Metered = meteredDurableObject(Buffer);
    const plainEnv = fakeEnv();
    expect(new Metered({}, plainEnv).env).toBe(plainEnv);
    const before = meterTotals().inDurableObjects.d1;
    await new Metered({}, { ...plainEnv, STORAGE_METER: "off" }).flush();
    expect(meterTotals().inDurableObjects.d1).toBe(before);
    const on = new Metered({}, { ...fakeEnv(), STORAGE_METER: "on" });
    expect(on).toBeInstanceOf(Buffer);
    await on.flush();
    expect(meterTotals().inDurableObjects.d1).toBe(before + 1);
  });

  it("formats and parses the header", () => {
    const c = { ...zeroCounts(), d1: 2, do: 1 };
    expect(formatCounts(c)).toBe("d1=2,kv=0,do=1,queue=0,r2=0");
    expect(parseCounts(formatCounts(c))).toEqual(c);
  });
});
