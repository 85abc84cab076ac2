import type { Signal } from "../routing/types";
import type { Policy, Strategy } from "./policy";

/**
 * Planning a strategy when the request names none (docs/orchestration.md, "Planning"): the first row
 * whose condition the prompt meets decides, and the policy picks the column. A pure function of the
 * detected signals and the shape of the last user message.
 */

/** Separate asks in one message: numbered or bulleted lines, or several questions. */
export function separateAsks(text: string): number {
  const items = text.split("\n").filter((line) => /^\s*(\d+[.)]|[-*•])\s+\S/.test(line)).length;
  const questions = (text.match(/\?(\s|$)/g) ?? []).length;
  return Math.max(items, questions);
}

interface Row {
  when: string;
  test: (signals: ReadonlySet<Signal>, asks: number) => boolean;
  pick: Readonly<Record<Policy, Strategy>>;
}

/** What each strategy does for the prompt, for the reason. */
export const WHY: Readonly<Record<Strategy, string>> = {
  single: "one routed model answers",
  cascade: "the cheapest model answers first and a stronger one is tried only while a grader is unconvinced",
  ensemble_moa: "several models of different providers answer and an aggregator synthesizes them",
  rank_fuse: "diverse drafts are ranked by a judge and the best are fused",
  decompose_and_route: "each part is routed by its own signals, then the answers are combined",
  self_consistency: "independent samples vote and the answer most of them agree on wins",
  debate: "models critique each other's answers over rounds and a judge decides",
};

const ROWS: readonly Row[] = [
  {
    when: "several separate asks",
    test: (_, asks) => asks >= 2,
    pick: { efficiency: "cascade", balanced: "decompose_and_route", depth: "decompose_and_route" },
  },
  {
    when: "math",
    test: (s) => s.has("math"),
    pick: { efficiency: "cascade", balanced: "self_consistency", depth: "self_consistency" },
  },
  {
    when: "code",
    test: (s) => s.has("code"),
    pick: { efficiency: "cascade", balanced: "cascade", depth: "ensemble_moa" },
  },
  {
    when: "reasoning",
    test: (s) => s.has("reasoning"),
    pick: { efficiency: "cascade", balanced: "rank_fuse", depth: "debate" },
  },
  {
    when: "creative",
    test: (s) => s.has("creative"),
    pick: { efficiency: "single", balanced: "rank_fuse", depth: "rank_fuse" },
  },
  {
    when: "a simple question",
    test: (s) => s.has("simple"),
    pick: { efficiency: "single", balanced: "single", depth: "ensemble_moa" },
  },
  {
    when: "no specific signal",
    test: () => true,
    pick: { efficiency: "cascade", balanced: "cascade", depth: "ensemble_moa" },
  },
];

export interface Planned {
  strategy: Strategy;
  reason: string;
}

export function planStrategy(signals: readonly Signal[], lastUserText: string, policy: Policy): Planned {
  const set = new Set(signals);
  const asks = separateAsks(lastUserText);
  const row = ROWS.find((r) => r.test(set, asks))!;
  const strategy = row.pick[policy];
  const seen = signals.length ? `signals ${signals.join(", ")}` : "no signals";
  return {
    strategy,
    reason: `Planned from the prompt (${seen}; ${asks} separate ask${asks === 1 ? "" : "s"}): ${row.when}, so the ${policy} policy runs ${strategy}: ${WHY[strategy]}.`,
  };
}

export function forcedReason(strategy: Strategy, policy: Policy): string {
  return `Strategy ${strategy} was requested; the ${policy} policy sets its width, depth and confidence bar: ${WHY[strategy]}.`;
}
