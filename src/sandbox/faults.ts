/**
 * Fault injection for the sandbox upstream. The client's `x-sandbox-fault` header is handed to the
 * per-request sandbox (upstream.ts), which counts the attempts the `*N` limits count against.
 *
 *   header  = entry *("," entry)
 *   entry   = target "=" fault ["*" N]
 *   target  = catalog model id | provider id
 *   fault   = HTTP status 400-599 | "timeout" | "malformed" | "cut" | "cut0" | "latency:" ms | "drip:" ms
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
  /** A stream whose frames arrive `ms` apart: a slow model, for tests of readers that give up. */
  | { kind: "drip"; ms: number }
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

/** The client header that carries the fault rules (the edge reads it; only the sandbox obeys it). */
export const FAULT_HEADER = "x-sandbox-fault";

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
    const drip = /^drip:(\d+)$/.exec(spec);
    if (/^\d{3}$/.test(spec) && Number(spec) >= 400 && Number(spec) <= 599) fault = { kind: "status", status: Number(spec) };
    else if (NAMED.has(spec)) fault = { kind: spec as "timeout" | "malformed" | "cut" | "cut0" };
    else if (latency && Number(latency[1]) <= MAX_LATENCY_MS) fault = { kind: "latency", ms: Number(latency[1]) };
    else if (drip && Number(drip[1]) <= MAX_LATENCY_MS) fault = { kind: "drip", ms: Number(drip[1]) };
    else {
      throw new FaultSyntaxError(
        `x-sandbox-fault entry "${entry}": fault must be a status 400-599, timeout, malformed, cut, cut0, latency:<ms> or drip:<ms> (at most ${MAX_LATENCY_MS})`,
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
