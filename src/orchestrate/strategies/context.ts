import type { ChatMessage } from "../../providers/types";
import type { Answered, Operation, Outcome } from "../operation";
import { capped, diverse, judgeChain } from "../pool";
import { judgePrompt } from "../prompts";
import { meanAgreement } from "../text";
import type { Policy, PolicySettings } from "../policy";
import type { Chain, Pool } from "../pool";
import { parseJsonObject, unitScore } from "../text";

/** What every strategy gets: the run, the model pool, the conversation and the policy's settings. */
export interface StrategyContext {
  op: Operation;
  pool: Pool;
  /** The conversation as the client sent it; proposers answer it whole. */
  messages: ChatMessage[];
  /** The last user message: what judges, aggregators and planners are shown. */
  question: string;
  policy: Policy;
  settings: PolicySettings;
  /** Width for ensemble_moa, rank_fuse and self_consistency. */
  k: number;
  judgeModel: string | undefined;
}

/** The most a judge or grader may write: a short JSON verdict. */
export const VERDICT_MAX_TOKENS = 256;

export interface StrategyResult {
  content: string;
  agreement: number;
  confidence: number;
  escalated: boolean;
}

export type Strategy = (ctx: StrategyContext) => Promise<StrategyResult>;

/** No model meets the request's constraints (plan, brain_config, compliance): 503 no_provider_available. */
export class NoEligibleModel extends Error {}
/** Every model call of the run failed: 502 all_models_failed. */
export class AllModelsFailed extends Error {}

export function required<T>(value: T | null, what: string): T {
  if (value === null) throw new NoEligibleModel(`No eligible model for the ${what}: the plan, brain_config and compliance policy leave none.`);
  return value;
}

/**
 * The chains a stage may start within max_cost_usd: each chain's first model at its worst case,
 * added in order while the budget holds; at least `min` (a soft budget never leaves a run empty).
 */
export function withinBudget(op: Operation, chains: readonly Chain[], messages: readonly ChatMessage[], min = 1): Chain[] {
  const kept: Chain[] = [];
  let total = 0;
  for (const c of chains) {
    total += op.worstCase(c[0]!, messages);
    if (kept.length >= min && !op.affords(total)) break;
    kept.push(c);
  }
  return kept;
}

export function answersOrFail(outcomes: readonly Outcome[], what: string): Answered[] {
  const ok = outcomes.filter((o): o is Answered => o.ok);
  if (!ok.length) throw new AllModelsFailed(`Every model call of the ${what} failed.`);
  return ok;
}

export interface Verdict {
  /** One 0-1 score per candidate, or null when the judge's reply could not be read. */
  scores: Array<number | null>;
  /** 0-based index of the best candidate. */
  best: number | null;
}

/** Reads a judge's JSON (`scores`, `best` 1-based; a lone `score` for one candidate), tolerantly. */
export function readVerdict(reply: string, candidates: number): Verdict {
  const json = parseJsonObject(reply);
  const scores: Array<number | null> = Array.from({ length: candidates }, () => null);
  if (!json) return { scores, best: null };
  if (Array.isArray(json.scores)) json.scores.slice(0, candidates).forEach((s, i) => (scores[i] = unitScore(s)));
  else if (candidates === 1) scores[0] = unitScore(json.score);
  let best = typeof json.best === "number" && Number.isInteger(json.best) && json.best >= 1 && json.best <= candidates ? json.best - 1 : null;
  if (best === null && scores.some((s) => s !== null)) best = scores.reduce<number>((b, s, i) => ((s ?? -1) > (scores[b] ?? -1) ? i : b), 0);
  return { scores, best };
}

/** A judge's own call confidence: 1 when its verdict could be read, else 0.25. */
export const verdictConfidence = (v: Verdict) => (v.best !== null ? 1 : 0.25);

/**
 * The voices of ensemble_moa and rank_fuse: k models of different providers answer the conversation
 * in parallel (trimmed to max_cost_usd), recorded as the `propose` stage.
 */
export async function propose(ctx: StrategyContext, role: string) {
  const all = diverse(ctx.pool, ctx.messages, ctx.settings.mode, ctx.k);
  const chains = withinBudget(ctx.op, required(all.length ? all : null, `${role}s`), ctx.messages);
  const outcomes = await Promise.all(chains.map((candidates) => ctx.op.call({ role, candidates, messages: ctx.messages })));
  const ok = answersOrFail(outcomes, `${role}s`);
  const texts = ok.map((o) => o.content);
  const agreement = meanAgreement(texts);
  ctx.op.stage("propose", outcomes, { k: chains.length, requested_k: ctx.k, answered: ok.length, providers: chains.map((c) => c[0]!.provider), agreement });
  return { ok, texts, agreement };
}

/** A judge scores the candidate answers (temperature 0); null verdict when the call failed. */
export async function judgeAnswers(ctx: StrategyContext, texts: readonly string[]) {
  const messages = judgePrompt(ctx.question, texts);
  const candidates = required(judgeChain(capped(ctx.pool, VERDICT_MAX_TOKENS), messages, ctx.settings.mode, ctx.judgeModel), "judge");
  const outcome = await ctx.op.call({ role: "judge", candidates, messages, maxTokens: VERDICT_MAX_TOKENS, temperature: 0 });
  const verdict = outcome.ok ? readVerdict(outcome.content, texts.length) : null;
  if (outcome.ok) outcome.confidence = verdictConfidence(verdict!);
  return { outcome, verdict };
}
