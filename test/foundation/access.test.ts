import { describe, expect, it } from "vitest";
import { requiresKey } from "../../src/auth/access";
import { call, newKey } from "../helpers";
import { env } from "cloudflare:test";
import { db } from "../../src/db/client";
import { revokeKey } from "../../src/auth/keys";

// SPEC.md section 5, item 5, plus the compliance preview (item 6) and 4.12.
const PROTECTED: Array<[string, string]> = [
  ["POST", "/v1/chat/completions"], ["POST", "/v2/orchestrate"], ["POST", "/v2/code"], ["POST", "/v1/route"],
  ["POST", "/v1/agent/run"], ["GET", "/v1/usage"], ["GET", "/v1/savings"],
  ["POST", "/v1/workspace/readiness"], ["POST", "/v1/workspace/generate"], ["GET", "/v1/workspace/ws1/snapshot"],
  ["POST", "/v1/handoff"], ["GET", "/v1/handoff/ho_1"], ["GET", "/v1/handoff/chain/ws1"],
  ["POST", "/v1/policy/check"], ["GET", "/v1/audit/events"], ["POST", "/v1/brain/share"], ["GET", "/v1/brain/shares"],
  ["GET", "/v1/agent/runs"], ["GET", "/v1/agent/agt_1"], ["GET", "/v1/agent/agt_1/trajectory"], ["POST", "/v1/agent/agt_1/cancel"],
  ["POST", "/v1/skills/s1/invoke"], ["POST", "/v1/risk/score"], ["POST", "/v2/compliance/preview"], ["POST", "/v1/mcp"],
];
const PUBLIC: Array<[string, string]> = [
  ["GET", "/v1/models"], ["POST", "/v1/brain/validate"], ["GET", "/v1/proof/req_1"], ["GET", "/v1/proof/pubkey"],
  ["POST", "/v1/agent/verify"], ["GET", "/health"], ["GET", "/v1/plans"], ["GET", "/v1/skills"], ["GET", "/v1/skills/s1"],
  ["GET", "/v1/b/abc"], ["GET", "/v1/brain/badge"], ["GET", "/v1/mcp/manifest"],
];

describe("access table", () => {
  it.each(PROTECTED)("%s %s needs a key", (method, path) => {
    expect(requiresKey(method, path)).toBe(true);
  });
  it.each(PUBLIC)("%s %s is public", (method, path) => {
    expect(requiresKey(method, path)).toBe(false);
  });

  it("every protected endpoint answers 401 invalid_api_key (wrapped) with no, a malformed, an unknown or a revoked key", async () => {
    const { key, record } = await newKey("pro");
    await revokeKey(db(env.DB), record.id);
    const variants: Array<Record<string, string>> = [
      {},
      { authorization: "Bearer not-a-key" },
      { authorization: "Basic c3ZjOnNlY3JldA==" },
      { authorization: `Bearer svc_sk_${"A".repeat(43)}` },
      { authorization: `Bearer ${key}` },
    ];
    for (const [method, path] of PROTECTED) {
      for (const headers of variants) {
        const r = await call(path, { method, headers, ...(method === "POST" ? { json: {} } : {}) });
        expect(r.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(r.json.detail.error).toBe("invalid_api_key");
      }
    }
  });

  it("public endpoints never ask for a key", async () => {
    for (const [method, path] of PUBLIC) {
      const r = await call(path, { method, ...(method === "POST" ? { json: {} } : {}) });
      expect(r.status, `${method} ${path}`).not.toBe(401);
    }
  });

  it("a valid key passes auth: GET /v1/usage answers 200 (SPEC.md section 5, item 7)", async () => {
    const { key } = await newKey("pro");
    const r = await call("/v1/usage", { key });
    expect(r.status).toBe(200);
  });
});
