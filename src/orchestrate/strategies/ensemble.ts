import { confidenceOf } from "../confidence";
import { judgeChain } from "../pool";
import { aggregatePrompt } from "../prompts";
import { consensus } from "../text";
import { propose, required, type StrategyContext, type StrategyResult } from "./context";

/**
 * `ensemble_moa` (mixture of agents): k proposers of different providers answer in parallel, an
 * aggregator (judge_model when given) synthesizes one answer from those that answered. Stages
 * `propose`, `aggregate`. If the aggregator fails, the proposal closest to the others is returned.
 */
export async function ensembleMoa(ctx: StrategyContext): Promise<StrategyResult> {
  const { op } = ctx;
  const { ok, texts, agreement } = await propose(ctx, "proposer");
  const finishes = ok.map((o) => o.finishReason);
  const evidence = { agreement: ok.length > 1 ? agreement : null, judge: null };
  if (ok.length === 1) {
    op.stage("aggregate", [], { skipped: "only one proposal answered" });
    return { content: texts[0]!, agreement, confidence: confidenceOf({ ...evidence, finishReasons: finishes }), escalated: false };
  }
  const messages = aggregatePrompt(ctx.question, texts);
  const aggregator = required(judgeChain(ctx.pool, messages, ctx.settings.mode, ctx.judgeModel), "aggregator");
  const agg = await op.call({ role: "aggregator", candidates: aggregator, messages });
  if (!agg.ok) {
    const pick = consensus(texts).index;
    op.stage("aggregate", [agg], { fallback: `the aggregator failed; proposal ${pick + 1} (closest to the others) is returned` });
    return { content: texts[pick]!, agreement, confidence: confidenceOf({ ...evidence, finishReasons: finishes }), escalated: false };
  }
  const confidence = confidenceOf({ ...evidence, finishReasons: [...finishes, agg.finishReason] });
  agg.confidence = confidence;
  op.stage("aggregate", [agg], { inputs: ok.length, aggregator: agg.model.id });
  return { content: agg.content, agreement, confidence, escalated: false };
}
