/**
 * Fault injection for the sandbox upstream. The client's `x-sandbox-fault` header is forwarded by
 * the caller to the sandbox only, with the attempt numbers the `*N` limits count against.
 *
 *   header  = entry *("," entry)
 *   entry   = target "=" fault ["*" N]
 *   target  = catalog model id | provider id
 *   fault   = HTTP status 400-599 | "timeout" | "malformed" | "cut" | "cut0" | "latency:" ms
 *
 * For an attempt at model M of provider P the first entry, in header order, whose target is M or P
 * and whose limit is not used up applies. `*N` limits an entry to the first N attempts at its
 * target within one request: a model target counts attempts at that model, a provider target
 * counts attempts at any model of the provider. See docs/providers.md.
 */
import { MODELS, PROVIDERS } from "../catalog/models";

export type Fault =
  | { kind: "status"; status: number }
  | { kind: "latency"; ms: number }
  | { kind: "timeout" | "malformed" | "cut" | "cut0" };

/** A latency fault longer than this is a timeout in disguise; `timeout` says that better. */
export const MAX_LATENCY_MS = 60_000;

export interface FaultRule {
  target: string;
  /** True when the target names a provider rather than a model. */
  provider: boolean;
  fault: Fault;
  /** Applies to attempts 1..limit at the target; null means every attempt. */
  limit: number | null;
}

export const SANDBOX_HEADERS = {
  fault: "x-sandbox-fault",
  model: "x-sandbox-model",
  attempt: "x-sandbox-attempt",
  providerAttempt: "x-sandbox-provider-attempt",
} as const;

const MODEL_IDS = new Set(MODELS.map((m) => m.id));
const PROVIDER_IDS = new Set<string>(PROVIDERS);
const NAMED = new Set(["timeout", "malformed", "cut", "cut0"]);

export class FaultSyntaxError extends Error {}

/** Throws FaultSyntaxError naming the bad entry, so a typo shows up instead of silently doing nothing. */
export function parseFaults(header: string): FaultRule[] {
  const rules: FaultRule[] = [];
  for (const raw of header.split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const eq = entry.indexOf("=");
    if (eq <= 0) throw new FaultSyntaxError(`x-sandbox-fault entry "${entry}" is not <target>=<fault>`);
    const target = entry.slice(0, eq).trim();
    let spec = entry.slice(eq + 1).trim();
    let limit: number | null = null;
    const star = spec.lastIndexOf("*");
    if (star !== -1) {
      const n = spec.slice(star + 1).trim();
      if (!/^[1-9]\d*$/.test(n)) throw new FaultSyntaxError(`x-sandbox-fault entry "${entry}": the limit after * must be a positive integer`);
      limit = Number(n);
      spec = spec.slice(0, star).trim();
    }
    const provider = PROVIDER_IDS.has(target);
    if (!provider && !MODEL_IDS.has(target)) {
      throw new FaultSyntaxError(`x-sandbox-fault entry "${entry}": "${target}" is neither a catalog model id nor a provider id`);
    }
    let fault: Fault;
    const latency = /^latency:(\d+)$/.exec(spec);
    if (/^\d{3}$/.test(spec) && Number(spec) >= 400 && Number(spec) <= 599) fault = { kind: "status", status: Number(spec) };
    else if (NAMED.has(spec)) fault = { kind: spec as "timeout" | "malformed" | "cut" | "cut0" };
    else if (latency && Number(latency[1]) <= MAX_LATENCY_MS) fault = { kind: "latency", ms: Number(latency[1]) };
    else {
      throw new FaultSyntaxError(
        `x-sandbox-fault entry "${entry}": fault must be a status 400-599, timeout, malformed, cut, cut0 or latency:<ms> (at most ${MAX_LATENCY_MS})`,
      );
    }
    rules.push({ target, provider, fault, limit });
  }
  return rules;
}

export function faultFor(
  rules: readonly FaultRule[], modelId: string, providerId: string, modelAttempt: number, providerAttempt: number,
): Fault | null {
  for (const rule of rules) {
    if (rule.provider ? rule.target !== providerId : rule.target !== modelId) continue;
    const n = rule.provider ? providerAttempt : modelAttempt;
    if (rule.limit === null || n <= rule.limit) return rule.fault;
  }
  return null;
}

/** The headers the caller adds to a request bound for the sandbox. */
export function sandboxHeaders(faults: string | null, modelId: string, modelAttempt: number, providerAttempt: number): Record<string, string> {
  const headers: Record<string, string> = {
    [SANDBOX_HEADERS.model]: modelId,
    [SANDBOX_HEADERS.attempt]: String(modelAttempt),
    [SANDBOX_HEADERS.providerAttempt]: String(providerAttempt),
  };
  if (faults) headers[SANDBOX_HEADERS.fault] = faults;
  return headers;
}
