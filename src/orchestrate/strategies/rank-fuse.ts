import { confidenceOf } from "../confidence";
import { judgeChain } from "../pool";
import { aggregatePrompt } from "../prompts";
import { consensus } from "../text";
import { judgeAnswers, propose, required, type StrategyContext, type StrategyResult } from "./context";

/** How many of the top-ranked candidates are fused. */
export const FUSE_TOP = 2;

/**
 * `rank_fuse`: k candidates of different providers, a judge scores and ranks them, and the top two
 * are fused into one answer. Stages `propose`, `rank`, `fuse`. An unreadable or failed judge ranks
 * by closeness to the other candidates; a failed fuser returns the top candidate.
 */
export async function rankFuse(ctx: StrategyContext): Promise<StrategyResult> {
  const { op } = ctx;
  const { ok, texts, agreement } = await propose(ctx, "candidate");

  let order = texts.map((_, i) => i);
  let topScore: number | null = null;
  if (ok.length > 1) {
    const { outcome: judge, verdict } = await judgeAnswers(ctx, texts);
    const scores = verdict?.scores ?? [];
    if (scores.some((s) => s !== null)) {
      order.sort((a, b) => (scores[b] ?? -1) - (scores[a] ?? -1) || a - b);
      topScore = scores[order[0]!] ?? null;
    } else {
      const c = consensus(texts).index;
      order = [c, ...order.filter((i) => i !== c)];
    }
    op.stage("rank", [judge], { ranking: order.map((i) => ok[i]!.model.id), scores: order.map((i) => scores[i] ?? null), by: topScore === null ? "consensus" : "judge" });
  } else {
    op.stage("rank", [], { skipped: "only one candidate answered" });
  }

  const top = order.slice(0, FUSE_TOP);
  const finishes = top.map((i) => ok[i]!.finishReason);
  const evidence = { agreement: ok.length > 1 ? agreement : null, judge: topScore };
  if (top.length < 2) {
    op.stage("fuse", [], { skipped: "one candidate" });
    return { content: texts[top[0]!]!, agreement, confidence: confidenceOf({ ...evidence, finishReasons: finishes }), escalated: false };
  }
  const messages = aggregatePrompt(ctx.question, top.map((i) => texts[i]!));
  const fuser = await op.call({ role: "fuser", candidates: required(judgeChain(ctx.pool, messages, ctx.settings.mode, ctx.judgeModel), "fuser"), messages });
  if (!fuser.ok) {
    op.stage("fuse", [fuser], { fallback: "the fuser failed; the top-ranked candidate is returned" });
    return { content: texts[top[0]!]!, agreement, confidence: confidenceOf({ ...evidence, finishReasons: finishes }), escalated: false };
  }
  const confidence = confidenceOf({ ...evidence, finishReasons: [...finishes, fuser.finishReason] });
  fuser.confidence = confidence;
  op.stage("fuse", [fuser], { fused: top.map((i) => ok[i]!.model.id) });
  return { content: fuser.content, agreement, confidence, escalated: false };
}
