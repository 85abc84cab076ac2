import type { ChatMessage } from "../providers/types";

/**
 * The prompts the strategies send. They are plain instructions a real model follows; the sandbox
 * upstream recognises them by what they ask (src/sandbox/behaviours.ts), as a model would.
 */

/** Candidates as numbered blocks: `[1]`, `[2]`, ... at the start of a line. */
export const numbered = (texts: readonly string[]) => texts.map((t, i) => `[${i + 1}]\n${t.trim()}`).join("\n\n");

const user = (content: string): ChatMessage => ({ role: "user", content });
const system = (content: string): ChatMessage => ({ role: "system", content });

/** Asks for a 0-1 score per candidate and the best one, as JSON. One candidate makes it a grader. */
export const judgePrompt = (question: string, candidates: readonly string[]): ChatMessage[] => [
  system(
    'You are a strict judge. Score each candidate answer to the question from 0 to 1 for correctness, completeness and how directly it answers. Reply with JSON only: {"scores": [one number per candidate, in order], "best": <number of the best candidate>}.',
  ),
  user(`Question:\n${question}\n\nCandidate answers:\n\n${numbered(candidates)}`),
];

export const aggregatePrompt = (question: string, candidates: readonly string[]): ChatMessage[] => [
  system(
    "You are an aggregator. Synthesize the single best answer to the question from the candidate answers below: keep what they agree on, resolve disagreements, drop errors. Reply with the answer only.",
  ),
  user(`Question:\n${question}\n\nCandidate answers:\n\n${numbered(candidates)}`),
];

export const decomposePrompt = (question: string): ChatMessage[] => [
  system(
    'Split the user\'s request into 2 to 4 independent subtasks that together answer it (fewer if it cannot be split). Reply with JSON only: {"subtasks": ["...", "..."]}.',
  ),
  user(question),
];

export const combinePrompt = (question: string, parts: ReadonlyArray<{ subtask: string; answer: string }>): ChatMessage[] => [
  system("Combine the answers to the subtasks below into one coherent answer to the original question. Reply with the answer only."),
  user(`Question:\n${question}\n\nSubtask answers:\n\n${numbered(parts.map((p) => `Subtask: ${p.subtask}\n${p.answer}`))}`),
];

export const REVISED_MARKER = "Revised answer:";

export const debatePrompt = (question: string, own: string, others: readonly string[]): ChatMessage[] => [
  system(
    `You are in a debate. Other participants answered the same question. Critique their answers briefly, then give your own best answer after a line "${REVISED_MARKER}".`,
  ),
  user(`Question:\n${question}\n\nYour previous answer:\n${own.trim()}\n\nOther answers:\n\n${numbered(others)}`),
];

/** The answer part of a debate turn (all of it when the marker is missing). */
export function revisedAnswer(reply: string): string {
  const at = reply.lastIndexOf(REVISED_MARKER);
  return (at === -1 ? reply : reply.slice(at + REVISED_MARKER.length)).trim();
}
