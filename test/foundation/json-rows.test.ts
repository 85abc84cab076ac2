import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { db } from "../../src/db/client";
import { insertJsonRows, MAX_JSON_UNITS } from "../../src/db/json-rows";
import { proofReceipts, usageEvents } from "../../src/db/schema";

/** Rows inserted through one JSON parameter (src/db/json-rows.ts) read back as Drizzle wrote them. */
const usage = (i: number, extra: Partial<typeof usageEvents.$inferInsert> = {}) => ({
  id: `use_json_${i}`,
  ownerId: "own_json",
  keyId: "key_json",
  requestId: `req_json_${i}`,
  endpoint: "chat",
  model: "gpt-5-mini",
  provider: "openai",
  mode: "balanced",
  promptTokens: i,
  completionTokens: 2 * i,
  totalTokens: 3 * i,
  costNanos: 1_000_000_007 * i,
  latencyMs: 12,
  createdAt: 1_790_000_000_000 + i,
  ...extra,
});

const run = (rows: Record<string, unknown>[], table: typeof usageEvents | typeof proofReceipts = usageEvents) => env.DB.batch(insertJsonRows(env.DB, table, rows));

describe("insertJsonRows: many rows as one JSON-bound statement", () => {
  it("stores every column with the type Drizzle would have written (booleans as 0/1, defaults, large integers, text that looks like JSON)", async () => {
    await run([usage(1, { fallback: true }), usage(2)]);
    await db(env.DB).insert(usageEvents).values(usage(3, { fallback: true }));
    const rows = await env.DB.prepare("SELECT *, typeof(cost_nanos) AS t_cost, typeof(fallback) AS t_fb, typeof(model) AS t_model FROM usage_events WHERE owner_id = 'own_json' ORDER BY id").all<Record<string, unknown>>();
    expect(rows.results.map((r) => [r.id, r.fallback, r.t_fb, r.cost_nanos, r.t_cost, r.t_model])).toEqual([
      ["use_json_1", 1, "integer", 1_000_000_007, "integer", "text"],
      ["use_json_2", 0, "integer", 2_000_000_014, "integer", "text"],
      ["use_json_3", 1, "integer", 3_000_000_021, "integer", "text"],
    ]);
    const read = await db(env.DB).query.usageEvents.findFirst({ where: (u, { eq }) => eq(u.id, "use_json_1") });
    expect(read).toEqual({ ...usage(1), fallback: true });

    const receipt = { requestId: "req_json_r", ownerId: "own_json", receipt: '{"a":"ü \\" 漢","n":[1,2]}', proofHash: "sha256:00", signature: null, signingKeyId: null, createdAt: 5 };
    await run([receipt], proofReceipts);
    expect(await db(env.DB).query.proofReceipts.findFirst({ where: (r, { eq }) => eq(r.requestId, "req_json_r") })).toEqual(receipt);
  });

  it("skips rows whose key exists and writes the rest", async () => {
    await run([usage(10, { model: "first" })]);
    await run([usage(10, { model: "second" }), usage(11)]);
    const rows = await env.DB.prepare("SELECT id, model FROM usage_events WHERE id IN ('use_json_10', 'use_json_11') ORDER BY id").all();
    expect(rows.results).toEqual([
      { id: "use_json_10", model: "first" },
      { id: "use_json_11", model: "gpt-5-mini" },
    ]);
  });

  it(`cuts the rows into statements of at most ${MAX_JSON_UNITS} JSON units, all of them written`, async () => {
    const big = "x".repeat(40_000);
    const rows = Array.from({ length: 20 }, (_, i) => usage(100 + i, { endpoint: big }));
    const statements = insertJsonRows(env.DB, usageEvents, rows);
    expect(statements.length).toBe(3);
    await run(rows);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM usage_events WHERE id LIKE 'use_json_1__' AND length(endpoint) = 40000").first<{ n: number }>();
    expect(n!.n).toBe(20);
  });
});
