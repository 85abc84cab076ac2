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
      if (r.status >= 400) expect(typeof (r.json?.error ?? r.json?.detail?.error)).toBe("string");
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
