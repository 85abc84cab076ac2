import { beforeAll, describe, expect, it } from "vitest";
import { call, newKey } from "../helpers";

// SPEC.md section 7 and DESIGN.md section 4: bad input is a clear 4xx, never a 500.
const POSTS = [
  "/v1/chat/completions", "/v1/route", "/v1/workspace/readiness", "/v1/workspace/generate",
  "/v1/handoff", "/v1/policy/check", "/v1/risk/score", "/admin/keys",
];
const BODIES: Array<string> = [
  "", "null", "[]", '"text"', "42", "{}", "{", '{"messages": null}', '{"messages": [null]}', '{"messages": [{"role": "user"}]}',
  '{"messages": [{"role": "user", "content": "hi"}], "brain_config": "yes"}', '{"messages": [{"role": "user", "content": "hi"}], "max_tokens": 1e309}',
  '{"workspace_id": null}', '{"workspace_id": "", "objective": ""}', '{"workspace_id": "w", "objective": "' + "x".repeat(501) + '"}',
  '{"workspace_id": "w", "action": 5}', '{"kind": "nuke", "targets": "all"}', '{"__proto__": {"admin": true}}',
];
const GETS = [
  "/v1/audit/events?limit=abc", "/v1/audit/events?limit=0", "/v1/audit/events?limit=201", "/v1/audit/events?since=yesterday",
  "/v1/audit/events?cursor=%%%", "/v1/audit/events?cursor=bm9wZQ", "/v1/audit/events?event_type=party", "/v1/audit/events?decision=maybe",
  "/v1/workspace/%20/snapshot", "/v1/workspace/w/snapshot?limit=-1", "/v1/handoff/%00", "/v1/handoff/chain/" + "w".repeat(500),
  "/v1/savings?baseline=", "/v1/proof/" + "x".repeat(300),
];

let key: string;
beforeAll(async () => {
  key = (await newKey("corporate")).key;
});

describe("bad input never gives a 500", () => {
  it.each(POSTS)("POST %s", async (path) => {
    for (const body of BODIES) {
      const r = await call(path, { method: "POST", key, body, headers: { "content-type": "application/json", authorization: path.startsWith("/admin") ? "Bearer test-admin-token" : `Bearer ${key}` } });
      expect(r.status, `${path} ${body.slice(0, 60)} -> ${r.text.slice(0, 200)}`).toBeLessThan(500);
      // The OpenAI-compatible endpoints answer OpenAI's error object, whose code is error.code.
      if (r.status >= 400) expect(typeof (r.json?.error?.code ?? r.json?.error ?? r.json?.detail?.error)).toBe("string");
    }
  });

  it.each(GETS)("GET %s", async (path) => {
    const r = await call(path, { key });
    expect(r.status, `${path} -> ${r.text.slice(0, 200)}`).toBeLessThan(500);
    expect(r.status).toBeGreaterThanOrEqual(400);
  });

  it("a wrong content type is a 400, not a 500", async () => {
    const r = await call("/v1/chat/completions", { method: "POST", key, body: "messages=hi", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(r.status).toBe(400);
  });
});

// Issue 16: what a client sends must never break what the service hashes, signs or stores.
describe("ill-formed strings and deep JSON are refused with a 400 before any route sees them", () => {
  const LONE = "x\ud800y";
  const valid: Record<string, Record<string, unknown>> = {
    "/v1/chat/completions": { model: "auto", messages: [{ role: "user", content: LONE }] },
    "/v1/handoff": { workspace_id: "ws-utf16", objective: LONE },
    "/v1/policy/check": { workspace_id: "ws-utf16", action: LONE },
  };

  it.each(Object.keys(valid))("POST %s with a lone surrogate in a string: 400 naming the field", async (path) => {
    const r = await call(path, { method: "POST", key, json: valid[path] });
    expect(r.status).toBe(400);
    // Chat completions answer OpenAI's error object (docs/compatibility.md): the same fields inside `error`.
    const body = path === "/v1/chat/completions" ? { error: r.json.error.code, issues: r.json.error.issues } : r.json;
    expect(body.error).toBe("invalid_request");
    expect(body.issues).toEqual([{ path: path === "/v1/chat/completions" ? "messages.0.content" : path === "/v1/handoff" ? "objective" : "action", message: expect.stringContaining("lone UTF-16 surrogate") }]);
    expect(r.headers.get("x-request-id")).toBeTruthy();
  });

  it("a lone surrogate in an object key or a free-form field is refused too; a well-formed pair is fine", async () => {
    const inKey = await call("/v1/policy/check", { method: "POST", key, json: { workspace_id: "ws-utf16", action: "ok", context: { ["k\udc00"]: 1 } } });
    expect(inKey.status).toBe(400);
    expect(inKey.json.issues[0].message).toContain("object key");
    const inContext = await call("/v1/policy/check", { method: "POST", key, json: { workspace_id: "ws-utf16", action: "ok", context: { note: ["fine", "\udfff"] } } });
    expect(inContext.status).toBe(400);
    expect(inContext.json.issues[0].path).toBe("context.note.1");
    const pair = await call("/v1/policy/check", { method: "POST", key, json: { workspace_id: "ws-utf16", action: "emoji \ud83d\ude00 ok" } });
    expect(pair.status).toBe(200);
  });

  it("policy check context nested 10,000 deep: 400 naming the limit (was a 500 from a stack overflow)", async () => {
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    const body = `{"workspace_id":"ws-deep","action":"edit","context":{"x":${deep}}}`;
    const r = await call("/v1/policy/check", { method: "POST", key, body, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: "invalid_request", message: expect.stringContaining("deeper than 64 levels"), issues: [{ path: expect.stringMatching(/^context\.x(\.0)+$/), message: "JSON nested deeper than 64 levels" }] });
    const handoff = await call("/v1/handoff", { method: "POST", key, body: `{"workspace_id":"ws-deep","objective":"o","risks":${deep}}`, headers: { "content-type": "application/json" } });
    expect(handoff.status).toBe(400);
    expect(handoff.json.message).toContain("deeper than 64 levels");
  });

  it("context at the depth limit is accepted and stored", async () => {
    // The body is level 1, context level 2, so 62 more levels of arrays reach exactly 64.
    const body = `{"workspace_id":"ws-deep","action":"edit","context":{"x":${"[".repeat(62)}${"]".repeat(62)}}}`;
    const r = await call("/v1/policy/check", { method: "POST", key, body, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(200);
  });
});
