/**
 * The storage meter: counts the storage calls (D1, KV, Durable Object stubs, Queues, R2) the
 * Worker makes, split into those that completed before its fetch handler returned the Response (on the
 * request path) and the rest (off the path: waitUntil work, stream ends).
 *
 * It exists for the benchmark (docs/bench.md) and is on only where the `STORAGE_METER` var is
 * "on", which only the benchmark's workerd sets. Off, the handler is called as it is, with the
 * env as it is: one string comparison a request, and nothing exists at STORAGE_METER_PATH.
 *
 * On, every request gets its own counting view of the env (proxies over the bindings, built
 * generically from what each binding looks like, so a binding added later is counted without
 * touching this file), the response carries its on-path counts in STORAGE_METER_HEADER, and
 * GET STORAGE_METER_PATH answers the isolate's totals so far, on and off the path, and what the
 * Durable Objects exported through `meteredDurableObject` called through their own env (a
 * write-behind buffer's D1 batch): locally they run in the Worker's isolate. A call is one round trip: a D1 statement run, a D1 batch or exec; a KV get,
 * put, delete or list; any method call on a Durable Object stub (fetch or RPC); a queue send.
 */
export const STORAGE_METER_HEADER = "x-svc-storage-calls";
export const STORAGE_METER_PATH = "/__storage-meter";

export const STORAGE_KINDS = ["d1", "kv", "do", "queue", "r2"] as const;
export type StorageKind = (typeof STORAGE_KINDS)[number];
export type StorageCounts = Record<StorageKind, number>;

export const zeroCounts = (): StorageCounts => ({ d1: 0, kv: 0, do: 0, queue: 0, r2: 0 });

export interface MeterTotals {
  /** Requests the metered fetch handler answered (the meter's own route excepted). */
  requests: number;
  onPath: StorageCounts;
  offPath: StorageCounts;
  /**
   * Calls Durable Objects made through their own env (classes exported through
   * `meteredDurableObject`): a write-behind buffer's D1 batches, say. Their own storage (ctx.storage)
   * is not counted: it lives with the object.
   */
  inDurableObjects: StorageCounts;
}

/** The isolate's totals (locally, workerd runs one isolate per Worker: the bench reads them all). */
const totals: MeterTotals = { requests: 0, onPath: zeroCounts(), offPath: zeroCounts(), inDurableObjects: zeroCounts() };

export const meterEnabled = (env: { STORAGE_METER?: string }) => env.STORAGE_METER === "on";

/** `d1=0,kv=0,do=1,queue=0,r2=0`, the header's format. */
export function formatCounts(c: StorageCounts): string {
  return STORAGE_KINDS.map((k) => `${k}=${c[k]}`).join(",");
}

export function parseCounts(header: string): StorageCounts {
  const c = zeroCounts();
  for (const part of header.split(",")) {
    const [k, v] = part.split("=");
    if ((STORAGE_KINDS as readonly string[]).includes(k!) && /^\d+$/.test(v ?? "")) c[k as StorageKind] = Number(v);
  }
  return c;
}

/** Called with each storage call's kind and its result (a promise for every async binding method). */
type Count = (kind: StorageKind, result: unknown) => void;
type Fn = (...args: unknown[]) => unknown;
const isFn = (v: unknown): v is Fn => typeof v === "function";
const has = (o: object, ...names: string[]) => names.every((n) => isFn((o as Record<string, unknown>)[n]));

/** The real object behind a proxy of ours, for calls (D1's batch) that need the runtime's own objects. */
const unwrapped = new WeakMap<object, object>();
const unwrap = <T>(v: T): T => (typeof v === "object" && v !== null ? ((unwrapped.get(v) as T | undefined) ?? v) : v);

/**
 * A proxy over `target` whose methods named in `calls` count one `kind` call each, and whose
 * methods named in `wraps` return their result wrapped by `wrap` (a statement from `prepare`).
 */
function methodProxy<T extends object>(target: T, kind: StorageKind, count: Count, calls: ReadonlySet<string>, wraps: Record<string, (v: unknown) => unknown> = {}): T {
  const proxy = new Proxy(target, {
    get(t, prop) {
      const value = Reflect.get(t, prop, t) as unknown;
      if (typeof prop !== "string" || !isFn(value)) return value;
      if (calls.has(prop)) {
        return (...args: unknown[]) => {
          const result = Reflect.apply(value, t, prop === "batch" ? args.map((a) => (Array.isArray(a) ? a.map(unwrap) : a)) : args);
          count(kind, result);
          return result;
        };
      }
      const wrap = wraps[prop];
      if (wrap) return (...args: unknown[]) => wrap(Reflect.apply(value, t, args));
      return (...args: unknown[]) => Reflect.apply(value, t, args);
    },
  });
  unwrapped.set(proxy, target);
  return proxy;
}

const D1_STATEMENT_CALLS = new Set(["first", "all", "run", "raw"]);
const D1_CALLS = new Set(["batch", "exec"]);
const KV_CALLS = new Set(["get", "getWithMetadata", "put", "delete", "list"]);
const QUEUE_CALLS = new Set(["send", "sendBatch"]);
const R2_CALLS = new Set(["head", "get", "put", "delete", "list", "createMultipartUpload"]);

function d1Statement(stmt: object, count: Count): object {
  return methodProxy(stmt, "d1", count, D1_STATEMENT_CALLS, { bind: (s) => d1Statement(s as object, count) });
}

function d1Database(db: object, count: Count): object {
  const prepare = (s: unknown) => d1Statement(s as object, count);
  return methodProxy(db, "d1", count, D1_CALLS, { prepare, withSession: (s) => d1Database(s as object, count) });
}

/** Any method of a stub is a round trip to the object (fetch, or an RPC method). */
function durableObjectStub(stub: object, count: Count): object {
  const proxy = new Proxy(stub, {
    get(t, prop) {
      const value = Reflect.get(t, prop, t) as unknown;
      // `then` is probed by `await`; symbols (dispose) and dup are not calls.
      if (typeof prop !== "string" || prop === "then" || prop === "dup" || !isFn(value)) return value;
      return (...args: unknown[]) => {
        // Reflect.apply: on an RPC stub, `value.apply` would be a call to a remote method "apply".
        const result = Reflect.apply(value, t, args);
        count("do", result);
        return result;
      };
    },
  });
  unwrapped.set(proxy, stub);
  return proxy;
}

function durableObjectNamespace(ns: object, count: Count): object {
  const stub = (s: unknown) => durableObjectStub(s as object, count);
  return methodProxy(ns, "do", count, new Set(), { get: stub, getByName: stub, jurisdiction: (n) => durableObjectNamespace(n as object, count) });
}

/** One binding, wrapped by what it looks like; anything that is not storage is returned as it is. */
function meterBinding(value: unknown, count: Count): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (has(value, "prepare", "batch", "exec")) return d1Database(value, count);
  if (has(value, "idFromName", "get")) return durableObjectNamespace(value, count);
  if (has(value, "getWithMetadata", "put", "list")) return methodProxy(value, "kv", count, KV_CALLS);
  if (has(value, "send", "sendBatch")) return methodProxy(value, "queue", count, QUEUE_CALLS);
  if (has(value, "head", "put", "createMultipartUpload")) return methodProxy(value, "r2", count, R2_CALLS);
  return value;
}

/** A copy of `env` whose storage bindings count every call through `count`. */
export function meterEnv<E extends object>(env: E, count: Count): E {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(env)) out[name] = meterBinding(value, count);
  return out as E;
}

export function meterTotals(): MeterTotals {
  return structuredClone(totals);
}

/** Generic in the context so this module needs no Workers types (the bench imports it in Node). */
type FetchHandler<E, C> = (request: Request, env: E, ctx: C) => Response | Promise<Response>;

/**
 * The Worker's fetch handler, metered when `env.STORAGE_METER` is "on" and untouched otherwise.
 * A call is on the request path if it completed before the handler returned its Response (so
 * the response could have waited for it); a call still running then, or issued later (waitUntil
 * work, the end of a stream), or started under `notAwaited`, is off the path. Issue time alone would misplace a waitUntil write
 * issued a microtask before the handler returns.
 */
export function withStorageMeter<E extends { STORAGE_METER?: string }, C>(fetch: FetchHandler<E, C>): FetchHandler<E, C> {
  return (request, env, ctx) => (meterEnabled(env) ? metered(fetch, request, env, ctx) : fetch(request, env, ctx));
}

/**
 * Above zero while code starts a call that no request waits for (a rate-limit lease fetched
 * ahead, a lease's rest given back, the revocation epoch re-read in the background): such a call
 * counts off the path even when it happens to complete before the Response is returned. The start
 * is synchronous, so no other request's call can fall inside it. The meter counts calls, not waits:
 * a request that waits for a lease another started (limits/lease.ts's single flight) adds no call;
 * `limiterCalls.waited` there counts those waits.
 */
let unawaited = 0;
export function notAwaited<T>(start: () => T): T {
  unawaited++;
  try {
    return start();
  } finally {
    unawaited--;
  }
}

const isThenable = (v: unknown): v is PromiseLike<unknown> => (typeof v === "object" || typeof v === "function") && v !== null && isFn((v as { then?: unknown }).then);

async function metered<E extends object, C>(fetch: FetchHandler<E, C>, request: Request, env: E, ctx: C): Promise<Response> {
  if (new URL(request.url).pathname === STORAGE_METER_PATH && request.method === "GET") return Response.json(meterTotals());
  const onPath = zeroCounts();
  let returned = false;
  const settle = (kind: StorageKind) => {
    if (returned) totals.offPath[kind]++;
    else {
      onPath[kind]++;
      totals.onPath[kind]++;
    }
  };
  const count: Count = (kind, result) => {
    if (unawaited > 0) totals.offPath[kind]++;
    else if (returned || !isThenable(result)) settle(kind);
    else result.then(() => settle(kind), () => settle(kind));
  };
  const res = await fetch(request, meterEnv(env, count), ctx);
  returned = true;
  totals.requests++;
  // A fetched Response's headers are immutable: answer a copy (same body stream, not read here).
  const out = new Response(res.body, res);
  out.headers.set(STORAGE_METER_HEADER, formatCounts(onPath));
  return out;
}

/**
 * A Durable Object class whose env is metered when `STORAGE_METER` is "on" (its calls count in
 * `inDurableObjects`), the class itself otherwise: the check runs once per object, not per request.
 */
export function meteredDurableObject<C extends new (ctx: never, env: never) => object>(Base: C): C {
  const count: Count = (kind) => totals.inDurableObjects[kind]++;
  type Env = { STORAGE_METER?: string };
  const Metered = class extends (Base as unknown as new (ctx: unknown, env: Env) => object) {
    constructor(ctx: unknown, env: Env) {
      super(ctx, meterEnabled(env) ? meterEnv(env, count) : env);
    }
  };
  return Metered as unknown as C;
}
