import { describe, expect, it } from "vitest";
import { confidenceOf, finishScore } from "../../src/orchestrate/confidence";
import { planStrategy, separateAsks } from "../../src/orchestrate/plan";
import { readVerdict } from "../../src/orchestrate/strategies/context";
import { coverage, readSubtasks } from "../../src/orchestrate/strategies/decompose";
import { consensus, meanAgreement, parseJsonObject, similarity, unitScore, wordSet } from "../../src/orchestrate/text";

describe("orchestration formulas (docs/orchestration.md)", () => {
  it("answers compare as sets of normalised words (Jaccard)", () => {
    expect([...wordSet("The Sky is BLUE, the sky!")].sort()).toEqual(["blue", "sky"]);
    expect(similarity(wordSet("red green blue"), wordSet("blue green red"))).toBe(1);
    expect(similarity(wordSet("red green"), wordSet("green blue"))).toBeCloseTo(1 / 3, 10);
    expect(similarity(wordSet("red"), wordSet("blue"))).toBe(0);
  });

  it("agreement is the mean pairwise similarity, 1 for a lone answer", () => {
    expect(meanAgreement(["a b c d"])).toBe(1);
    // pairs: (x,y) = 1/3, (x,z) = 0, (y,z) = 0
    expect(meanAgreement(["red green", "green blue", "cat"])).toBe(0.1111);
  });

  it("consensus picks the medoid; support is the share within 0.6 of it", () => {
    const c = consensus(["four is the answer", "the answer is four", "five is the answer"]);
    expect(c.index).toBe(0);
    expect(c.support).toBe(0.6667);
  });

  it("confidence = 0.4 A + 0.4 J + 0.2 F, absent evidence neutral at 0.5", () => {
    expect(confidenceOf({ agreement: null, judge: null, finishReasons: ["stop"] })).toBe(0.6);
    expect(confidenceOf({ agreement: 0.5, judge: 0.9, finishReasons: ["stop", "length"] })).toBe(0.71);
    expect(finishScore("content_filter")).toBe(0.25);
    expect(confidenceOf({ agreement: 0, judge: 0, finishReasons: [] })).toBe(0);
    expect(confidenceOf({ agreement: 1, judge: 1, finishReasons: ["stop"] })).toBe(1);
  });

  it("reads model JSON tolerantly: fenced, with prose, rescaled scores", () => {
    expect(parseJsonObject('Sure! ```json\n{"scores": [0.5]}\n``` done')).toEqual({ scores: [0.5] });
    expect(parseJsonObject('{"best": 2, "note": "a } brace"} and then prose')).toEqual({ best: 2, note: "a } brace" });
    expect(parseJsonObject("no json here")).toBeNull();
    expect(unitScore(8)).toBe(0.8);
    expect(unitScore(85)).toBe(0.85);
    expect(unitScore(-1)).toBeNull();
    expect(readVerdict('{"scores": [0.2, 0.9, 0.4]}', 3)).toEqual({ scores: [0.2, 0.9, 0.4], best: 1 });
    expect(readVerdict('{"score": 7}', 1)).toEqual({ scores: [0.7], best: 0 });
    expect(readVerdict("I cannot decide.", 2)).toEqual({ scores: [null, null], best: null });
    expect(readSubtasks('{"subtasks": ["a", "", 3, "b"]}')).toEqual(["a", "b"]);
  });

  it("decompose agreement is the synthesis's coverage of the parts", () => {
    expect(coverage(["red green", "blue"], "red green blue")).toBe(1);
    expect(coverage(["red green", "blue"], "red")).toBe(0.25);
  });

  it("plans a strategy from the signals and the policy", () => {
    expect(separateAsks("1. a\n2. b\n- c")).toBe(3);
    expect(separateAsks("Why? And how?")).toBe(2);
    expect(planStrategy(["math"], "2+2", "balanced").strategy).toBe("self_consistency");
    expect(planStrategy(["math"], "2+2", "efficiency").strategy).toBe("cascade");
    expect(planStrategy(["reasoning"], "why", "depth").strategy).toBe("debate");
    expect(planStrategy(["simple"], "hi", "balanced")).toMatchObject({ strategy: "single", reason: expect.stringContaining("a simple question") });
    expect(planStrategy([], "1. a\n2. b", "depth").strategy).toBe("decompose_and_route");
  });
});
