import { env } from "cloudflare:test";
import { expect } from "vitest";
import { call, eventually } from "../helpers";

export const orchestrateCall = (key: string, json: unknown, headers: Record<string, string> = {}) => call("/v2/orchestrate", { key, json, headers });
export const codeCall = (key: string, json: unknown, headers: Record<string, string> = {}) => call("/v2/code", { key, json, headers });

export const ask = (content: string) => [{ role: "user", content }];

/** Nano-dollars of a dollar figure with at most nine decimals. */
export const nanos = (usd: number) => Math.round(usd * 1e9);

/** Every usage row of the request, once they have landed (waitUntil writes them after the response). */
export async function usageRows(requestId: string, count: number) {
  return eventually(async () => {
    const { results } = await env.DB.prepare("SELECT * FROM usage_events WHERE request_id = ? ORDER BY created_at").bind(requestId).all<any>();
    return results.length >= count ? results : undefined;
  });
}

/** The stage results of a response, flattened. */
export const results = (body: any): any[] => body.svc.stages.flatMap((s: any) => s.results);

/** Checks that hold for every orchestration response: shape, sums and ranges. */
export async function expectConsistent(body: any) {
  expect(body.object).toBe("orchestration");
  expect(body.id).toMatch(/^svc-/);
  expect(body.choices).toHaveLength(1);
  expect(body.choices[0]).toMatchObject({ index: 0, message: { role: "assistant" }, finish_reason: "stop" });
  expect(body.choices[0].message.content.length).toBeGreaterThan(0);
  const o = body.svc.orchestration;
  expect(o.confidence).toBeGreaterThanOrEqual(0);
  expect(o.confidence).toBeLessThanOrEqual(1);
  expect(o.agreement).toBeGreaterThanOrEqual(0);
  expect(o.agreement).toBeLessThanOrEqual(1);
  expect(body.svc.cost.estimated).toBe(true);
  const calls = results(body);
  const ok = calls.filter((r) => r.ok);
  for (const r of calls) {
    expect(Object.keys(r).sort()).toEqual(expect.arrayContaining(["cost_usd", "confidence", "in_tokens", "latency_ms", "model", "ok", "out_tokens", "role"]));
    expect(r).not.toHaveProperty("content");
  }
  // The response's totals are the sums of its calls, and the usage rows are those calls.
  const sumNanos = ok.reduce((s, r) => s + nanos(r.cost_usd), 0);
  expect(nanos(body.svc.cost.total_usd)).toBe(sumNanos);
  expect(body.usage.prompt_tokens).toBe(ok.reduce((s, r) => s + r.in_tokens, 0));
  expect(body.usage.completion_tokens).toBe(ok.reduce((s, r) => s + r.out_tokens, 0));
  expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
  const rows = await usageRows(body.svc.proof.request_id, ok.length);
  expect(rows).toHaveLength(ok.length);
  expect(rows.reduce((s: number, r: any) => s + r.cost_nanos, 0)).toBe(sumNanos);
  expect(new Set(rows.map((r: any) => r.model))).toEqual(new Set(o.models_used));
}
