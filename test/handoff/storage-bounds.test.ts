import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { D1_MAX_ROW_BYTES } from "../../src/shared/bounds";
import { call, newKey } from "../helpers";

/**
 * Issue 18: production D1 rejects rows over 1,000,000 bytes (local D1 does not), so every stored field a
 * client fills is bounded, and a request over a bound is a 400 naming the field and the limit.
 * U+0001 is the costliest character: 1 byte raw, 6 bytes in JSON (`\u0001`).
 */
const worst = (n: number) => "\u0001".repeat(n);
const bytes = (v: unknown) => (typeof v === "string" ? new TextEncoder().encode(v).length : 8);

const fullest = {
  objective: worst(500),
  from_tool: worst(200),
  to_tool: worst(200),
  files_touched: Array.from({ length: 10 }, (_, i) => `${i}${worst(999)}`),
  constraints: Array.from({ length: 5 }, (_, i) => `${i}${worst(1999)}`),
  risks: Array.from({ length: 4 }, (_, i) => ({ id: `${i}${worst(199)}`, description: worst(2000) })),
  validation: Array.from({ length: 4 }, (_, i) => ({ id: `${i}${worst(199)}`, description: worst(2000) })),
  recommended_next_action: worst(2000),
  est_cost: 123456.789,
};

describe("storage bounds", () => {
  it("the fullest handoff the schema admits is stored as a row well under D1's limit, subject included", async () => {
    const { key } = await newKey();
    const r = await call("/v1/handoff", { key, json: { workspace_id: "ws-big", ...fullest } });
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    const row = (await env.DB.prepare("SELECT * FROM handoffs WHERE id = ?").bind(r.json.id).first<Record<string, unknown>>())!;
    const size = Object.values(row).reduce<number>((n, v) => n + bytes(v), 0);
    console.log(`FIGURES fullest handoff row: ${size} bytes (subject ${bytes(row.subject)})`);
    expect(size).toBeGreaterThan(400_000);
    expect(size).toBeLessThan(0.6 * D1_MAX_ROW_BYTES);
    expect((await call("/v1/handoff/chain/ws-big", { key })).json.verification.ok).toBe(true);
  });

  it.each([
    ["files_touched", [...fullest.files_touched, `x${worst(999)}`]],
    ["constraints", [...fullest.constraints, worst(2000)]],
    ["risks", [...fullest.risks, { id: `r${worst(199)}`, description: worst(2000) }]],
    ["validation", [...fullest.validation, { id: `v${worst(199)}`, description: worst(2000) }]],
  ])("a handoff whose %s is over 64 KiB of JSON is a 400 naming the field and the limit", async (field, value) => {
    const { key } = await newKey();
    const r = await call("/v1/handoff", { key, json: { workspace_id: "ws-big", objective: "o", [field]: value } });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("invalid_request");
    expect(r.json.issues).toEqual([{ path: field, message: "at most 65536 bytes as stored JSON (UTF-8)" }]);
    expect(r.json.message).toContain(`${field}: at most 65536 bytes`);
  });

  it("a policy check's audit payload is bounded: its lists and its context", async () => {
    const { key } = await newKey();
    const base = { workspace_id: "ws-big", action: "edit a file" };
    for (const [field, value, limit] of [
      ["files_affected", Array.from({ length: 70 }, () => "f".repeat(1000)), 65_536],
      ["commands", Array.from({ length: 20 }, () => "c".repeat(4000)), 65_536],
      ["context", { note: "n".repeat(17_000) }, 16_384],
    ] as const) {
      const r = await call("/v1/policy/check", { key, json: { ...base, [field]: value } });
      expect(r.status, `${field}: ${r.text.slice(0, 200)}`).toBe(400);
      expect(r.json.issues, JSON.stringify(r.json.issues).slice(0, 300)).toEqual([{ path: field, message: `at most ${limit} bytes as stored JSON (UTF-8)` }]);
    }
    const fine = await call("/v1/policy/check", { key, json: { ...base, files_affected: Array.from({ length: 60 }, () => "f".repeat(1000)), context: { note: "n".repeat(16_000) } } });
    expect(fine.status, fine.text.slice(0, 200)).toBe(200);
  });

  it("a stored manifest is bounded: each list at most 64 KiB of JSON", async () => {
    const { key } = await newKey();
    const r = await call("/v1/workspace/readiness", { key, json: { workspace_id: "ws-big", protected_paths: Array.from({ length: 500 }, (_, i) => `${String(i).padStart(3, "0")}${worst(497)}`) } });
    expect(r.status).toBe(400);
    expect(r.json.issues).toEqual([{ path: "protected_paths", message: "at most 65536 bytes as stored JSON (UTF-8)" }]);
  });
});
