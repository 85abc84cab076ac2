import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_BRAIN_CONFIG_BYTES, MAX_BRAIN_MD_BYTES, MAX_TITLE_CHARS } from "../../src/brain/requests";
import { createShare, getShare, SHARE_KV_TTL_S, shareKvKey, shareLinks, type ShareDeps } from "../../src/brain/shares";
import { db } from "../../src/db/client";
import { BASE, call, eventually, newKey } from "../helpers";

const BRAIN_MD = "# BRAIN.md\n\n```yaml\nmax_cost: 0.05\nblocked: [xai]\nfallback: [claude-haiku-4-5]\n```\n";
const CONFIG = { max_cost_per_request: 0.05, blocked: ["xai"], fallback: ["claude-haiku-4-5"] };
const SHARE_ID = /^[0-9A-Za-z]{10}$/;

const share = (key: string, json: unknown) => call("/v1/brain/share", { key, json });

function deps(over: Partial<ShareDeps> = {}): ShareDeps {
  return { db: db(env.DB), kv: env.CACHE, defer: () => {}, links: shareLinks(`${BASE}/v1/brain/share`, undefined), ...over };
}

describe("POST /v1/brain/share (SPEC.md 2.13, 4.8)", () => {
  it("needs a key: 401 invalid_api_key (wrapped) without one, on share and on list", async () => {
    for (const r of [await call("/v1/brain/share", { json: { brain_md: BRAIN_MD } }), await call("/v1/brain/shares")]) {
      expect(r.status).toBe(401);
      expect(r.json.detail.error).toBe("invalid_api_key");
    }
  });

  it("stores brain_md and answers the create response field by field", async () => {
    const { key } = await newKey("free");
    const before = Math.floor(Date.now() / 1000);
    const r = await share(key, { brain_md: BRAIN_MD, title: "  Support bot routing  " });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(["config", "created_at", "errors", "object", "share_id", "short_url", "title", "url", "valid"]);
    expect(r.json.object).toBe("brain.share");
    expect(r.json.share_id).toMatch(SHARE_ID);
    expect(r.json.url).toBe(`${BASE}/v1/b/${r.json.share_id}`);
    // SHORT_URL_BASE is unset in the tests: the request's origin, whose /b/{id} serves the share.
    expect(r.json.short_url).toBe(`${BASE}/b/${r.json.share_id}`);
    expect(r.json.title).toBe("Support bot routing");
    expect(r.json.config).toEqual(CONFIG);
    expect(r.json.valid).toBe(true);
    expect(r.json.errors).toEqual([]);
    expect(r.json.created_at).toBeGreaterThanOrEqual(before - 1);
    expect(Number.isInteger(r.json.created_at)).toBe(true);
  });

  it("brain_config is shared in its canonical form, brain_md null; no title is null", async () => {
    const { key } = await newKey("pro");
    const r = await share(key, { brain_config: { max_cost: 0.05, blocked: ["xai", "xai"], fallback: ["claude-haiku-4-5"] } });
    expect(r.json.config).toEqual(CONFIG);
    expect(r.json.title).toBeNull();
    const fetched = await call(`/v1/b/${r.json.share_id}`);
    expect(fetched.json.brain_md).toBeNull();
    expect(fetched.json.config).toEqual(CONFIG);
  });

  it("an invalid config can be shared: valid false with its errors, the valid part kept", async () => {
    const { key } = await newKey("pro");
    const r = await share(key, { brain_md: "max_cost: lots\nblocked: [openai]\nmodel: a\nmodel: b\n" });
    expect(r.status).toBe(200);
    expect(r.json.valid).toBe(false);
    expect(r.json.errors).toEqual(['line 4: duplicate key "model"', "max_cost: Invalid input: expected number, received string"]);
    expect(r.json.config).toEqual({ model: "b", blocked: ["openai"] });
    const fetched = await call(`/v1/b/${r.json.share_id}`);
    expect(fetched.json).toMatchObject({ valid: false, errors: r.json.errors });
  });

  it(`titles: up to ${MAX_TITLE_CHARS} characters (code points), blank is none, more is a 400 naming title`, async () => {
    const { key } = await newKey("pro");
    const longest = "🧠".repeat(MAX_TITLE_CHARS);
    expect((await share(key, { brain_md: "max_cost: 1", title: longest })).json.title).toBe(longest);
    expect((await share(key, { brain_md: "max_cost: 1", title: "   " })).json.title).toBeNull();
    expect((await share(key, { brain_md: "max_cost: 1", title: null })).json.title).toBeNull();
    const tooLong = await share(key, { brain_md: "max_cost: 1", title: "x".repeat(MAX_TITLE_CHARS + 1) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.message).toContain(`title: at most ${MAX_TITLE_CHARS} characters`);
    expect((await share(key, { brain_md: "max_cost: 1", title: 7 })).status).toBe(400);
  });

  it("400s: neither or both forms, other fields, sizes over the limits naming the field; nothing stored", async () => {
    const { key, record } = await newKey("pro");
    const bad: Array<[unknown, RegExp]> = [
      [{ title: "x" }, /give brain_md \(the BRAIN\.md text\) or brain_config/],
      [{ brain_md: "a: 1", brain_config: {} }, /not both/],
      [{ brain_md: "a: 1", public: true }, /Unrecognized key: "public"/],
      [{ brain_md: "x".repeat(MAX_BRAIN_MD_BYTES + 1) }, new RegExp(`brain_md: at most ${MAX_BRAIN_MD_BYTES} bytes`)],
      [{ brain_config: { compliance: { x: "y".repeat(MAX_BRAIN_CONFIG_BYTES) } } }, new RegExp(`brain_config: at most ${MAX_BRAIN_CONFIG_BYTES} bytes as JSON`)],
    ];
    for (const [json, message] of bad) {
      const r = await share(key, json);
      expect(r.status, JSON.stringify(json).slice(0, 60)).toBe(400);
      expect(r.json.error).toBe("invalid_request");
      expect(r.json.message).toMatch(message);
    }
    const count = () => env.DB.prepare("SELECT count(*) AS n FROM brain_shares WHERE owner_id = ?").bind(record.ownerId).first<{ n: number }>();
    expect((await count())?.n).toBe(0);
    await share(key, { brain_md: "max_cost: 1" });
    expect((await count())?.n).toBe(1);
  });

  it("ids are short, random and distinct", async () => {
    const { key } = await newKey("pro");
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await share(key, { brain_md: `max_cost: ${i + 1}` })).json.share_id);
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(SHARE_ID);
    // Not sequential: made one after another, they share no common prefix as time-ordered ids would.
    const sorted = [...ids].sort();
    expect(sorted[0]!.slice(0, 3)).not.toBe(sorted[19]!.slice(0, 3));
  });

  it("a colliding id is retried (the unique index catches it); repeated collisions fail loudly", async () => {
    const first = await createShare(deps({ newShareId: () => "Collide0001" }), "owner-collide", { brain_md: "max_cost: 1" }, null);
    expect(first.share_id).toBe("Collide0001");
    const ids = ["Collide0001", "Collide0001", "Fresh00001"];
    const second = await createShare(deps({ newShareId: () => ids.shift()! }), "owner-collide", { brain_md: "max_cost: 2" }, null);
    expect(second.share_id).toBe("Fresh00001");
    expect((await getShare(deps(), "Collide0001")).config).toEqual({ max_cost_per_request: 1 });
    await expect(createShare(deps({ newShareId: () => "Collide0001" }), "owner-collide", { brain_md: "max_cost: 3" }, null)).rejects.toThrow(/no free share id after 5 attempts/);
  });

  it("the largest accepted share stays far below D1's 1,000,000-byte row limit", async () => {
    const { key } = await newKey("pro");
    // Maximal text that also yields the most errors the store keeps.
    const text = `blocked: [${Array.from({ length: 100 }, () => "1").join(", ")}]\n${Array.from({ length: 3000 }, (_, i) => `k${i}${"x".repeat(8)}: 1`).join("\n")}\n`.slice(0, MAX_BRAIN_MD_BYTES);
    const r = await share(key, { brain_md: text, title: "t".repeat(MAX_TITLE_CHARS) });
    expect(r.status).toBe(200);
    expect(r.json.errors).toHaveLength(50);
    const big = await share(key, { brain_config: { compliance: { note: "é".repeat(MAX_BRAIN_CONFIG_BYTES / 2 - 40) } } });
    expect(big.status).toBe(200);
    // YAML is terser than JSON: `~,` becomes `null,`, the largest growth the text form allows.
    const nulls = `compliance: {a: [${Array.from({ length: (MAX_BRAIN_MD_BYTES - 30) / 2 }, () => "~").join(",")}]}\n`;
    const grown = await share(key, { brain_md: nulls });
    expect(grown.status).toBe(200);
    expect(JSON.stringify(grown.json.config).length).toBeGreaterThan(2 * MAX_BRAIN_MD_BYTES);
    for (const id of [r.json.share_id, big.json.share_id, grown.json.share_id]) {
      const row = await env.DB.prepare(
        "SELECT length(CAST(config AS BLOB)) + coalesce(length(CAST(brain_md AS BLOB)), 0) + length(CAST(errors AS BLOB)) + coalesce(length(CAST(title AS BLOB)), 0) AS bytes FROM brain_shares WHERE share_id = ?",
      ).bind(id).first<{ bytes: number }>();
      expect(row!.bytes).toBeLessThan(300_000);
    }
  });
});

describe("GET /v1/b/{share_id} (public, SPEC.md 2.13)", () => {
  it("answers the fetch response with no key, immutable cache headers, the original text; /b/{id} the same", async () => {
    const { key } = await newKey("pro");
    const created = (await share(key, { brain_md: BRAIN_MD, title: "Support" })).json;
    const r = await call(`/v1/b/${created.share_id}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(r.json).toEqual({
      object: "brain.share",
      share_id: created.share_id,
      title: "Support",
      config: CONFIG,
      brain_md: BRAIN_MD,
      valid: true,
      errors: [],
      created_at: created.created_at,
    });
    const short = await call(`/b/${created.share_id}`);
    expect(short.status).toBe(200);
    expect(short.json).toEqual(r.json);
  });

  it("404 share_not_found for an unknown id, a malformed one, and one of another case", async () => {
    const { key } = await newKey("pro");
    const created = (await share(key, { brain_md: "max_cost: 1" })).json;
    // Ids are case-sensitive base62: the same letters in the other case are another id.
    const flipped = [...(created.share_id as string)].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join("");
    expect(flipped).not.toBe(created.share_id);
    for (const id of ["ZZZZZZZZZZ", "not-an-id!", "x".repeat(300), flipped]) {
      const r = await call(`/v1/b/${encodeURIComponent(id)}`);
      expect(r.status, id.slice(0, 20)).toBe(404);
      expect(r.json).toMatchObject({ error: "share_not_found" });
    }
  });

  it("caches the fetch in KV with a TTL of at least 60 s, and serves from it", async () => {
    const { key } = await newKey("pro");
    const created = (await share(key, { brain_md: "max_cost: 0.3" })).json;
    const first = await call(`/v1/b/${created.share_id}`);
    const cached = await eventually(() => env.CACHE.get(shareKvKey(created.share_id), "json"));
    expect(cached).toEqual(first.json);
    const listed = await env.CACHE.list({ prefix: shareKvKey(created.share_id) });
    const expiresIn = listed.keys[0]!.expiration! - Date.now() / 1000;
    expect(expiresIn).toBeGreaterThanOrEqual(60);
    expect(expiresIn).toBeLessThanOrEqual(SHARE_KV_TTL_S + 5);
    // Gone from D1, still served: the read came from KV.
    await env.DB.prepare("DELETE FROM brain_shares WHERE share_id = ?").bind(created.share_id).run();
    const again = await call(`/v1/b/${created.share_id}`);
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
  });

  it("a KV failure never fails the fetch: reads and writes that throw fall back to D1", async () => {
    const created = await createShare(deps(), "owner-kv", { brain_md: "max_cost: 0.4" }, "kv down");
    const broken = {
      get: () => Promise.reject(new Error("KV unavailable")),
      put: () => {
        throw new Error("KV unavailable");
      },
    } as unknown as KVNamespace;
    const deferred: Promise<unknown>[] = [];
    const view = await getShare(deps({ kv: broken, defer: (p) => deferred.push(p) }), created.share_id);
    expect(view).toMatchObject({ share_id: created.share_id, title: "kv down", config: { max_cost_per_request: 0.4 } });
    await expect(Promise.all(deferred)).resolves.toBeDefined();
  });
});

describe("GET /v1/brain/shares (SPEC.md 2.13 list)", () => {
  it("lists the owner's shares only, newest first, with the list fields", async () => {
    const mine = await newKey("pro");
    const theirs = await newKey("pro");
    const made: string[] = [];
    for (const t of ["one", "two", "three"]) made.push((await share(mine.key, { brain_md: "max_cost: 1", title: t })).json.share_id);
    await share(theirs.key, { brain_md: "max_cost: 1", title: "not yours" });
    const r = await call("/v1/brain/shares", { key: mine.key });
    expect(r.status).toBe(200);
    expect(r.json.object).toBe("list");
    expect(r.json.data.map((s: { share_id: string }) => s.share_id)).toEqual([...made].reverse());
    expect(r.json.data[0]).toEqual({
      share_id: made[2],
      title: "three",
      config: { max_cost_per_request: 1 },
      url: `${BASE}/v1/b/${made[2]}`,
      short_url: `${BASE}/b/${made[2]}`,
      valid: true,
      created_at: expect.any(Number),
    });
    expect(r.json.has_more).toBe(false);
    expect(r.json.next_cursor).toBeNull();
  });

  it("pages with limit and an opaque cursor, without repeats or gaps, while new shares arrive", async () => {
    const { key } = await newKey("pro");
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await share(key, { brain_md: `max_cost: ${i + 1}` })).json.share_id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { json: { data: { share_id: string }[]; next_cursor: string | null; has_more: boolean } } = await call(
        `/v1/brain/shares?limit=3${cursor ? `&cursor=${cursor}` : ""}`,
        { key },
      );
      expect(page.json.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.json.data.map((s) => s.share_id));
      cursor = page.json.next_cursor;
      // A share made mid-way lands before the first page, not in the pages still to read.
      if (seen.length === 3) await share(key, { brain_md: "max_cost: 99" });
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
  });

  it("400 on a bad limit, a forged cursor, or an unknown parameter", async () => {
    const { key } = await newKey("pro");
    for (const q of ["limit=0", "limit=201", "limit=abc", "cursor=not-a-cursor", `cursor=${btoa("ae_123")}`, "sort=asc"]) {
      const r = await call(`/v1/brain/shares?${q}`, { key });
      expect(r.status, q).toBe(400);
      expect(r.json.error).toBe("invalid_request");
    }
  });
});

describe("short_url base", () => {
  it("SHORT_URL_BASE sets short_url (trailing slash ignored); a malformed one falls back to the origin", () => {
    expect(shareLinks("https://api.example/v1/brain/share", "https://brn.example/").shortUrl("abc")).toBe("https://brn.example/b/abc");
    expect(shareLinks("https://api.example/v1/brain/share", "https://brn.example").url("abc")).toBe("https://api.example/v1/b/abc");
    expect(shareLinks("https://api.example/v1/brain/share", "not a url").shortUrl("abc")).toBe("https://api.example/b/abc");
    expect(shareLinks("http://localhost:8787/v1/brain/share", undefined).shortUrl("abc")).toBe("http://localhost:8787/b/abc");
  });
});
