import type { ApiKeyRecord } from "./auth/keys";
import type { UsageBuffer } from "./calls/usage-buffer";
import type { WorkspaceLedger } from "./handoff/ledger";
import type { LimitDecision, RateLimiter } from "./limits/rate-limiter";

export interface Env {
  DB: D1Database;
  CACHE: KVNamespace;
  LIMITER: DurableObjectNamespace<RateLimiter>;
  /** One handoff ledger per (owner, workspace). */
  LEDGER: DurableObjectNamespace<WorkspaceLedger>;
  /** One write-behind buffer of usage rows and receipts per API key (docs/storage.md). */
  USAGE_BUFFER: DurableObjectNamespace<UsageBuffer>;
  /** "on" lets the in-process sandbox upstream answer for providers that have no key. */
  SANDBOX_UPSTREAM?: string;
  /** Ed25519 seed, 32 bytes hex. Absent: receipts and handoffs are written unsigned. */
  LEDGER_SIGNING_KEY?: string;
  /** Public keys (64 hex, comma-separated) of signing keys retired by a rotation: still published and verified. */
  LEDGER_RETIRED_KEYS?: string;
  /** Origin of shared brain configs' `short_url` (`{SHORT_URL_BASE}/b/{id}`). Absent: the request's origin. */
  SHORT_URL_BASE?: string;
  /** Origins (comma-separated, or `*`) browsers may call protected endpoints from; public ones allow any. */
  CORS_ORIGINS?: string;
  /** "on" counts storage calls per request (src/shared/storage-meter.ts): set by `npm run bench` only, never in production. */
  STORAGE_METER?: string;
  /** Guards /admin/*. Absent: the admin endpoints do not exist. */
  ADMIN_TOKEN?: string;
  /** Provider keys and base URL overrides: `<PROVIDER>_API_KEY`, `<PROVIDER>_BASE_URL`. */
  [providerSetting: `${string}_API_KEY` | `${string}_BASE_URL`]: string | undefined;
}

export interface AppVariables {
  requestId: string;
  /** Set by the auth middleware on protected routes. */
  apiKey: ApiKeyRecord;
  /** performance.now() when the request entered the Worker. */
  startedAt: number;
  /** The limiter's decision that admitted this protected request (set with apiKey). */
  limit: LimitDecision;
}

export type AppEnv = { Bindings: Env; Variables: AppVariables };
