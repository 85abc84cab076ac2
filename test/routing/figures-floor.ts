import { describe, expect, it } from "vitest";
import type { Figures } from "../../data/router/metrics";

const EPS = 1e-9;

/**
 * The routing figures a set of prompts gives now against the ones committed for it (`npm run
 * eval:router -- --write`): no figure may fall, and the committed file must be what the shipped
 * weights give. Shared by the held-out fifth's test and the independent set's.
 */
export function describeFloor(title: string, now: Figures, committed: Figures): void {
  describe(title, () => {
    it("per intent, precision and recall do not fall below the committed ones", () => {
      for (const [intent, m] of Object.entries(committed.intents)) {
        expect(now.intents[intent]!.precision, `${intent} precision`).toBeGreaterThanOrEqual(m.precision - EPS);
        expect(now.intents[intent]!.recall, `${intent} recall`).toBeGreaterThanOrEqual(m.recall - EPS);
      }
    });

    it("per language, intent and difficulty accuracy do not fall below the committed ones", () => {
      for (const [lang, m] of Object.entries(committed.languages)) {
        expect(now.languages[lang]!.intent_accuracy, lang).toBeGreaterThanOrEqual(m.intent_accuracy - EPS);
        expect(now.languages[lang]!.difficulty_accuracy, lang).toBeGreaterThanOrEqual(m.difficulty_accuracy - EPS);
      }
    });

    it("strong prompts reach premium/frontier and light ones stay on budget at least as often, for no more money", () => {
      expect(now.strong_on_premium_or_frontier).toBeGreaterThanOrEqual(committed.strong_on_premium_or_frontier - EPS);
      expect(now.light_on_budget).toBeGreaterThanOrEqual(committed.light_on_budget - EPS);
      expect(now.intent_exact).toBeGreaterThanOrEqual(committed.intent_exact - EPS);
      expect(now.difficulty_accuracy).toBeGreaterThanOrEqual(committed.difficulty_accuracy - EPS);
      expect(now.avg_usd_per_mtok).toBeLessThanOrEqual(committed.avg_usd_per_mtok * 1.05);
    });

    it("the committed figures are the ones the shipped weights give (not hand-edited)", () => {
      expect(now).toEqual(committed);
    });
  });
}
