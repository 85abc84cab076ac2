import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CAPABILITIES, INTENTS } from "../../data/router/corpus/kit";
import { INDEPENDENT_FIGURES_FILE, readIndependent } from "../../data/router/eval";
import { readCorpus } from "../../data/router/examples";
import { measure, type Figures } from "../../data/router/metrics";
import { describeFloor } from "./figures-floor";

/**
 * The routing classifier against its committed figures on the independent set (docs/routing.md,
 * "The independent set"): prompts written by hand apart from the corpus, which training never reads.
 * A retraining that makes any of them worse fails here; a better one is committed with
 * `npm run eval:router -- --set independent --write`.
 */

const set = readIndependent();
const committed = JSON.parse(readFileSync(INDEPENDENT_FIGURES_FILE, "utf8")) as Figures;

describe("the independent set (data/router/independent/)", () => {
  it("parses, and every prompt has a unique id, a known label and a conversation ending in a message", () => {
    const ids = new Set(set.map((i) => i.id));
    expect(ids.size).toBe(set.length);
    for (const i of set) {
      expect(i.family, i.id).toBe("independent");
      expect(i.split, i.id).toBe("independent");
      expect(CAPABILITIES, i.id).toContain(i.capability);
      for (const intent of i.intents) expect(INTENTS, i.id).toContain(intent);
      expect(new Set(i.intents).size, i.id).toBe(i.intents.length);
      if (i.intents.includes("simple")) expect(i.intents, i.id).toEqual(["simple"]);
      expect(i.messages.length, i.id).toBeGreaterThan(0);
      for (const m of i.messages) {
        expect(["user", "assistant"], i.id).toContain(m.role);
        expect(m.content.trim().length, i.id).toBeGreaterThan(0);
      }
    }
  });

  it("has 700+ prompts, 150+ English and 65+ in each other language, every intent and capability", () => {
    expect(set.length).toBeGreaterThanOrEqual(700);
    const perLang = new Map<string, number>();
    for (const i of set) perLang.set(i.lang, (perLang.get(i.lang) ?? 0) + 1);
    expect(perLang.get("en")).toBeGreaterThanOrEqual(150);
    for (const lang of ["es", "fr", "de", "pt", "it", "ru", "zh", "ja"]) expect(perLang.get(lang), lang).toBeGreaterThanOrEqual(65);
    for (const intent of INTENTS) expect(set.some((i) => i.intents.includes(intent)), intent).toBe(true);
    for (const c of CAPABILITIES) expect(set.some((i) => i.capability === c), c).toBe(true);
  });

  it("shares no prompt with the corpus", () => {
    const corpusLast = new Set(readCorpus().map((i) => i.messages.at(-1)!.content));
    expect(set.filter((i) => i.messages.length === 1 && corpusLast.has(i.messages[0]!.content)).map((i) => i.id)).toEqual([]);
  });
});

describeFloor("independent figures (data/router/independent-figures.json)", measure(set), committed);
