import type { ApiKeyRecord } from "../auth/keys";
import { db, type Db } from "../db/client";
import type { Env } from "../env";
import { PLANS, type Plan } from "../plans/plans";
import type { FetchLike, KeylessUpstream } from "../providers/types";
import { sandboxUpstream } from "../sandbox/upstream";
import { signerFrom, type Signer } from "../shared/signing";
import { bufferRecorder, writeRecords, type Recorder } from "./record";
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

/** The one way to reach a key's write-behind buffer: one object per API key, named by the key id. */
export function bufferFor(env: Pick<Env, "USAGE_BUFFER">, keyId: string): DurableObjectStub<UsageBuffer> {
  return env.USAGE_BUFFER.getByName(keyId);
}

export function callDeps(req: EdgeRequest): CallDeps {
  const database = db(req.env.DB);
  const signer = signerFrom(req.env.LEDGER_SIGNING_KEY);
  return {
    env: req.env,
    db: database,
    signer,
    keyless: keylessUpstream(req.env, req.faults),
    key: req.key,
    plan: PLANS[req.key.plan],
    signal: req.signal,
    record: bufferRecorder(
      (records) => bufferFor(req.env, req.key.id).append(records),
      (records) => writeRecords(database, signer, records),
      req.waitUntil,
    ),
  };
}
