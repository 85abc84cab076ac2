import { parseJsonObject, unitScore } from "../orchestrate/text";

/** The critic's verdict (SPEC.md 2.4 `review` without the reviewer). */
export interface Verdict {
  passed: boolean;
  score: number;
  issues: string[];
  /** False when the reply held no readable JSON verdict. */
  readable: boolean;
}

export const UNREADABLE_ISSUE = "The review could not be read as a JSON verdict ({passed, score, issues}), so it does not count as passed.";

/**
 * The verdict from the critic's reply, tolerantly: the first JSON object (fenced or with prose
 * around it); `passed` only when it is literally true; `score` 0-1 (0-10 and 0-100 rescaled;
 * missing: 1 if passed, else 0); `issues` the strings given. No readable JSON: not passed, score 0,
 * one issue saying so.
 */
export function parseVerdict(reply: string): Verdict {
  const json = parseJsonObject(reply);
  if (!json || !("passed" in json)) return { passed: false, score: 0, issues: [UNREADABLE_ISSUE], readable: false };
  const passed = json.passed === true;
  const issues = Array.isArray(json.issues) ? json.issues.filter((i): i is string => typeof i === "string" && i.trim() !== "") : [];
  return { passed, score: unitScore(json.score) ?? (passed ? 1 : 0), issues, readable: true };
}
