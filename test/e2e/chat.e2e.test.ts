import OpenAI from "openai";
import { describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");
const client = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: inject("devKey") });

describe("the official openai SDK against npm run dev", () => {
  it("chat.completions.create, with svc read from the raw response", async () => {
    const request = { model: "auto", messages: [{ role: "user" as const, content: "Write a Python function that reverses a string." }] };
    const { data, response } = await client.chat.completions.create(request).withResponse();
    expect(data.id).toMatch(/^svc-/);
    expect(data.choices[0]!.message.content!.length).toBeGreaterThan(0);
    expect(data.usage!.total_tokens).toBeGreaterThan(0);
    expect(response.headers.get("x-svc-overhead-us")).toMatch(/^\d+$/);
    // The SDK keeps fields it does not know; the raw body has the same svc block.
    expect((data as unknown as { svc: { routing: unknown } }).svc.routing).toBeDefined();

    const rawResponse = await client.chat.completions.create(request).asResponse();
    const raw = (await rawResponse.json()) as { svc: Record<string, any> };
    expect(raw.svc.routing.signals_detected.code).toBe(true);
    expect(raw.svc.routing.model).toBe((data as unknown as { svc: { routing: { model: string } } }).svc.routing.model);
    expect(raw.svc.proof.verifiable).toBe(true);

    // The receipt verifies through the public endpoint.
    let verified: { valid?: boolean } = {};
    for (let i = 0; i < 40 && verified.valid === undefined; i++) {
      const r = await fetch(`${baseUrl}/v1/proof/${raw.svc.proof.request_id}`);
      if (r.ok) verified = await r.json();
      else await new Promise((res) => setTimeout(res, 50));
    }
    expect(verified.valid).toBe(true);
  });

  it("streams, with svc on the finish chunk and no usage chunk unless asked for", async () => {
    const stream = await client.chat.completions.create({
      model: "claude-haiku-4-5",
      stream: true,
      messages: [{ role: "user", content: "Count from one to five." }],
    });
    let text = "";
    let last: any;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      last = chunk;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(last.choices[0].finish_reason).toBe("stop");
    expect(last.usage).toBeUndefined();
    expect(last.svc.routing).toMatchObject({ mode: "direct", provider: "anthropic" });
  });

  it("streams with stream_options.include_usage as the SDK sends it", async () => {
    const stream = await client.chat.completions.create({
      model: "gpt-5-nano",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "Say hello." }],
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage!.completion_tokens).toBeGreaterThan(0);
    expect((chunks.at(-1) as unknown as { svc: { routing: unknown } }).svc.routing).toBeDefined();
  });

  it("raises the SDK's own errors for our error shapes", async () => {
    const bad = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: "svc_sk_wrong", maxRetries: 0 });
    await expect(bad.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "hi" }] })).rejects.toMatchObject({ status: 401 });
    await expect(client.chat.completions.create({ model: "auto", messages: [], temperature: 3 })).rejects.toMatchObject({ status: 400 });
  });

  it("lists models through the SDK", async () => {
    const ids = [];
    for await (const m of client.models.list()) ids.push(m.id);
    expect(ids).toHaveLength(27);
  });
});
