import { findModel, MODELS, PROVIDERS, type Capability, type Model, type Tier } from "../catalog/models";
import { eligible, exclusion, fitsContext, notBlocked, onPlan, withinCap, worstCaseNanos, type Eligibility } from "../cost/guard";
import { blendedUsdPerMtok } from "../cost/money";
import { AUTO_FALLBACKS, CAPABILITY_FOR, DEFAULT_MODE, TIER_FOR, TIERS, type AutoMode } from "./tiers";
import { describeRule, firstMatchingRule } from "./rules";
import { detectSignals, signalNames, type PromptFeatures } from "./signals";
import type { BrainConfig, RouteDecision, RouteInput, RoutingMode, Signal } from "./types";

/**
 * The routing decision (docs/routing.md): a pure function of its input. Precedence, first that
 * applies: the request's `model` pin; the first matching brain_config rule (a model or a mode);
 * brain_config `model`; the request's `routing_mode`; balanced. Every choice is made among the
 * eligible models: on the plan, not blocked, within the cost cap, and able to hold the request.
 */

interface Limits {
  allowed: readonly string[] | null;
  blocked: ReadonlySet<string>;
  promptTokens: number;
  maxTokens: number;
  completions: number;
  /** The cost guard's predicates, in the order their reasons are reported. */
  onPlan: Eligibility;
  /** Never given up, like the plan (compliance). */
  required: readonly Eligibility[];
  rules: readonly Eligibility[];
}

interface RouteContext {
  input: RouteInput;
  config: BrainConfig;
  features: PromptFeatures;
  detected: Signal[];
  limits: Limits;
}

function limitsFor(input: RouteInput, config: BrainConfig, promptTokens: number): Limits {
  const shape = { promptTokens, maxTokens: input.maxTokens, completions: input.completions ?? 1 };
  const blocked = blockedIds(config.blocked);
  const plan = onPlan(input.allowedModels);
  return {
    allowed: input.allowedModels,
    blocked,
    promptTokens,
    maxTokens: input.maxTokens,
    completions: shape.completions,
    onPlan: plan,
    required: input.requirements ?? [],
    rules: [plan, ...(input.requirements ?? []), notBlocked(blocked), fitsContext(shape), withinCap(shape, maxCostOf(config)), ...(input.eligibility ?? [])],
  };
}

const isEligible = (m: Model, l: Limits) => eligible(m, l.rules);
const isOnPlan = (m: Model, l: Limits) => l.onPlan(m) === null;
/** What the last resort may never give up: the plan and the caller's requirements. */
const isAdmissible = (m: Model, l: Limits) => isOnPlan(m, l) && eligible(m, l.required);
const fits = (m: Model, l: Limits) => l.promptTokens + l.maxTokens <= m.context_tokens;
const worstCase = (m: Model, l: Limits) => worstCaseNanos(m, l);

/** Why a model cannot serve this request, in plain words (null: it can). */
const whyExcluded = (m: Model, l: Limits) => exclusion(m, l.rules);

/** `blocked` entries are model ids (catalog or upstream) or provider ids; resolved to catalog ids. */
const NONE: ReadonlySet<string> = new Set();
function blockedIds(entries: readonly string[] | undefined): ReadonlySet<string> {
  if (!entries?.length) return NONE;
  const ids = new Set<string>();
  for (const entry of entries ?? []) {
    if ((PROVIDERS as readonly string[]).includes(entry)) {
      for (const m of MODELS) if (m.provider === entry) ids.add(m.id);
    } else {
      const m = findModel(entry);
      if (m) ids.add(m.id);
    }
  }
  return ids;
}

function maxCostOf(config: BrainConfig): number | undefined {
  const caps = [config.max_cost_per_request, config.max_cost].filter((x): x is number => typeof x === "number");
  return caps.length ? Math.min(...caps) : undefined;
}

// ---- ranking ----

const tierIndex = (t: Tier) => TIERS.indexOf(t);

function wantedCapabilities(detected: readonly Signal[]): Capability[] {
  const caps: Capability[] = [];
  for (const s of detected) {
    const cap = CAPABILITY_FOR[s];
    if (cap && !caps.includes(cap)) caps.push(cap);
  }
  return caps;
}

const CAPABILITY_BITS: Partial<Record<Capability, number>> = { code: 1, reasoning: 2, long_context: 4 };

/**
 * The whole catalog ordered for a target tier: the target tier first, then the tiers above it (a
 * stronger model is a safer substitute), then those below; within a tier, more of the wanted
 * capabilities first, then (quality only) broader capability as the proxy for strength, then the
 * lower blended price. Ties keep catalog order (the sort is stable). There are few combinations
 * (4 tiers x 8 capability sets x 2), so each order is computed once and reused.
 */
const rankings = new Map<number, readonly Model[]>();
/** Capabilities as a proxy for strength: `n` (several choices per call) says how a model answers, not how strong it is. */
const strength = (m: Model) => m.capabilities.filter((c) => c !== "n").length;
function ranking(target: Tier, wanted: readonly Capability[], byStrength: boolean): readonly Model[] {
  let wantedBits = 0;
  for (const cap of wanted) wantedBits |= CAPABILITY_BITS[cap] ?? 0;
  const cacheKey = (tierIndex(target) * 8 + wantedBits) * 2 + Number(byStrength);
  let order = rankings.get(cacheKey);
  if (!order) {
    const t = tierIndex(target);
    const keyOf = (m: Model) => {
      const i = tierIndex(m.tier);
      const tierDistance = i >= t ? i - t : 10 + (t - i);
      const missing = wanted.filter((cap) => !m.capabilities.includes(cap)).length;
      const weakness = byStrength ? 10 - strength(m) : 0;
      return tierDistance * 1e5 + missing * 1e4 + weakness * 1e3 + blendedUsdPerMtok(m);
    };
    order = MODELS.toSorted((a, b) => keyOf(a) - keyOf(b));
    rankings.set(cacheKey, order);
  }
  return order;
}

/** The eligible models in ranking order. (Loops rather than closures here and below: this runs on every call.) */
function rank(ctx: RouteContext, target: Tier, wanted: readonly Capability[], byStrength: boolean, except?: Model): Model[] {
  const ranked: Model[] = [];
  for (const m of ranking(target, wanted, byStrength)) if (m !== except && isEligible(m, ctx.limits)) ranked.push(m);
  return ranked;
}

/** The chosen model, then brain_config.fallback, then automatic fallbacks on other providers first. */
function fallbackChain(chosen: Model, ranked: readonly Model[], ctx: RouteContext): Model[] {
  const chain = [chosen];
  for (const id of ctx.config.fallback ?? []) {
    const m = findModel(id);
    if (m && !chain.includes(m) && isEligible(m, ctx.limits)) chain.push(m);
  }
  const providers = new Set<string>();
  for (const m of chain) providers.add(m.provider);
  let added = 0;
  for (const m of ranked) {
    if (added === AUTO_FALLBACKS) break;
    if (!providers.has(m.provider)) {
      chain.push(m);
      providers.add(m.provider);
      added++;
    }
  }
  for (const m of ranked) {
    if (added === AUTO_FALLBACKS) break;
    if (!chain.includes(m)) {
      chain.push(m);
      added++;
    }
  }
  return chain;
}

// ---- decisions ----

function decision(ctx: RouteContext, mode: RoutingMode, candidates: Model[], reason: string, rule: string): RouteDecision {
  return {
    mode,
    candidates,
    reason,
    tier: candidates[0]!.tier,
    signals_detected: ctx.features.signals,
    signal_scores: ctx.features.scores,
    difficulty: ctx.features.difficulty,
    difficulty_scores: ctx.features.difficultyScores,
    estimated_prompt_tokens: ctx.limits.promptTokens,
    rule,
  };
}

/** "Signals: code (0.93), math (0.71). Difficulty: strong (standard 0.97, strong 0.82)." */
function signalsPhrase(ctx: RouteContext): string {
  const { scores, difficulty, difficultyScores } = ctx.features;
  let named = "";
  for (const s of ctx.detected) named += `${named ? ", " : ""}${s === "long_context" ? s : `${s} (${scores[s].toFixed(2)})`}`;
  return `Signals: ${named || "none"}. Difficulty: ${difficulty} (standard ${difficultyScores.standard.toFixed(2)}, strong ${difficultyScores.strong.toFixed(2)}).`;
}
const capsPhrase = (caps: readonly Capability[]) => (caps.length ? ` with ${caps.join(" and ")} support` : "");
const title = (s: string) => s[0]!.toUpperCase() + s.slice(1);
const planNote = (l: Limits) => (l.allowed ? " among the models your plan allows" : "");

/**
 * Nothing eligible: keep the plan and the caller's requirements (never negotiable), then give up the cost cap, then the context
 * fit, then the block list, and take the cheapest worst case of what is left, so candidates are
 * never empty and the reason says which constraint could not be met.
 */
function lastResort(ctx: RouteContext, prefix: string, mode: RoutingMode): RouteDecision {
  const l = ctx.limits;
  const onPlanModels = MODELS.filter((m) => isAdmissible(m, l));
  const pools: Array<[Model[], string]> = [
    [onPlanModels.filter((m) => !l.blocked.has(m.id) && fits(m, l)), "max_cost_per_request"],
    [onPlanModels.filter((m) => !l.blocked.has(m.id)), "the context fit"],
    [onPlanModels, "the block list"],
  ];
  const [pool, relaxed] = pools.find(([p]) => p.length) ?? [[...MODELS], "the plan"];
  // Among models that fit, the cheapest worst case; if none fits, the largest context (nearest to fitting).
  const chosen = pool.toSorted((a, b) => {
    const fitA = fits(a, l);
    const fitB = fits(b, l);
    if (fitA !== fitB) return fitA ? -1 : 1;
    return fitA ? worstCase(a, l) - worstCase(b, l) : b.context_tokens - a.context_tokens;
  })[0]!;
  const why = whyExcluded(chosen, l);
  return decision(
    ctx,
    mode,
    [chosen],
    `${prefix}${signalsPhrase(ctx)} No model meets every constraint; ${chosen.id} is the last resort, chosen by giving up ${relaxed} (it ${why ?? "meets the rest"}).`,
    "last_resort",
  );
}

/** Routing by mode: the tier the prompt's difficulty needs in that mode, then the best-ranked eligible model. */
function byMode(ctx: RouteContext, mode: AutoMode, source: string, rule: string, prefix = ""): RouteDecision {
  const { difficulty, signals } = ctx.features;
  const level = signals.simple ? "simple" : difficulty;
  const target: Tier = TIER_FOR[mode][level];
  // A strong prompt needs a model that reasons, whatever its intent (docs/routing.md, "Modes").
  const wanted = wantedCapabilities(ctx.detected);
  if (difficulty === "strong" && !wanted.includes("reasoning")) wanted.push("reasoning");
  const ranked = rank(ctx, target, wanted, mode === "quality");
  if (!ranked.length) return lastResort(ctx, prefix, mode);
  const chosen = ranked[0]!;

  const why = level === "simple" ? `puts a simple prompt on the ${target} tier` : `puts a ${difficulty} prompt on the ${target} tier`;
  const offered: Capability[] = [];
  const missing: Capability[] = [];
  for (const c of wanted) (chosen.capabilities.includes(c) ? offered : missing).push(c);
  const pick = mode === "quality" ? "best-ranked" : "cheapest";
  let reason = `${prefix}${signalsPhrase(ctx)} ${title(mode)} mode (${source}) ${why}; ${chosen.id} is the ${pick} ${chosen.tier}-tier model${capsPhrase(offered)} that fits the request${planNote(ctx.limits)}.`;
  if (chosen.tier !== target) reason += ` No ${target}-tier model was eligible, so the nearest tier was used.`;
  if (missing.length) reason += ` No eligible model of that tier offers ${missing.join(" and ")}.`;
  return decision(ctx, mode, fallbackChain(chosen, ranked, ctx), reason, rule);
}

/** A pinned model: served as is when eligible, else the reason says why and routing takes over. */
function pinned(ctx: RouteContext, model: Model, source: string, rule: string): RouteDecision {
  const l = ctx.limits;
  const why = whyExcluded(model, l);
  if (why === null) {
    const others = rank(ctx, model.tier, wantedCapabilities(ctx.detected), false, model);
    return decision(ctx, "direct", fallbackChain(model, others, ctx), `${signalsPhrase(ctx)} Pinned by ${source}: ${model.id}.`, rule);
  }
  if (!isOnPlan(model, l)) {
    // SPEC.md section 8, rule 2: a model off the plan goes to the cheapest model the plan allows.
    const ranked = MODELS.filter((m) => isEligible(m, l)).toSorted((a, b) => blendedUsdPerMtok(a) - blendedUsdPerMtok(b));
    const prefix = `${model.id} (${source}) ${why}; `;
    if (!ranked.length) return lastResort(ctx, prefix, "agility");
    const chosen = ranked[0]!;
    return decision(ctx, "agility", fallbackChain(chosen, ranked, ctx), `${prefix}routed to the cheapest allowed model, ${chosen.id}. ${signalsPhrase(ctx)}`, "plan_restriction");
  }
  return byRequestMode(ctx, rule, `${model.id} (${source}) ${why}; routed instead. `);
}

/** When a pin cannot be used: the request's routing_mode, else the default mode. */
function byRequestMode(ctx: RouteContext, rule: string, prefix: string): RouteDecision {
  const mode = ctx.input.routingMode;
  return mode ? byMode(ctx, mode, "routing_mode", rule, prefix) : byMode(ctx, DEFAULT_MODE, "default", rule, prefix);
}

/** A pin named by brain_config, which may hold any string when the config did not go through the normaliser. */
function pinById(ctx: RouteContext, id: string, source: string, rule: string): RouteDecision {
  const model = findModel(id);
  return model ? pinned(ctx, model, source, rule) : byRequestMode(ctx, rule, `${source} names unknown model ${JSON.stringify(id)}; routed instead. `);
}

/** An id that is not in the catalog: the safe budget default, chosen by signals on the budget tier. */
function unknownModel(ctx: RouteContext, id: string): RouteDecision {
  const wanted = wantedCapabilities(ctx.detected);
  const ranked = rank(ctx, "budget", wanted, false);
  const prefix = `Unknown model ${JSON.stringify(id)}; `;
  if (!ranked.length) return lastResort(ctx, prefix, "agility");
  const chosen = ranked[0]!;
  return decision(
    ctx,
    "agility",
    fallbackChain(chosen, ranked, ctx),
    `${prefix}fell back to the safe budget default, ${chosen.id}, the cheapest ${chosen.tier}-tier model${capsPhrase(wanted.filter((c) => chosen.capabilities.includes(c)))} that fits the request. ${signalsPhrase(ctx)}`,
    "unknown_model",
  );
}

export function route(input: RouteInput): RouteDecision {
  const features = detectSignals(input.messages);
  const config = input.brainConfig ?? {};
  const ctx: RouteContext = {
    input,
    config,
    features,
    detected: signalNames(features.signals),
    limits: limitsFor(input, config, features.estimatedPromptTokens + (input.imageTokens ?? 0)),
  };

  const requested = input.model.trim();
  if (requested !== "" && requested !== "auto") {
    const model = findModel(requested);
    return model ? pinned(ctx, model, "the request's model", "request_model") : unknownModel(ctx, requested);
  }

  const ruleIndex = firstMatchingRule(config.rules, features.signals, features.lastUserText);
  if (ruleIndex >= 0) {
    const rule = config.rules![ruleIndex]!;
    const source = `brain_config rule ${ruleIndex + 1} (${describeRule(rule)})`;
    const ruleId = `brain_config.rules[${ruleIndex}]`;
    if (rule.model !== undefined) return pinById(ctx, rule.model, source, ruleId);
    if (rule.mode !== undefined) return byMode(ctx, rule.mode, source, ruleId);
  }

  if (config.model !== undefined && config.model !== "auto") return pinById(ctx, config.model, "brain_config model", "brain_config.model");

  if (input.routingMode) return byMode(ctx, input.routingMode, "routing_mode", "routing_mode");
  return byMode(ctx, DEFAULT_MODE, "default", "default_mode");
}
