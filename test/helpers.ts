import { env, listDurableObjectIds, runDurableObjectAlarm } from "cloudflare:test";
import { exports } from "cloudflare:workers";
import { createKey } from "../src/auth/keys";
import { db } from "../src/db/client";
import type { PlanId } from "../src/plans/plans";

export const BASE = "https://svc.test";

export async function newKey(plan: PlanId = "pro", owner?: string) {
  return createKey(db(env.DB), plan, owner);
}

export interface CallInit {
  method?: string;
  key?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

/** One request through the Worker's real fetch handler; the body is always consumed. */
export async function call(path: string, init: CallInit = {}) {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("authorization", `Bearer ${init.key}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  const res = await exports.default.fetch(new Request(BASE + path, { method: init.method ?? (body ? "POST" : "GET"), headers, body }));
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Polls until `check` returns a value (work finished in waitUntil lands a moment after the response). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Runs every write-behind buffer's pending flush now (docs/storage.md; the alarm would within 250 ms). */
export async function flushRecords(): Promise<void> {
  for (const id of await listDurableObjectIds(env.USAGE_BUFFER)) await runDurableObjectAlarm(env.USAGE_BUFFER.get(id));
}

/**
 * Polls `check` against D1 until it holds, flushing the buffers before each look: a call's usage row
 * and receipt reach D1 through its key's buffer, and may still be on their way to it when the
 * response arrives. For tests that read usage rows or receipts straight from D1 after a call.
 */
export function recorded<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 5000): Promise<T> {
  return eventually(async () => {
    await flushRecords();
    return check();
  }, timeoutMs);
}
