import { confidenceOf } from "../confidence";
import { chain } from "../pool";
import { consensus } from "../text";
import { answersOrFail, required, withinBudget, type StrategyContext, type StrategyResult } from "./context";

/**
 * `self_consistency`: one routed model samples the question k times at the request's temperature;
 * the answer returned is the sample the others agree with most (the medoid), and the agreement is
 * the share of samples that agree with it. Stages `sample`, `vote` (no calls). At temperature 0 the
 * samples are the same answer and the agreement is 1.
 */
export async function selfConsistency(ctx: StrategyContext): Promise<StrategyResult> {
  const { op } = ctx;
  const candidates = required(chain(ctx.pool, ctx.messages, ctx.settings.mode), "sampler");
  const chains = withinBudget(op, Array.from({ length: ctx.k }, () => candidates), ctx.messages);
  const samples = await Promise.all(chains.map((c) => op.call({ role: "sample", candidates: c, messages: ctx.messages })));
  const ok = answersOrFail(samples, "samples");
  const texts = ok.map((o) => o.content);
  const vote = consensus(texts);
  const chosen = ok[vote.index]!;
  const confidence = confidenceOf({ agreement: ok.length > 1 ? vote.support : null, judge: null, finishReasons: [chosen.finishReason] });
  chosen.confidence = confidence;
  op.stage("sample", samples, { k: chains.length, requested_k: ctx.k, answered: ok.length, temperature: op.meta.temperature });
  op.stage("vote", [], { chosen: samples.indexOf(chosen), support: vote.support, agreeing: Math.round(vote.support * ok.length), of: ok.length, closeness: vote.closeness });
  return { content: chosen.content, agreement: vote.support, confidence, escalated: false };
}
