import { findModel, MODELS, type Model, type ProviderId, type Tier } from "../catalog/models";
import { estimatePromptTokens } from "../cost/tokens";
import { invalidRequest } from "../shared/errors";
import { exclusion, type Eligibility } from "../cost/guard";
import type { ChatMessage } from "../providers/types";
import type { AutoMode } from "../routing/tiers";
import { route } from "../routing/router";
import type { BrainConfig } from "../routing/types";

/**
 * Choosing models for a strategy, always through the router (`route()`), so the plan allowlist,
 * brain_config's blocked list and caps, the context fit and the caller's predicates (compliance
 * among them) apply to every model of every stage. A strategy asks for a chain (a model and its
 * fallbacks); diversity and tiers are extra predicates, never a second ranking.
 */
export interface Pool {
  allowedModels: readonly string[] | null;
  /** brain_config without `model` and `rules`: a strategy chooses its own models. */
  brainConfig: BrainConfig;
  maxTokens: number;
  /** Caller's predicates, applied before any scoring. */
  eligibility: readonly Eligibility[];
  /** Predicates the router never relaxes, like the plan: the compliance gate. */
  requirements?: readonly Eligibility[];
}

export type Chain = Model[];

/**
 * The pool for a stage that writes at most `maxTokens` (a verdict, a plan, a review): its model needs
 * room for that beside the prompt, not for the request's max_tokens.
 */
export const capped = (pool: Pool, maxTokens: number): Pool => ({ ...pool, maxTokens });

/**
 * A chain for these messages in this mode, or null when no model meets every predicate (the
 * router's last resort relaxes some constraints; a strategy would rather do without).
 */
export function chain(pool: Pool, messages: readonly ChatMessage[], mode: AutoMode, extra: readonly Eligibility[] = [], model = "auto"): Chain | null {
  const rules = [...(pool.requirements ?? []), ...pool.eligibility, ...extra];
  const decision = route({
    messages: [...messages],
    model,
    routingMode: mode,
    brainConfig: pool.brainConfig,
    allowedModels: pool.allowedModels,
    maxTokens: pool.maxTokens,
    eligibility: rules,
    requirements: pool.requirements,
  });
  if (decision.rule === "last_resort") return null;
  const candidates = decision.candidates.filter((m) => exclusion(m, rules) === null);
  return candidates.length ? candidates : null;
}

const fromOtherProvider = (used: ReadonlySet<ProviderId>): Eligibility => (m) =>
  used.has(m.provider) ? "is from a provider already answering" : null;
const notIn = (taken: ReadonlySet<string>): Eligibility => (m) => (taken.has(m.id) ? "already answers" : null);

/**
 * Up to k voices: distinct models and, while possible, of distinct providers (diverse errors are
 * what make agreement informative). Each voice is one model without fallbacks: a voice whose model
 * fails (after the provider core's retries) is a missing voice, shown `ok: false`, not a silent
 * second copy of another provider's.
 */
export function diverse(pool: Pool, messages: readonly ChatMessage[], mode: AutoMode, k: number): Chain[] {
  const chains: Chain[] = [];
  const providers = new Set<ProviderId>();
  const taken = new Set<string>();
  while (chains.length < k) {
    const next = chain(pool, messages, mode, [notIn(taken), fromOtherProvider(providers)]) ?? chain(pool, messages, mode, [notIn(taken)]);
    if (!next) break;
    chains.push([next[0]!]);
    providers.add(next[0]!.provider);
    taken.add(next[0]!.id);
  }
  return chains;
}

const ofTier = (tier: Tier): Eligibility => (m) => (m.tier === tier ? null : `is not a ${tier}-tier model`);

/** One chain per tier of the ladder that has an eligible model: the cheapest model of that tier first. */
export function ladder(pool: Pool, messages: readonly ChatMessage[], tiers: readonly Tier[]): Chain[] {
  const rungs: Chain[] = [];
  for (const tier of tiers) {
    const c = chain(pool, messages, "agility", [ofTier(tier)]);
    if (c) rungs.push(c);
  }
  return rungs;
}

/**
 * The judge or aggregator: `judge_model` when it is a catalog model the request may use (the
 * router pins it and adds fallbacks), else the model routed for the judging prompt in the policy's
 * mode. A `judge_model` that is not a catalog id is ignored (SPEC.md 4.2).
 */
export function judgeChain(pool: Pool, messages: readonly ChatMessage[], mode: AutoMode, judgeModel: string | undefined, avoid?: ProviderId): Chain | null {
  if (judgeModel && findModel(judgeModel)) {
    const pinned = chain(pool, messages, mode, [], judgeModel);
    if (pinned) return pinned;
  }
  // A judge of another provider than the answer it grades, where one is eligible: a model rates its own text too kindly.
  return (avoid && chain(pool, messages, mode, [fromOtherProvider(new Set([avoid]))])) || chain(pool, messages, mode);
}

/** Where checkFits looks: a stage's own prompt (`stage`, "the grader"), among some tiers only. */
export interface FitScope {
  stage?: string;
  tiers?: readonly Tier[];
}

/**
 * A request whose prompt and max_tokens no model of the plan can hold is the caller's to fix: a 400
 * naming the largest context, rather than a 503 that blames the providers. `scope.stage` names the
 * prompt when it is a stage's rather than the caller's own; `scope.tiers` looks only among models
 * of those tiers (the cascade's ladder).
 */
export function checkFits(messages: readonly ChatMessage[], maxTokens: number, allowedModels: readonly string[] | null, scope: FitScope = {}): void {
  const { stage, tiers } = scope;
  const promptTokens = estimatePromptTokens(messages);
  const models = MODELS.filter((m) => (allowedModels === null || allowedModels.includes(m.id)) && (!tiers || tiers.includes(m.tier)));
  const largest = Math.max(...models.map((m) => m.context_tokens));
  if (promptTokens + maxTokens > largest) {
    const prompt = stage ? `tokens of ${stage}'s prompt` : "prompt tokens";
    const among = tiers ? ` among the ${tiers.join(", ")} models` : "";
    throw invalidRequest(`max_tokens ${maxTokens} plus about ${promptTokens} ${prompt} exceeds the largest context window available${among} (${largest} tokens).`, [{ path: "max_tokens", message: `at most ${Math.max(1, largest - promptTokens)}` }]);
  }
}
