import { worstCaseNanos } from "../../cost/guard";
import { usdFromNanos } from "../../cost/money";
import { estimatePromptTokens } from "../../cost/tokens";
import { confidenceOf } from "../confidence";
import type { Answered } from "../operation";
import { judgeChain, ladder } from "../pool";
import { judgePrompt } from "../prompts";
import { AllModelsFailed, readVerdict, required, VERDICT_MAX_TOKENS, verdictConfidence, type StrategyContext, type StrategyResult } from "./context";

/**
 * `cascade`: the cheapest rung answers, a grader scores the answer, and while the confidence is
 * below the policy's bar the next (stronger) rung answers. Before a rung, its worst case (answer and
 * grade) is added to what was spent; if that would pass max_cost_usd the cascade stops escalating.
 * Stages `cascade:0`, `cascade:1`, ...; the answer returned is the most confident one (the later,
 * stronger rung on a tie).
 */
export async function cascade(ctx: StrategyContext): Promise<StrategyResult> {
  const { op, settings } = ctx;
  const rungs = ladder(ctx.pool, ctx.messages, settings.ladder);
  required(rungs.length ? rungs : null, "cascade");
  let best: { answer: Answered; confidence: number } | null = null;
  for (const [i, rung] of rungs.entries()) {
    const model = rung[0]!;
    // Chosen before the answer exists, so its context must hold an answer of up to max_tokens: the
    // pool's max_tokens stands for it (orchestrate() has refused a max_tokens too large for that).
    const graderMessages = judgePrompt(ctx.question, [""]);
    const grader = required(judgeChain(ctx.pool, graderMessages, "agility", ctx.judgeModel, model.provider), "grader");
    if (i > 0) {
      // The grader reads the question and an answer of at most max_tokens.
      const gradeShape = { promptTokens: estimatePromptTokens(graderMessages) + op.meta.maxTokens, maxTokens: VERDICT_MAX_TOKENS };
      const next = op.worstCase(model, ctx.messages) + worstCaseNanos(grader[0]!, gradeShape);
      if (!op.affords(next)) {
        op.stages.at(-1)!.detail.stopped = "max_cost_usd";
        op.stages.at(-1)!.detail.next_worst_case_usd = usdFromNanos(next);
        break;
      }
    }
    const answer = await op.call({ role: "answer", candidates: rung, messages: ctx.messages });
    if (!answer.ok) {
      op.stage(`cascade:${i}`, [answer], { tier: model.tier, model: model.id, bar: settings.bar, escalate: i < rungs.length - 1 });
      continue;
    }
    const grade = await op.call({ role: "grader", candidates: grader, messages: judgePrompt(ctx.question, [answer.content]), maxTokens: VERDICT_MAX_TOKENS, temperature: 0 });
    const verdict = grade.ok ? readVerdict(grade.content, 1) : null;
    if (grade.ok) grade.confidence = verdictConfidence(verdict!);
    const judge = verdict?.scores[0] ?? null;
    const confidence = confidenceOf({ agreement: null, judge, finishReasons: [answer.finishReason] });
    answer.confidence = confidence;
    const clears = confidence >= settings.bar;
    op.stage(`cascade:${i}`, [answer, grade], {
      tier: answer.model.tier,
      model: answer.model.id,
      judge_score: judge,
      confidence,
      bar: settings.bar,
      escalate: !clears && i < rungs.length - 1,
    });
    if (!best || confidence >= best.confidence) best = { answer, confidence };
    if (clears) break;
  }
  if (!best) throw new AllModelsFailed("Every rung of the cascade failed.");
  return { content: best.answer.content, agreement: 1, confidence: best.confidence, escalated: op.stages.length > 1 };
}
