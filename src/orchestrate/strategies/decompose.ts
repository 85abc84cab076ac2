import type { ChatMessage } from "../../providers/types";
import { detectSignals, signalNames } from "../../routing/signals";
import { confidenceOf } from "../confidence";
import { capped, chain, judgeChain } from "../pool";
import { combinePrompt, decomposePrompt } from "../prompts";
import { parseJsonObject, round4, wordSet } from "../text";
import { answersOrFail, required, type StrategyContext, type StrategyResult } from "./context";

export const MAX_SUBTASKS = 4;
const PLANNER_MAX_TOKENS = 512;

/** The planner's subtasks, tolerantly: a JSON object with a `subtasks` string array; at most four. */
export function readSubtasks(reply: string): string[] {
  const json = parseJsonObject(reply);
  const list = Array.isArray(json?.subtasks) ? json.subtasks : [];
  return list.filter((s): s is string => typeof s === "string" && s.trim() !== "").map((s) => s.trim()).slice(0, MAX_SUBTASKS);
}

/** Share of a part's words the synthesis kept, averaged over the parts (1 with no parts). */
export function coverage(parts: readonly string[], synthesis: string): number {
  if (!parts.length) return 1;
  const kept = wordSet(synthesis);
  let sum = 0;
  for (const p of parts) {
    const words = wordSet(p);
    let hit = 0;
    for (const w of words) if (kept.has(w)) hit++;
    sum += words.size ? hit / words.size : 1;
  }
  return round4(sum / parts.length);
}

/**
 * `decompose_and_route`: a cheap planner splits the request into up to four subtasks, each subtask
 * is routed by its own signals (a math part to a reasoning model, a lookup to a budget one) and
 * answered in parallel, and a synthesizer combines the parts. Stages `decompose`, `subtasks`,
 * `synthesize`. Agreement is the synthesis's coverage of the parts. An unreadable plan runs the
 * request as one subtask; a failed synthesizer returns the parts in order.
 */
export async function decomposeAndRoute(ctx: StrategyContext): Promise<StrategyResult> {
  const { op } = ctx;
  const planMessages = decomposePrompt(ctx.question);
  const plannerChain = required(chain(capped(ctx.pool, PLANNER_MAX_TOKENS), planMessages, "agility"), "planner");
  const planner = await op.call({ role: "planner", candidates: plannerChain, messages: planMessages, maxTokens: PLANNER_MAX_TOKENS, temperature: 0 });
  const planned = planner.ok ? readSubtasks(planner.content) : [];
  const subtasks = planned.length ? planned : [ctx.question];
  op.stage("decompose", [planner], { subtasks: subtasks.length, planned: planned.length > 0 });

  const context = ctx.messages.filter((m) => m.role === "system");
  const routed = subtasks.map((subtask) => {
    const messages: ChatMessage[] = [...context, { role: "user", content: subtask }];
    return { messages, candidates: required(chain(ctx.pool, messages, ctx.settings.mode), "subtask"), signals: signalNames(detectSignals(messages).signals) };
  });
  const answers = await Promise.all(routed.map((r) => op.call({ role: "subtask", candidates: r.candidates, messages: r.messages })));
  const ok = answersOrFail(answers, "subtasks");
  op.stage("subtasks", answers, { routes: routed.map((r) => ({ model: r.candidates[0]!.id, signals: r.signals })), answered: ok.length });

  const parts = subtasks.flatMap((subtask, i) => (answers[i]!.ok ? [{ subtask, answer: (answers[i] as { content: string }).content }] : []));
  const finishes = ok.map((o) => o.finishReason);
  if (parts.length === 1 && subtasks.length === 1) {
    op.stage("synthesize", [], { skipped: "one subtask" });
    return { content: parts[0]!.answer, agreement: 1, confidence: confidenceOf({ agreement: null, judge: null, finishReasons: finishes }), escalated: false };
  }
  const messages = combinePrompt(ctx.question, parts);
  const synth = await op.call({ role: "synthesizer", candidates: required(judgeChain(ctx.pool, messages, ctx.settings.mode, ctx.judgeModel), "synthesizer"), messages });
  const content = synth.ok ? synth.content : parts.map((p) => `${p.subtask}\n\n${p.answer}`).join("\n\n");
  const agreement = coverage(parts.map((p) => p.answer), content);
  // A failed subtask leaves a gap the synthesis cannot cover: it counts as 0 coverage.
  const covered = round4((agreement * parts.length) / subtasks.length);
  const confidence = confidenceOf({ agreement: covered, judge: null, finishReasons: synth.ok ? [...finishes, synth.finishReason] : finishes });
  if (synth.ok) synth.confidence = confidence;
  op.stage("synthesize", [synth], synth.ok ? { parts: parts.length, coverage: covered } : { parts: parts.length, coverage: covered, fallback: "the synthesizer failed; the parts are returned in order" });
  return { content, agreement: covered, confidence, escalated: false };
}
