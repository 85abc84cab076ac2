/**
 * The storage meter in workerd, through the Worker's real default export (src/index.ts), with the
 * real D1, KV and Durable Object bindings: off, it leaves no trace; on, a warm chat call reports
 * the storage calls it made before its Response was returned, and the meter's route reports the
 * isolate's totals on and off the request path.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { REVOCATION_CHECK_MS } from "../../src/auth/key-cache";
import worker from "../../src/index";
import { parseCounts, STORAGE_METER_HEADER, STORAGE_METER_PATH, zeroCounts, type MeterTotals } from "../../src/shared/storage-meter";
import { BASE, newKey } from "../helpers";

const metered = { ...env, STORAGE_METER: "on" };

async function send(e: typeof env, path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(BASE + path, init), e, ctx);
  const text = await res.text();
  // The waitUntil work (usage and receipt, lease returns) finishes before the next request.
  await waitOnExecutionContext(ctx);
  return { res, text };
}

const chat = (key: string) => ({
  method: "POST",
  headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  body: JSON.stringify({ model: "auto", messages: [{ role: "user", content: "Say hello." }] }),
});

const totals = async () => JSON.parse((await send(metered, STORAGE_METER_PATH)).text) as MeterTotals;
const minus = (a: Record<string, number>, b: Record<string, number>) => Object.fromEntries(Object.entries(a).map(([k, v]) => [k, v - b[k]!]));

describe("storage meter", () => {
  it("is off unless STORAGE_METER is on: no header, and its route does not exist", async () => {
    const { key } = await newKey("pro");
    const { res } = await send(env, "/v1/chat/completions", chat(key));
    expect(res.status).toBe(200);
    expect(res.headers.has(STORAGE_METER_HEADER)).toBe(false);
    expect((await send(env, STORAGE_METER_PATH)).res.status).toBe(404);
  });

  it("counts a warm chat call's storage calls on the request path, and the rest off it", async () => {
    const { key } = await newKey("pro");
    // Let the isolate's view of the revocation epoch age past REVOCATION_CHECK_MS, so the cold call
    // re-reads it and the warm call right after does not (src/auth/key-cache.ts).
    await new Promise((r) => setTimeout(r, REVOCATION_CHECK_MS + 100));
    // Cold: the epoch and the key are read from D1, the key's limiter object grants a lease.
    const cold = await send(metered, "/v1/chat/completions", chat(key));
    expect(cold.res.status).toBe(200);
    expect(parseCounts(cold.res.headers.get(STORAGE_METER_HEADER)!)).toEqual({ ...zeroCounts(), d1: 2, do: 1 });

    // The cold call's one-admission lease was spent, and the next leased ahead off the path (a light
    // key on a plan of RPM >= 100, src/limits/lease.ts): the second call waits for nothing.
    const second = await send(metered, "/v1/chat/completions", chat(key));
    expect(parseCounts(second.res.headers.get(STORAGE_METER_HEADER)!)).toEqual(zeroCounts());

    const before = await totals();
    const warm = await send(metered, "/v1/chat/completions", chat(key));
    expect(warm.res.status, warm.text).toBe(200);
    expect(JSON.parse(warm.text).choices[0].message.content).toBeTruthy();
    const onPath = parseCounts(warm.res.headers.get(STORAGE_METER_HEADER)!);
    const after = await totals();

    // Warm: the key from the isolate's cache, the admission from the lease held: no storage call
    // before the response. What the code does today; update with it.
    expect(onPath).toEqual(zeroCounts());
    expect(after.requests - before.requests).toBe(1);
    expect(minus(after.onPath, before.onPath)).toEqual(onPath);
    // After the response: the call's record handed to the write-behind buffer (one Durable Object
    // call under waitUntil; the buffer writes D1 later, from inside, src/calls/usage-buffer.ts). No
    // limiter call: the second call spent its lease and leased two ahead (the key now has a rate),
    // and with one of them still held this call is not near the end of its lease (AHEAD_MS,
    // src/limits/lease.ts).
    expect(minus(after.offPath, before.offPath)).toEqual({ ...zeroCounts(), do: 1 });
  });
});
