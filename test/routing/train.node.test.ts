import { describe, expect, it } from "vitest";
import { readCorpus, toExample } from "../../data/router/examples";
import { quantize, train, TRAIN_OPTIONS } from "../../data/router/train";
import { chooseShifts, SHIFTS } from "../../data/router/validate";
import { K, OUTPUTS } from "../../src/routing/classifier";
import { MODEL } from "../../src/routing/classifier-weights";
import { BUCKETS, scan, scanMessage } from "../../src/routing/features";

/**
 * The trainer (docs/routing.md, "Training and evaluation"): deterministic, and its threshold search
 * wide enough for the under-confidence of unseen request shapes.
 */

const trainItems = readCorpus().filter((i) => i.split === "train");
// Every 20th train prompt: enough to exercise every output, quick to fit.
const sample = trainItems.filter((_, n) => n % 20 === 0).map(toExample);

describe("training", () => {
  it("is deterministic: two fits on the same prompts give the same weights, bit for bit", () => {
    const options = { ...TRAIN_OPTIONS, epochs: 3 };
    const a = train(sample, options);
    const b = train(sample, options);
    expect(a.w.length).toBe(BUCKETS * K);
    expect(Buffer.from(a.w.buffer).equals(Buffer.from(b.w.buffer))).toBe(true);
    expect([...a.bias]).toEqual([...b.bias]);
    expect(Buffer.from(quantize(a.w).q.buffer).equals(Buffer.from(quantize(b.w).q.buffer))).toBe(true);
    // And it learned something: not all weights are zero.
    expect(a.w.some((v) => v !== 0)).toBe(true);
  });

  it("regularizes an output named in outputL2 on its own (reasoning, since the ninth pass), the others as before", () => {
    expect(TRAIN_OPTIONS.outputL2.reasoning).toBeGreaterThan(TRAIN_OPTIONS.l2);
    const base = { ...TRAIN_OPTIONS, epochs: 3, outputL2: {} };
    const plain = train(sample, base);
    const tight = train(sample, { ...base, outputL2: { reasoning: 100 * base.l2 } });
    const norm = (w: Float64Array, k: number) => {
      let sum = 0;
      for (let b = 0; b < BUCKETS; b++) sum += w[b * K + k]! ** 2;
      return sum;
    };
    const reasoning = OUTPUTS.indexOf("reasoning");
    expect(norm(tight.w, reasoning)).toBeLessThan(norm(plain.w, reasoning));
    for (let k = 0; k < K; k++) if (k !== reasoning) expect(norm(tight.w, k)).toBe(norm(plain.w, k));
  });

  it("ships weights for the feature layout it trains (2^15 buckets, one int8 per bucket and output)", () => {
    expect(MODEL.buckets).toBe(BUCKETS);
    expect(BUCKETS).toBe(2 ** 15);
    expect(atob(MODEL.weights).length).toBe(BUCKETS * K);
  });
});

describe("threshold shifts (validate.ts, chooseShifts)", () => {
  it("search up to three logits either way, nearest zero first", () => {
    expect(SHIFTS[0]).toBe(0);
    expect(Math.max(...SHIFTS)).toBe(3);
    expect(Math.min(...SHIFTS)).toBe(-3);
  });

  it("move an intent that unseen shapes under-score past the old one-logit bound", () => {
    const k = OUTPUTS.indexOf("extraction");
    // Out-of-fold logits: every labeled extraction at -1.6, everything else at -4 (and far below on the other outputs).
    const zs = sample.map((e) => {
      const z = new Float64Array(K).fill(-6);
      z[k] = e.y[k] === 1 ? -1.6 : -4;
      return z;
    });
    expect(sample.some((e) => e.y[k] === 1)).toBe(true);
    const shift = chooseShifts(sample, zs)[k]!;
    expect(shift).toBeGreaterThanOrEqual(1.75);
    expect(shift).toBeLessThanOrEqual(3);
  });

  it("give up at most a point and a half of difficulty accuracy for the tier bars, and take what clears them best within it", () => {
    const standard = OUTPUTS.indexOf("standard");
    const strong = OUTPUTS.indexOf("strong");
    // Strong prompts' strong logit at -1.5, everyone else's at -5: a shift of 1.5 or more reads every
    // strong prompt as strong and costs nothing, so it is taken; the standard head is read rightly at 0.
    const zs = sample.map((e) => {
      const z = new Float64Array(K).fill(-6);
      z[strong] = e.item.capability === "strong" ? -1.5 : -5;
      z[standard] = e.item.capability === "light" ? -2 : 2;
      return z;
    });
    const shifts = chooseShifts(sample, zs);
    expect(shifts[strong]).toBeGreaterThanOrEqual(1.5);
    expect(shifts[strong]).toBeLessThan(3);
    expect(Math.abs(shifts[standard]!)).toBeLessThan(2);
  });
});

describe("the scan's groups (features.ts, issue 15's tenth pass)", () => {
  const bodyWords = (text: string) => {
    scanMessage(text);
    return scan.body - scan.request;
  };
  it("reads a long quoted text inside a one-line message as pasted body, in any quotes", () => {
    expect(bodyWords("Nota de mi madre: «Llama al centro de salud antes de las 12 y pide cita para el jueves». ¿A quién tengo que llamar?")).toBeGreaterThan(10);
    expect(bodyWords("Classify this review as positive, negative or neutral: 'The delivery was late but the food was great.'")).toBeGreaterThan(5);
    expect(bodyWords("妈妈留的纸条：“中午12点前给社区医院打电话，约周四张医生的号。”我要给谁打电话？")).toBeGreaterThan(10);
  });
  it("keeps a short quoted phrase, apostrophes and unquoted text in the request", () => {
    expect(bodyWords("Translate 'good luck with the exam' into French.")).toBe(0);
    expect(bodyWords("It's what I said: don't do that, it's a long sentence with apostrophes, isn't it? I'd say so.")).toBe(0);
    expect(bodyWords("What is the capital of France?")).toBe(0);
  });
  it("gives the difficulty heads their own features only where an intent has a cue", () => {
    scanMessage("Write a haiku about autumn leaves.");
    expect(scan.difficulty).toBeGreaterThan(scan.body);
    scanMessage("hello there");
    expect(scan.difficulty).toBe(scan.body);
  });
});
