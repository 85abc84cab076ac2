import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { app } from "../../src/app";
import { KEY_CACHE_TTL_MS, KEY_REFRESH_MS, REVOCATION_CHECK_MS } from "../../src/auth/key-cache";
import { generateKey, isWellFormedKey } from "../../src/auth/keys";
import { call, newKey } from "../helpers";

const ADMIN = { authorization: "Bearer test-admin-token" };

/** The test D1 with the revocation epoch's read answered by `first`; every other statement passes through. */
const withEpochRead = (first: (stmt: D1PreparedStatement) => Promise<unknown>) =>
  new Proxy(env.DB, {
    get(target, prop) {
      if (prop !== "prepare") return Reflect.get(target, prop, target);
      return (sql: string) => {
        const stmt = target.prepare(sql);
        if (!sql.includes("max(revoked_at)")) return stmt;
        return new Proxy(stmt, { get: (t, p) => (p === "first" ? () => first(t) : Reflect.get(t, p, t)) });
      };
    },
  });

describe("API keys", () => {
  it("are svc_sk_ plus 43 base62 characters, distinct each time", () => {
    const keys = new Set(Array.from({ length: 200 }, generateKey));
    expect(keys.size).toBe(200);
    for (const k of keys) {
      expect(k).toMatch(/^svc_sk_[0-9A-Za-z]{43}$/);
      expect(isWellFormedKey(k)).toBe(true);
    }
  });

  it("are stored only as SHA-256", async () => {
    const r = await call("/admin/keys", { json: { plan: "free", owner: "alice" }, headers: ADMIN });
    expect(r.status).toBe(201);
    const rows = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?").bind(r.json.id).all();
    expect(JSON.stringify(rows.results)).not.toContain(r.json.key);
    // Computed here with WebCrypto, not with the code under test.
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(r.json.key)));
    expect(rows.results[0]!.key_hash).toBe([...digest].map((b) => b.toString(16).padStart(2, "0")).join(""));
  });

  it("admin endpoints create, list and revoke; revocation takes effect at once on this isolate", async () => {
    const created = await call("/admin/keys", { json: { plan: "pro" }, headers: ADMIN });
    expect(created.json).toMatchObject({ object: "api_key", plan: "pro", revoked_at: null, key: expect.stringMatching(/^svc_sk_/) });
    const key = created.json.key as string;

    expect((await call("/v1/usage", { key })).status).toBe(200);

    const list = await call("/admin/keys", { headers: ADMIN });
    expect(list.json.data.map((k: { id: string }) => k.id)).toContain(created.json.id);
    expect(JSON.stringify(list.json)).not.toContain(key);

    const revoked = await call(`/admin/keys/${created.json.id}`, { method: "DELETE", headers: ADMIN });
    expect(revoked.status).toBe(200);
    expect(revoked.json.revoked_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const after = await call("/v1/usage", { key });
    expect(after.status).toBe(401);
    expect(after.json.detail.error).toBe("invalid_api_key");

    expect((await call("/admin/keys/key_unknown", { method: "DELETE", headers: ADMIN })).json.error).toBe("key_not_found");
  });

  it("a key revoked elsewhere (the CLI, another isolate: straight in D1) stops working here within REVOCATION_CHECK_MS", async () => {
    const { key, record } = await newKey("pro");
    for (let i = 0; i < 3; i++) expect((await call("/v1/usage", { key })).status).toBe(200); // cached on this isolate
    await env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ?").bind(Date.now(), record.id).run();
    const revokedAt = performance.now();
    let served = 0;
    for (;;) {
      const r = await call("/v1/usage", { key });
      if (r.status === 401) break;
      expect(r.status).toBe(200);
      served++;
      expect(performance.now() - revokedAt, `still served ${served} times`).toBeLessThan(REVOCATION_CHECK_MS + 500);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const ms = performance.now() - revokedAt;
    console.info(`revocation seen after ${ms.toFixed(0)} ms (${served} requests still served); bound ${REVOCATION_CHECK_MS} ms`);
    expect(ms).toBeLessThan(REVOCATION_CHECK_MS + 500);
  });

  it("after a quiet second, the epoch read and the lease fetch overlap: one round trip of waiting, not two", async () => {
    const { key } = await newKey("pro");
    const slow = 150;
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // D1's epoch read and the limiter's lease each take `slow` ms; everything else passes through.
    const d1 = withEpochRead(async (stmt) => (await sleep(slow), stmt.first()));
    const limiter = new Proxy(env.LIMITER, {
      get(target, prop) {
        if (prop !== "getByName") return Reflect.get(target, prop, target);
        return (name: string) => {
          const stub = target.getByName(name);
          return { lease: async (...a: Parameters<typeof stub.lease>) => (await sleep(slow), stub.lease(...a)), release: (...a: Parameters<typeof stub.release>) => stub.release(...a) };
        };
      },
    });
    const slowEnv = { ...env, DB: d1, LIMITER: limiter };
    const get = () => app.request("/v1/savings", { headers: { authorization: `Bearer ${key}` } }, slowEnv);
    expect((await get()).status).toBe(200); // the key is now cached here
    await sleep(REVOCATION_CHECK_MS + 100); // the epoch and the lease are both stale
    const started = performance.now();
    expect((await get()).status).toBe(200);
    const waited = performance.now() - started;
    console.info(`first request after a quiet second waited ${waited.toFixed(0)} ms (each round trip ${slow} ms)`);
    expect(waited).toBeLessThan(2 * slow);
  });

  it("an epoch read that never answers (its request cancelled by the runtime) does not hold any other request", async () => {
    const { key } = await newKey("pro");
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // The epoch read of the first request never settles, as when the runtime cancels that request:
    // nothing chained to it ever runs. Before, the isolate kept it as the read in flight, and every
    // later request that needed the epoch waited on it for ever.
    const stuck = withEpochRead(() => new Promise(() => {}));
    const get = (e: typeof env) => app.request("/v1/savings", { headers: { authorization: `Bearer ${key}` } }, e);
    expect((await get(env)).status).toBe(200);
    await sleep(REVOCATION_CHECK_MS + 100); // the epoch is stale: the next request reads it on its path
    void get({ ...env, DB: stuck });
    const timeout = sleep(3000).then(() => "hung" as const);
    for (let i = 0; i < 3; i++) {
      const res = await Promise.race([get(env), timeout]);
      expect(res, "a request waited on the dead epoch read").not.toBe("hung");
      expect((res as Response).status).toBe(200);
    }
  });

  it(`a key in use is re-read in the background once its record is ${KEY_REFRESH_MS / 1000} s old, so a key seen in the last minute never waits for D1`, async () => {
    const { key, record } = await newKey("pro");
    expect((await call("/v1/usage", { key })).json.plan).toBe("pro");
    // Something other than revocation changed straight in D1 (the service itself never does this).
    await env.DB.prepare("UPDATE api_keys SET plan = 'corporate' WHERE id = ?").bind(record.id).run();
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(start + KEY_REFRESH_MS + 1_000);
      // The revocation epoch is stale now: this request re-reads it (not the key: its record is valid
      // until KEY_CACHE_TTL_MS) and is answered from the cache.
      expect((await call("/v1/usage", { key })).json.plan).toBe("pro");
      // Epoch fresh, record older than KEY_REFRESH_MS: answered from the cache, the key re-read after.
      expect((await call("/v1/usage", { key })).json.plan).toBe("pro");
      await new Promise((r) => setTimeout(r, 200));
      expect((await call("/v1/usage", { key })).json.plan).toBe("corporate");
      // A record is kept KEY_CACHE_TTL_MS, more than a minute past KEY_REFRESH_MS.
      expect(KEY_CACHE_TTL_MS).toBeGreaterThan(KEY_REFRESH_MS + 60_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it("revoking twice keeps the first revoked_at", async () => {
    const created = await call("/admin/keys", { json: { plan: "free" }, headers: ADMIN });
    const first = await call(`/admin/keys/${created.json.id}`, { method: "DELETE", headers: ADMIN });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await call(`/admin/keys/${created.json.id}`, { method: "DELETE", headers: ADMIN });
    expect(second.status).toBe(200);
    expect(second.json.revoked_at).toBe(first.json.revoked_at);
  });

  it("admin endpoints refuse a wrong token and do not exist without ADMIN_TOKEN", async () => {
    const wrong = await call("/admin/keys", { json: { plan: "pro" }, headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    expect(wrong.json.detail.error).toBe("invalid_admin_token");

    const res = await app.request("/admin/keys", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }, { ...env, ADMIN_TOKEN: undefined });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: "not_found" });
  });
});
