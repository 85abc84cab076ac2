import { confidenceOf } from "../confidence";
import { chain } from "../pool";
import { AllModelsFailed, required, type StrategyContext, type StrategyResult } from "./context";

/** `single`: the routed model (and its fallbacks) answers. One stage, `answer`. */
export async function single(ctx: StrategyContext): Promise<StrategyResult> {
  const candidates = required(chain(ctx.pool, ctx.messages, ctx.settings.mode), "answer");
  const o = await ctx.op.call({ role: "answer", candidates, messages: ctx.messages });
  ctx.op.stage("answer", [o], { routed: candidates[0]!.id, fallback: o.ok && o.model !== candidates[0] });
  if (!o.ok) throw new AllModelsFailed("The routed model and its fallbacks all failed.");
  const confidence = confidenceOf({ agreement: null, judge: null, finishReasons: [o.finishReason] });
  o.confidence = confidence;
  return { content: o.content, agreement: 1, confidence, escalated: false };
}
