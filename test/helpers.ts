import { env } from "cloudflare:test";
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
