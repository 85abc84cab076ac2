/**
 * The held-out figures (docs/routing.md, "Measured accuracy"): computed by `npm run eval:router`
 * and checked by test/routing/router-eval.node.test.ts against data/router/heldout-figures.json.
 */
import { MODELS, type Tier } from "../../src/catalog/models";
import { blendedUsdPerMtok } from "../../src/cost/money";
import { TIERS } from "../../src/routing/tiers";
import { route } from "../../src/routing/router";
import { SIGNALS, type Difficulty, type Signal } from "../../src/routing/types";
import type { Item } from "./corpus/kit";

/** The intents a corpus label can name: every signal but long_context, which is a size, not an intent. */
export const LABELED: readonly Signal[] = SIGNALS.filter((s) => s !== "long_context");

export interface Figures {
  prompts: number;
  intents: Record<string, { precision: number; recall: number; support: number }>;
  /** Share of prompts whose detected intents are exactly the labeled ones, and whose difficulty is the labeled one. */
  languages: Record<string, { prompts: number; intent_accuracy: number; difficulty_accuracy: number }>;
  intent_exact: number;
  difficulty_accuracy: number;
  /** Balanced mode: labeled difficulty -> chosen tier -> prompts. */
  tier_matrix: Record<Difficulty, Record<Tier, number>>;
  strong_on_premium_or_frontier: number;
  strong_underpowered: number;
  light_on_budget: number;
  light_overspent: number;
  /** Blended USD per million tokens of the chosen model, averaged over prompts, and of always the cheapest frontier model. */
  avg_usd_per_mtok: number;
  frontier_usd_per_mtok: number;
}

const ratio = (a: number, b: number) => (b === 0 ? 1 : Math.round((a / b) * 10000) / 10000);

export function measure(items: readonly Omit<Item, "split">[]): Figures {
  const counts = new Map<string, { tp: number; fp: number; fn: number }>(LABELED.map((s) => [s, { tp: 0, fp: 0, fn: 0 }]));
  const langs = new Map<string, { n: number; intent: number; difficulty: number }>();
  const matrix = Object.fromEntries(["light", "standard", "strong"].map((d) => [d, Object.fromEntries(TIERS.map((t) => [t, 0]))])) as Figures["tier_matrix"];
  let exact = 0;
  let difficultyRight = 0;
  let usd = 0;
  for (const item of items) {
    const d = route({ messages: item.messages, model: "auto", routingMode: "balanced", allowedModels: null, maxTokens: 1000 });
    const labeled = new Set<string>(item.intents);
    const detected = new Set<string>(LABELED.filter((s) => d.signals_detected[s]));
    for (const s of LABELED) {
      const c = counts.get(s)!;
      if (labeled.has(s) && detected.has(s)) c.tp++;
      else if (detected.has(s)) c.fp++;
      else if (labeled.has(s)) c.fn++;
    }
    const intentOk = labeled.size === detected.size && [...labeled].every((s) => detected.has(s));
    const difficultyOk = d.difficulty === item.capability;
    exact += Number(intentOk);
    difficultyRight += Number(difficultyOk);
    const l = langs.get(item.lang) ?? { n: 0, intent: 0, difficulty: 0 };
    l.n++;
    l.intent += Number(intentOk);
    l.difficulty += Number(difficultyOk);
    langs.set(item.lang, l);
    matrix[item.capability][d.tier]++;
    usd += blendedUsdPerMtok(d.candidates[0]!);
  }
  const row = (c: Difficulty) => Object.values(matrix[c]).reduce((a, b) => a + b, 0);
  const strongHigh = matrix.strong.premium + matrix.strong.frontier;
  const frontier = Math.min(...MODELS.filter((m) => m.tier === "frontier").map(blendedUsdPerMtok));
  return {
    prompts: items.length,
    intents: Object.fromEntries(
      LABELED.map((s) => {
        const c = counts.get(s)!;
        return [s, { precision: ratio(c.tp, c.tp + c.fp), recall: ratio(c.tp, c.tp + c.fn), support: c.tp + c.fn }];
      }),
    ),
    languages: Object.fromEntries(
      [...langs].sort().map(([lang, l]) => [lang, { prompts: l.n, intent_accuracy: ratio(l.intent, l.n), difficulty_accuracy: ratio(l.difficulty, l.n) }]),
    ),
    intent_exact: ratio(exact, items.length),
    difficulty_accuracy: ratio(difficultyRight, items.length),
    tier_matrix: matrix,
    strong_on_premium_or_frontier: ratio(strongHigh, row("strong")),
    strong_underpowered: ratio(row("strong") - strongHigh, row("strong")),
    light_on_budget: ratio(matrix.light.budget, row("light")),
    light_overspent: ratio(row("light") - matrix.light.budget, row("light")),
    avg_usd_per_mtok: Math.round((usd / items.length) * 10000) / 10000,
    frontier_usd_per_mtok: frontier,
  };
}
