import type { ApiKeyRecord } from "../auth/keys";
import { db, type Db } from "../db/client";
import type { Env } from "../env";
import { PLANS, type Plan } from "../plans/plans";
import type { Sealed } from "../proof/receipt";
import type { FetchLike, KeylessUpstream } from "../providers/types";
import { sandboxUpstream } from "../sandbox/upstream";
import { signerFrom, type Signer } from "../shared/signing";
import { bufferedReceipt, bufferKeeper, callRecorder, writeRecords, type Keep, type Recorder } from "./record";
import type { UsageBuffer } from "./usage-buffer";

/**
 * What the model-call service needs, handed in explicitly: no Hono below this line. An edge (a REST
 * route, an MCP tool) builds it once per request with `callDeps`.
 */
export interface CallDeps {
  env: Env;
  db: Db;
  signer: Signer | null;
  /** Upstream fetch for providers that have an API key (tests inject one). */
  fetch?: FetchLike;
  /** Where providers without a key are reached: the sandbox upstream, or null. */
  keyless: KeylessUpstream | null;
  key: ApiKeyRecord;
  plan: Plan;
  /** The client's signal: no new attempt once it aborts. */
  signal?: AbortSignal;
  /** Takes every call's usage row and receipt off the request path. */
  record: Recorder;
  /** Takes a receipt that bills nothing itself (an orchestration's, a code run's) off the request path, the same way. */
  keepReceipt(sealed: Sealed): void;
}

export interface EdgeRequest {
  env: Env;
  key: ApiKeyRecord;
  /** The raw `x-sandbox-fault` header: obeyed by the sandbox only. */
  faults: string | null;
  signal?: AbortSignal;
  waitUntil(p: Promise<unknown>): void;
}

/** The sandbox serves keyless providers only when SANDBOX_UPSTREAM is "on" (never in production). */
export const keylessUpstream = (env: Env, faults: string | null): KeylessUpstream | null =>
  env.SANDBOX_UPSTREAM === "on" ? sandboxUpstream(faults) : null;

/**
 * How many write-behind buffers share the service's records. Not one per key: a key's plan caps it
 * at 1,000 calls a minute, so a per-key buffer could never gather 50 records in its 250 ms window.
 * Not one for the service: a single object would take every isolate's sends (docs/storage.md).
 * Raising it is safe: a buffer no isolate picks any more still flushes what it holds.
 */
export const USAGE_BUFFER_SHARDS = 4;
let shard: string | undefined;

/** This isolate's write-behind buffer: one of USAGE_BUFFER_SHARDS, picked at random once per isolate. */
export function isolateBuffer(env: Pick<Env, "USAGE_BUFFER">): DurableObjectStub<UsageBuffer> {
  // Picked on first use: Workers give no randomness outside a request.
  shard ??= `usage-${Math.floor(Math.random() * USAGE_BUFFER_SHARDS)}`;
  return env.USAGE_BUFFER.getByName(shard);
}

/**
 * The request's way into the isolate's write-behind buffer (docs/storage.md): sends under the
 * request's waitUntil, with a stub made in this request; D1 directly when the buffer is unreachable.
 */
export function keeper(env: Env, waitUntil: (p: Promise<unknown>) => void): Keep {
  return bufferKeeper(
    (records) => isolateBuffer(env).append(records),
    (records) => writeRecords(db(env.DB), signerFrom(env.LEDGER_SIGNING_KEY), records),
    waitUntil,
  );
}

export function callDeps(req: EdgeRequest): CallDeps {
  const database = db(req.env.DB);
  const signer = signerFrom(req.env.LEDGER_SIGNING_KEY);
  const keep = keeper(req.env, req.waitUntil);
  return {
    env: req.env,
    db: database,
    signer,
    keyless: keylessUpstream(req.env, req.faults),
    key: req.key,
    plan: PLANS[req.key.plan],
    signal: req.signal,
    record: callRecorder(keep),
    keepReceipt: (sealed) => keep(bufferedReceipt(req.key.ownerId, sealed)),
  };
}
