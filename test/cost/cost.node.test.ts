import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MODELS } from "../../src/catalog/models";
import { eligible, exclusion, fitsContext, notBlocked, onPlan, withinCap, worstCaseNanos } from "../../src/cost/guard";
import { capNanos, costNanos, costUsd, nanosPerToken, usdFromNanos } from "../../src/cost/money";
import { estimatePromptTokens, estimateTokens, tokenUpperBound } from "../../src/cost/tokens";

const model = fc.constantFrom(...MODELS);
const tokens = fc.nat({ max: 2_000_000 });

describe("cost guard: money as integers", () => {
  it("every catalog price is a whole number of nano-dollars a token", () => {
    for (const m of MODELS) {
      for (const p of [m.input_usd_per_mtok, m.output_usd_per_mtok]) expect(Math.abs(nanosPerToken(p) - p * 1000)).toBeLessThan(1e-6);
    }
  });

  it("costs are exact integers, additive over calls, and print as exact decimals", () => {
    fc.assert(
      fc.property(model, fc.array(fc.tuple(tokens, tokens), { minLength: 1, maxLength: 20 }), (m, calls) => {
        let sum = 0;
        for (const [p, c] of calls) {
          const cost = costNanos(m, p, c);
          expect(Number.isSafeInteger(cost.total)).toBe(true);
          expect(cost.total).toBe(cost.input + cost.output);
          sum += cost.total;
        }
        const all = costNanos(m, calls.reduce((a, [p]) => a + p, 0), calls.reduce((a, [, c]) => a + c, 0));
        expect(sum).toBe(all.total);
        // Dollars have at most nine decimals, and read back to the same nanos.
        const usd = usdFromNanos(sum);
        expect(Math.round(usd * 1e9)).toBe(sum);
        expect(String(usd)).not.toMatch(/\d{10,}/);
      }),
    );
  });

  it("a sum the float way goes wrong, the nano way does not (the SPEC's example of 0.0001129)", () => {
    const m = MODELS.find((x) => x.id === "gpt-5-nano")!;
    const float = costUsd(m, 1000, 0).total_usd * 3 + 0.0000279;
    expect(float).not.toBe(0.0001779);
    expect(usdFromNanos(costNanos(m, 3000, 0).total + 27_900)).toBe(0.0001779);
  });
});

describe("cost guard: worst case and eligibility", () => {
  it("the worst case bounds the real cost of every call that writes at most max_tokens", () => {
    fc.assert(
      fc.property(model, tokens, tokens, fc.nat(), (m, promptTokens, maxTokens, written) => {
        const completion = maxTokens === 0 ? 0 : written % (maxTokens + 1);
        expect(costNanos(m, promptTokens, completion).total).toBeLessThanOrEqual(worstCaseNanos(m, { promptTokens, maxTokens }));
      }),
    );
  });

  it("with n completions the worst case bounds n answers of max_tokens each, the prompt billed once", () => {
    fc.assert(
      fc.property(model, tokens, tokens, fc.integer({ min: 1, max: 8 }), fc.array(fc.nat(), { minLength: 8, maxLength: 8 }), (m, promptTokens, maxTokens, n, written) => {
        const completion = written.slice(0, n).reduce((sum, w) => sum + (maxTokens === 0 ? 0 : w % (maxTokens + 1)), 0);
        expect(costNanos(m, promptTokens, completion).total).toBeLessThanOrEqual(worstCaseNanos(m, { promptTokens, maxTokens, completions: n }));
      }),
    );
    const nano = MODELS.find((x) => x.id === "gpt-5-nano")!;
    expect(worstCaseNanos(nano, { promptTokens: 10, maxTokens: 100, completions: 3 })).toBe(costNanos(nano, 10, 300).total);
    // The context holds one completion at a time: n does not change what fits.
    expect(fitsContext({ promptTokens: 10, maxTokens: 271_990, completions: 8 })(nano)).toBeNull();
  });

  it("withinCap admits a model only when its worst case is at most the cap, to the nano-dollar", () => {
    fc.assert(
      fc.property(model, tokens, fc.nat({ max: 100_000 }), fc.double({ min: 0, max: 50, noNaN: true }), (m, promptTokens, maxTokens, cap) => {
        const shape = { promptTokens, maxTokens };
        const admitted = withinCap(shape, cap)(m) === null;
        expect(admitted).toBe(worstCaseNanos(m, shape) <= capNanos(cap));
        if (admitted) expect(usdFromNanos(worstCaseNanos(m, shape))).toBeLessThanOrEqual(cap);
      }),
    );
  });

  it("predicates compose: the first reason wins, and no reason means eligible", () => {
    const nano = MODELS.find((x) => x.id === "gpt-5-nano")!;
    const shape = { promptTokens: 10, maxTokens: 100 };
    const rules = [onPlan(["gpt-5-mini"]), notBlocked(new Set(["gpt-5-nano"])), fitsContext(shape), withinCap(shape, 0)];
    expect(exclusion(nano, rules)).toBe("is not available on your plan");
    expect(exclusion(nano, rules.slice(1))).toBe("is blocked by brain_config");
    expect(exclusion(nano, rules.slice(3))).toMatch(/^could cost up to \$0\.0000405, over max_cost_per_request \$0$/);
    expect(eligible(nano, [onPlan(null), fitsContext(shape), withinCap(shape, 1)])).toBe(true);
    expect(fitsContext({ promptTokens: 272_000, maxTokens: 1 })(nano)).toMatch(/cannot hold 272000 prompt \+ 1 completion tokens/);
  });
});

describe("cost guard: token estimates and bounds", () => {
  it("estimates about 4 characters a token, rounded up", () => {
    expect(estimateTokens("")).toBe(0);
    expect(estimateTokens("abcd")).toBe(1);
    expect(estimateTokens("abcde")).toBe(2);
    expect(estimatePromptTokens([{ content: "abc" }, { content: "de" }])).toBe(2);
  });

  it("the byte bound is never below the estimate, and counts UTF-8 bytes", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme" }), { maxLength: 5 }), (texts) => {
        const msgs = texts.map((content) => ({ content }));
        expect(tokenUpperBound(msgs, 0)).toBeGreaterThanOrEqual(estimatePromptTokens(msgs));
      }),
    );
    expect(tokenUpperBound([{ content: "é🙂" }], 0)).toBe(6);
    expect(tokenUpperBound([{ content: "" }, { content: "" }])).toBe(16);
  });
});
