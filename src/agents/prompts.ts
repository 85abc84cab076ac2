import type { ChatMessage } from "../providers/types";

/** The messages of the planning call, each sub-task and the finalize step (docs/agents.md). */

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

export function planMessages(goal: string, maxItems: number): ChatMessage[] {
  return [
    {
      role: "system",
      content: `You are a planner. Split the user's goal into at most ${maxItems} concrete sub-tasks that together achieve it. Answer with a numbered list only: one sub-task per line, "1.", "2.", and so on.`,
    },
    { role: "user", content: goal },
  ];
}

/** Numbered lines of a planner's answer; a plan the model did not number is one sub-task: the goal. */
export function parsePlan(answer: string, goal: string, maxItems: number): string[] {
  const items: string[] = [];
  for (const line of answer.split("\n")) {
    const m = /^\s*(?:\d{1,4}[.)]|[-*])\s+(.+?)\s*$/.exec(line);
    if (m) items.push(m[1]!);
    if (items.length === maxItems) break;
  }
  return items.length ? items : [clip(goal.trim(), 2000)];
}

export function subtaskMessages(goal: string, subtask: string, previous: string | null): ChatMessage[] {
  const context = previous === null ? "" : `\n\nThe previous sub-task's result:\n${clip(previous, 1500)}`;
  return [
    { role: "system", content: `You are an agent working on one sub-task of a larger goal. The goal: ${clip(goal, 4000)}${context}` },
    { role: "user", content: subtask },
  ];
}

export function finalizeMessages(goal: string, plan: readonly string[], outputs: readonly string[]): ChatMessage[] {
  const results = outputs.map((o, i) => `${i + 1}. ${clip(plan[i] ?? "", 200)}\n${clip(o, 1000)}`).join("\n\n");
  return [
    { role: "system", content: "Consolidate the results of the sub-tasks into one final answer to the goal. Answer with the final result only." },
    { role: "user", content: `Goal: ${clip(goal, 4000)}\n\nResults:\n${results}` },
  ];
}
