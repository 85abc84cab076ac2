import { env } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE, call, eventually, newKey } from "../helpers";

/**
 * Every call that reached an upstream is billed and proven, however its stream ends: finished,
 * failed after it began, or abandoned by the client (issue 8; issue 16 found 41 of 50 abandoned
 * streams unbilled before the model-call service recorded them in the stream's `finally`).
 */
const PROMPT = [{ role: "user", content: "Explain how a hash chain makes tampering evident, in detail." }];

function streamRequest(key: string, fault: string, model = "gpt-5-nano") {
  return exports.default.fetch(
    new Request(`${BASE}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "x-sandbox-fault": fault },
      body: JSON.stringify({ model, stream: true, messages: PROMPT, max_tokens: 400 }),
    }),
  );
}

const usageRow = (requestId: string) =>
  env.DB.prepare("SELECT prompt_tokens, completion_tokens, cost_nanos, model FROM usage_events WHERE request_id = ?")
    .bind(requestId)
    .first<{ prompt_tokens: number; completion_tokens: number; cost_nanos: number; model: string }>();

async function fullCompletionTokens(key: string) {
  const r = await call("/v1/chat/completions", { key, json: { model: "gpt-5-nano", messages: PROMPT, max_tokens: 400 } });
  return r.json.usage.completion_tokens as number;
}

describe("calls: usage and receipts for every stream", () => {
  it("a stream the client abandons after its first content is recorded with the tokens produced so far", async () => {
    const { key } = await newKey();
    const full = await fullCompletionTokens(key);
    const res = await streamRequest(key, "openai=drip:30");
    const requestId = res.headers.get("x-request-id")!;
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let seen = "";
    while (!seen.includes('"content":"') || seen.split('"content":"').length < 3) seen += decoder.decode((await reader.read()).value);
    await reader.cancel();

    const row = await eventually(() => usageRow(requestId));
    expect(row.model).toBe("gpt-5-nano");
    expect(row.completion_tokens).toBeGreaterThan(0);
    expect(row.completion_tokens).toBeLessThan(full);
    expect(row.cost_nanos).toBe(row.prompt_tokens * 50 + row.completion_tokens * 400);
    const proof = await eventually(async () => {
      const r = await call(`/v1/proof/${requestId}`);
      return r.status === 200 ? r.json : undefined;
    });
    expect(proof).toMatchObject({ valid: true, receipt: { usage: { completion_tokens: row.completion_tokens }, model: "gpt-5-nano" } });
  });

  it("a stream whose upstream fails after it began ends with an error event, and is recorded", async () => {
    const { key } = await newKey();
    const res = await streamRequest(key, "openai=cut");
    const requestId = res.headers.get("x-request-id")!;
    const text = await res.text();
    expect(text).toContain("upstream_stream_error");
    expect(text).not.toContain("[DONE]");
    const row = await eventually(() => usageRow(requestId));
    expect(row.completion_tokens).toBeGreaterThan(0);
    await eventually(async () => (await call(`/v1/proof/${requestId}`)).status === 200);
  });

  it("under concurrency: 20 streams abandoned after their first chunk leave 20 usage rows and 20 receipts", async () => {
    const { key } = await newKey();
    const ids = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await streamRequest(key, "openai=drip:25");
        const reader = res.body!.getReader();
        await reader.read();
        await reader.read();
        await reader.cancel();
        return res.headers.get("x-request-id")!;
      }),
    );
    const counted = await eventually(async () => {
      const usage = await env.DB.prepare(`SELECT count(*) AS n FROM usage_events WHERE request_id IN (${ids.map(() => "?").join(",")})`).bind(...ids).first<{ n: number }>();
      const receipts = await env.DB.prepare(`SELECT count(*) AS n FROM proof_receipts WHERE request_id IN (${ids.map(() => "?").join(",")})`).bind(...ids).first<{ n: number }>();
      return usage!.n === 20 && receipts!.n === 20 ? { usage: usage!.n, receipts: receipts!.n } : undefined;
    }, 10_000);
    expect(counted).toEqual({ usage: 20, receipts: 20 });
  });
});
