import { MODELS, type Model } from "../catalog/models";
import type { Eligibility } from "../cost/guard";
import { blendedUsdPerMtok } from "../cost/money";
import { COMPLIANCE_MATRIX, MATRIX_VERSION, type DataClass, type ProviderCompliance } from "./matrix";
import type { CompiledPolicy } from "./policy";

/**
 * The gate: a compiled policy plus the classes found in the text decide, per catalog model, whether
 * it may receive the text and, if not, every reason why. Pure: the preview, chat's candidate filter
 * and the router all read the same verdicts.
 */

const list = (xs: readonly string[]) => (xs.length ? xs.join(", ") : "none");

/** Every reason the provider's row fails the policy for this text (empty: it passes). */
export function providerReasons(policy: CompiledPolicy, row: ProviderCompliance, detected: readonly DataClass[]): string[] {
  if (!policy.active) return [];
  const reasons: string[] = [];
  const p = row.provider;
  if (policy.provider_allowlist.length && !policy.provider_allowlist.includes(p)) {
    reasons.push(`provider ${p} is not in provider_allowlist (${list(policy.provider_allowlist)})`);
  }
  if (policy.provider_denylist.includes(p)) reasons.push(`provider ${p} is in provider_denylist`);
  if (policy.allowed_jurisdictions.length && !policy.allowed_jurisdictions.includes(row.jurisdiction)) {
    reasons.push(`${p} is governed by ${row.jurisdiction} law, not an allowed jurisdiction (${list(policy.allowed_jurisdictions)})`);
  }
  if (policy.data_residency.length) {
    const outside = row.data_regions.filter((r) => !policy.data_residency.includes(r));
    if (outside.length) reasons.push(`${p} processes data in ${list(outside)}, outside data_residency (${list(policy.data_residency)})`);
  }
  for (const f of policy.required_frameworks) if (!row.frameworks.includes(f)) reasons.push(`${p} does not support framework ${f}`);
  for (const c of policy.required_certifications) if (!row.certifications.includes(c)) reasons.push(`${p} does not hold certification ${c}`);
  if (policy.require_zero_retention && !row.zero_retention) reasons.push(`${p} offers no zero-retention / no-training mode`);
  for (const c of policy.block_data_classes) {
    if (!detected.includes(c) || row.cleared.includes(c)) continue;
    reasons.push(
      c === "SECRETS"
        ? "the text contains SECRETS, which no provider is cleared to receive"
        : `the text contains ${c}, which the policy bars from providers not cleared for it; ${p} is cleared for ${list(row.cleared)}`,
    );
  }
  return reasons;
}

export interface GateResult {
  allowed: Model[];
  /** Model id to its reasons, in catalog order. */
  excluded: Record<string, string[]>;
}

export function applyGate(policy: CompiledPolicy, detected: readonly DataClass[], models: readonly Model[] = MODELS): GateResult {
  const allowed: Model[] = [];
  const excluded: Record<string, string[]> = {};
  const byProvider = new Map<string, string[]>();
  for (const m of models) {
    let reasons = byProvider.get(m.provider);
    if (!reasons) byProvider.set(m.provider, (reasons = providerReasons(policy, COMPLIANCE_MATRIX[m.provider], detected)));
    if (reasons.length) excluded[m.id] = reasons;
    else allowed.push(m);
  }
  return { allowed, excluded };
}

/** Every reason per model, computed once per provider for the request. */
export function complianceReasons(policy: CompiledPolicy, detected: readonly DataClass[]): (model: Model) => string[] {
  const cache = new Map<string, string[]>();
  return (model) => {
    let reasons = cache.get(model.provider);
    if (!reasons) cache.set(model.provider, (reasons = providerReasons(policy, COMPLIANCE_MATRIX[model.provider], detected)));
    return reasons;
  };
}

/**
 * The gate as one more cost-guard predicate (src/cost/guard.ts): a phrase that reads after the
 * model id, or null. The router, calls and orchestration compose it with onPlan, fitsContext and
 * withinCap.
 */
export function complianceEligibility(policy: CompiledPolicy, detected: readonly DataClass[]): Eligibility {
  const reasons = complianceReasons(policy, detected);
  return (model) => {
    const why = reasons(model);
    return why.length ? `is excluded by the compliance policy (${why.join("; ")})` : null;
  };
}

/** Round money in USD per million tokens to 6 decimals, so a JSON reader sees 0.0275, not 0.027500000000000004. */
const usd = (x: number) => Math.round(x * 1e6) / 1e6;

const cheapest = (models: readonly Model[]) =>
  models.reduce<Model | null>((best, m) => (best === null || blendedUsdPerMtok(m) < blendedUsdPerMtok(best) ? m : best), null);

export interface CostPremium {
  compliant_available: boolean;
  cheapest_unrestricted: string;
  unrestricted_min_usd_mtok: number;
  cheapest_compliant: string | null;
  compliant_min_usd_mtok: number | null;
  premium_usd_mtok: number | null;
  premium_pct: number | null;
}

/** What compliance costs: the cheapest compliant model against the cheapest model overall (blended 3:1 price). */
export function costPremium(allowed: readonly Model[], models: readonly Model[] = MODELS): CostPremium {
  const unrestricted = cheapest(models)!;
  const compliant = cheapest(allowed);
  const base = blendedUsdPerMtok(unrestricted);
  if (!compliant) {
    return {
      compliant_available: false,
      cheapest_unrestricted: unrestricted.id,
      unrestricted_min_usd_mtok: usd(base),
      cheapest_compliant: null,
      compliant_min_usd_mtok: null,
      premium_usd_mtok: null,
      premium_pct: null,
    };
  }
  const price = blendedUsdPerMtok(compliant);
  return {
    compliant_available: true,
    cheapest_unrestricted: unrestricted.id,
    unrestricted_min_usd_mtok: usd(base),
    cheapest_compliant: compliant.id,
    compliant_min_usd_mtok: usd(price),
    premium_usd_mtok: usd(price - base),
    premium_pct: Math.round(((price - base) / base) * 10000) / 100,
  };
}

export interface GateDecision {
  policy: CompiledPolicy;
  policy_active: boolean;
  detected_classes: DataClass[];
  allowed: string[];
  allowed_count: number;
  excluded: string[];
  excluded_count: number;
  matrix_version: string;
}

export function gateDecision(policy: CompiledPolicy, detected: readonly DataClass[], gate: GateResult): GateDecision {
  const excluded = Object.keys(gate.excluded);
  return {
    policy,
    policy_active: policy.active,
    detected_classes: [...detected],
    allowed: gate.allowed.map((m) => m.id),
    allowed_count: gate.allowed.length,
    excluded,
    excluded_count: excluded.length,
    matrix_version: MATRIX_VERSION,
  };
}
