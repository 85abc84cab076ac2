/**
 * The sandbox as a planner, chosen by the prompt (as a real model is): asked by a system prompt that
 * begins "You are a planner" for at most N sub-tasks, it answers a numbered list. A goal that is
 * itself a numbered list is kept item by item; otherwise the goal's sentences become the sub-tasks.
 */
import type { SandboxPrompt } from "./answer";

export function plannerAnswer(prompt: SandboxPrompt, goal: string): string | null {
  if (!/^You are a planner\b/.test(prompt.system)) return null;
  const max = Number(/at most (\d+) /.exec(prompt.system)?.[1] ?? 5);
  const numbered = goal.split("\n").map((l) => /^\s*\d{1,4}[.)]\s+(.+)$/.exec(l)?.[1]).filter((x): x is string => !!x);
  const items = numbered.length
    ? numbered
    : goal
        .split(/(?<=[.!?;])\s+|\n+/)
        .map((s) => s.trim())
        .filter(Boolean);
  const plan = (items.length ? items : [goal.trim() || "Answer the goal."]).slice(0, Math.max(1, max));
  return plan.map((item, i) => `${i + 1}. ${item}`).join("\n");
}
