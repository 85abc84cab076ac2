import { confidenceOf } from "../confidence";
import type { Outcome } from "../operation";
import { diverse } from "../pool";
import { debatePrompt, revisedAnswer } from "../prompts";
import { consensus, meanAgreement } from "../text";
import { answersOrFail, judgeAnswers, required, withinBudget, type StrategyContext, type StrategyResult } from "./context";

/** Debaters: two to three models of different providers. */
export const MAX_DEBATERS = 3;

/**
 * `debate`: debaters of different providers answer (`debate:0`); in each following round every
 * debater sees the others' latest answers, critiques them and gives a revised answer
 * (`debate:1`, ...); a judge scores the final answers and the best one is returned (`judge`).
 * A round is skipped when its worst case would pass max_cost_usd; a debater whose call fails keeps
 * its previous answer. Agreement is that of the final answers.
 */
export async function debate(ctx: StrategyContext): Promise<StrategyResult> {
  const { op } = ctx;
  const all = diverse(ctx.pool, ctx.messages, ctx.settings.mode, Math.min(Math.max(ctx.k, 2), MAX_DEBATERS));
  const debaters = withinBudget(op, required(all.length ? all : null, "debaters"), ctx.messages, 2);
  const opening = await Promise.all(debaters.map((candidates) => op.call({ role: "debater", candidates, messages: ctx.messages })));
  answersOrFail(opening, "opening round");
  const latest: Array<{ text: string; finish: string } | null> = opening.map((o) => (o.ok ? { text: o.content, finish: o.finishReason } : null));
  const present = () => latest.filter((x): x is { text: string; finish: string } => x !== null);
  op.stage("debate:0", opening, { debaters: debaters.map((c) => c[0]!.id), agreement: meanAgreement(present().map((x) => x.text)) });

  for (let round = 1; round <= ctx.settings.rounds; round++) {
    const roundMessages = debaters.map((_, i) => debatePrompt(ctx.question, latest[i]?.text ?? "", present().filter((x) => x !== latest[i]).map((x) => x.text)));
    const worst = debaters.reduce((sum, c, i) => sum + op.worstCase(c[0]!, roundMessages[i]!), 0);
    if (!op.affords(worst) || present().length < 2) {
      op.stages.at(-1)!.detail.stopped = present().length < 2 ? "fewer than two debaters answered" : "max_cost_usd";
      break;
    }
    const turns: Outcome[] = await Promise.all(debaters.map((candidates, i) => op.call({ role: "debater", candidates, messages: roundMessages[i]! })));
    turns.forEach((t, i) => {
      if (t.ok) latest[i] = { text: revisedAnswer(t.content), finish: t.finishReason };
    });
    op.stage(`debate:${round}`, turns, { agreement: meanAgreement(present().map((x) => x.text)) });
  }

  const finals = present();
  const texts = finals.map((x) => x.text);
  const agreement = meanAgreement(texts);
  let best = consensus(texts).index;
  let judgeScore: number | null = null;
  if (finals.length > 1) {
    const { outcome: judge, verdict } = await judgeAnswers(ctx, texts);
    if (verdict?.best != null) {
      best = verdict.best;
      judgeScore = verdict.scores[best] ?? null;
    }
    op.stage("judge", [judge], { best: best + 1, scores: verdict?.scores ?? [], by: verdict?.best != null ? "judge" : "consensus" });
  } else {
    op.stage("judge", [], { skipped: "one final answer" });
  }
  const confidence = confidenceOf({ agreement: finals.length > 1 ? agreement : null, judge: judgeScore, finishReasons: finals.map((x) => x.finish) });
  return { content: texts[best]!, agreement, confidence, escalated: false };
}
