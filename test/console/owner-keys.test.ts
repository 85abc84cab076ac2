import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { MAX_ACTIVE_KEYS_PER_OWNER } from "../../src/auth/owner-keys";
import { buildRegistry } from "../../src/mcp/registry";
import { call, newKey, recorded } from "../helpers";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("owner-scoped key endpoints (issue 17)", () => {
  it("list the caller owner's keys only: prefix, plan, created, last used, never a secret or hash", async () => {
    const owner = `own_${crypto.randomUUID()}`;
    const a = await newKey("pro", owner);
    const b = await newKey("pro", owner);
    const other = await newKey("pro", `own_${crypto.randomUUID()}`);
    const r = await call("/v1/keys", { key: a.key });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ object: "list", count: 2 });
    expect(r.json.data.map((k: any) => k.id).sort()).toEqual([a.record.id, b.record.id].sort());
    const mine = r.json.data.find((k: any) => k.id === a.record.id);
    expect(mine).toEqual({
      id: a.record.id,
      object: "api_key",
      prefix: a.key.slice(0, 15),
      plan: "pro",
      owner_id: owner,
      created_at: expect.stringMatching(ISO),
      revoked_at: null,
      last_used_at: null,
      current: true,
    });
    expect(r.json.data.find((k: any) => k.id === b.record.id).current).toBe(false);
    expect(r.text).not.toContain(a.key);
    expect(r.text).not.toContain(a.record.keyHash);
    expect(r.text).not.toContain(other.record.id);
  });

  it("last_used_at is the time of the key's latest recorded call", async () => {
    const { key, record } = await newKey("pro");
    const chat = await call("/v1/chat/completions", { key, json: { messages: [{ role: "user", content: "hello" }] } });
    expect(chat.status).toBe(200);
    const listed = await recorded(async () => {
      const r = await call("/v1/keys", { key });
      const k = r.json.data.find((x: any) => x.id === record.id);
      return k.last_used_at ? k : undefined;
    });
    expect(listed.last_used_at).toMatch(ISO);
    expect(Date.parse(listed.last_used_at)).toBeGreaterThanOrEqual(record.createdAt);
  });

  it("create: the caller's plan and owner, the secret shown once, and the new key works at once", async () => {
    const owner = `own_${crypto.randomUUID()}`;
    const { key } = await newKey("free", owner);
    const r = await call("/v1/keys", { key, json: {} });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ object: "api_key", plan: "free", owner_id: owner, revoked_at: null, current: false, key: expect.stringMatching(/^svc_sk_[0-9A-Za-z]{43}$/) });
    expect(r.json.prefix).toBe(r.json.key.slice(0, 15));
    const usage = await call("/v1/usage", { key: r.json.key });
    expect(usage.status).toBe(200);
    expect(usage.json).toMatchObject({ user_id: owner, plan: "free" });
    // Listed, but never with the secret again.
    const list = await call("/v1/keys", { key });
    expect(list.json.data.map((k: any) => k.id)).toContain(r.json.id);
    expect(list.text).not.toContain(r.json.key);
    const row = await env.DB.prepare("SELECT plan, owner_id FROM api_keys WHERE id = ?").bind(r.json.id).first();
    expect(row).toEqual({ plan: "free", owner_id: owner });
  });

  it("create takes no fields: a plan in the body is refused, nothing written", async () => {
    const owner = `own_${crypto.randomUUID()}`;
    const { key } = await newKey("free", owner);
    const r = await call("/v1/keys", { key, json: { plan: "corporate" } });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("invalid_request");
    const n = await env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE owner_id = ?").bind(owner).first<{ n: number }>();
    expect(n!.n).toBe(1);
  });

  it(`an owner holds at most ${MAX_ACTIVE_KEYS_PER_OWNER} active keys: 409 too_many_keys, then room again after a revocation`, async () => {
    const owner = `own_${crypto.randomUUID()}`;
    const { key } = await newKey("pro", owner);
    const made: string[] = [];
    for (let i = 1; i < MAX_ACTIVE_KEYS_PER_OWNER; i++) made.push((await call("/v1/keys", { key, json: {} })).json.id);
    const over = await call("/v1/keys", { key, json: {} });
    expect(over.status).toBe(409);
    expect(over.json).toMatchObject({ error: "too_many_keys", max_active_keys: MAX_ACTIVE_KEYS_PER_OWNER });
    expect((await call(`/v1/keys/${made[0]}`, { key, method: "DELETE" })).status).toBe(200);
    expect((await call("/v1/keys", { key, json: {} })).status).toBe(201);
  });

  it("concurrent creates never pass the cap (the count and the insert are one statement)", async () => {
    const owner = `own_${crypto.randomUUID()}`;
    const { key } = await newKey("pro", owner);
    for (let i = 3; i < MAX_ACTIVE_KEYS_PER_OWNER; i++) await newKey("pro", owner);
    // Two slots left, five racing requests.
    const answers = await Promise.all(Array.from({ length: 5 }, () => call("/v1/keys", { key, json: {} })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 409, 409, 409]);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE owner_id = ? AND revoked_at IS NULL").bind(owner).first<{ n: number }>();
    expect(n!.n).toBe(MAX_ACTIVE_KEYS_PER_OWNER);
  });

  it("revoke: the key stops working at once (same revocation as the admin endpoint), twice keeps the first time", async () => {
    const owner = `own_${crypto.randomUUID()}`;
    const admin = await newKey("pro", owner);
    const victim = await newKey("pro", owner);
    expect((await call("/v1/usage", { key: victim.key })).status).toBe(200); // now cached on this isolate
    const r = await call(`/v1/keys/${victim.record.id}`, { key: admin.key, method: "DELETE" });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ id: victim.record.id, revoked_at: expect.stringMatching(ISO) });
    const after = await call("/v1/usage", { key: victim.key });
    expect(after.status).toBe(401);
    expect(after.json.detail.error).toBe("invalid_api_key");
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = await call(`/v1/keys/${victim.record.id}`, { key: admin.key, method: "DELETE" });
    expect(again.json.revoked_at).toBe(r.json.revoked_at);
    // Still listed, as revoked.
    const list = await call("/v1/keys", { key: admin.key });
    expect(list.json.data.find((k: any) => k.id === victim.record.id).revoked_at).toBe(r.json.revoked_at);
  });

  it("another owner's key is a 404 key_not_found, untouched", async () => {
    const mine = await newKey("corporate");
    const theirs = await newKey("pro");
    for (const [method, path] of [
      ["DELETE", `/v1/keys/${theirs.record.id}`],
      ["POST", `/v1/keys/${theirs.record.id}/rotate`],
      ["DELETE", "/v1/keys/key_unknown"],
    ] as const) {
      const r = await call(path, { key: mine.key, method, ...(method === "POST" ? { json: {} } : {}) });
      expect(r.status, path).toBe(404);
      expect(r.json.error).toBe("key_not_found");
    }
    expect((await call("/v1/usage", { key: theirs.key })).status).toBe(200);
    const row = await env.DB.prepare("SELECT revoked_at FROM api_keys WHERE id = ?").bind(theirs.record.id).first();
    expect(row!.revoked_at).toBeNull();
  });

  it("rotate: a new key on the caller's plan and the old one revoked together; the caller may rotate its own key", async () => {
    const owner = `own_${crypto.randomUUID()}`;
    const { key, record } = await newKey("pro", owner);
    const r = await call(`/v1/keys/${record.id}/rotate`, { key, json: {} });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ object: "api_key", plan: "pro", owner_id: owner, key: expect.stringMatching(/^svc_sk_/), revoked: { id: record.id, revoked_at: expect.stringMatching(ISO), current: true } });
    expect((await call("/v1/usage", { key })).status).toBe(401);
    const next = await call("/v1/usage", { key: r.json.key });
    expect(next.status).toBe(200);
    expect(next.json.user_id).toBe(owner);
    const again = await call(`/v1/keys/${record.id}/rotate`, { key: r.json.key, json: {} });
    expect(again.status).toBe(409);
    expect(again.json.error).toBe("key_revoked");
    const n = await env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE owner_id = ?").bind(owner).first<{ n: number }>();
    expect(n!.n).toBe(2);
  });

  it("are documented operations but not MCP tools (a secret should not pass through a model's context)", async () => {
    const ops = buildRegistry(app.routes).operations.filter((o) => o.path.startsWith("/v1/keys"));
    expect(ops.map((o) => o.key).sort()).toEqual(["DELETE /v1/keys/:key_id", "GET /v1/keys", "POST /v1/keys", "POST /v1/keys/:key_id/rotate"]);
    for (const o of ops) expect(o.tool, o.key).toBeUndefined();
    const manifest = await call("/v1/mcp/manifest");
    expect(manifest.json.tools.filter((t: any) => t.path.startsWith("/v1/keys"))).toEqual([]);
    expect(manifest.json.tools.find((t: any) => t.name === "get_daily_usage")).toMatchObject({ path: "/v1/usage/daily", auth_required: true });
  });

  it("need a key: 401 wrapped without one", async () => {
    for (const [method, path] of [
      ["GET", "/v1/keys"],
      ["POST", "/v1/keys"],
      ["DELETE", "/v1/keys/key_x"],
      ["POST", "/v1/keys/key_x/rotate"],
    ] as const) {
      const r = await call(path, { method });
      expect(r.status, path).toBe(401);
      expect(r.json.detail.error).toBe("invalid_api_key");
    }
  });
});
