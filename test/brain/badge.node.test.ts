import { describe, expect, it } from "vitest";
import {
  badgeSpec,
  badgeText,
  DEFAULT_LABEL,
  escapeXml,
  etagMatches,
  MAX_BADGE_CHARS,
  renderBadge,
  TIER_COLORS,
  UNKNOWN_COLOR,
} from "../../src/brain/badge";
import { verdana11Width } from "../../src/brain/verdana";
import { MODELS } from "../../src/catalog/models";
import committed from "../../docs/brain-badge.svg?raw";
import { allElements, parseXml, type XmlElement } from "./xml";

const texts = (svg: string) => allElements(parseXml(svg)).filter((e) => e.name === "text" && e.attrs["aria-hidden"] === undefined);
const rects = (svg: string) => allElements(parseXml(svg)).filter((e) => e.name === "rect");
const draw = (model?: string, label?: string) => renderBadge(badgeSpec(model, label));

describe("the XML checker the badge tests rely on", () => {
  it("accepts well-formed XML and decodes entities", () => {
    const root = parseXml('<?xml version="1.0"?><a x="1 &amp; 2"><b/><c>&lt;&#65;&#x42;&apos;</c><!-- n --></a>');
    expect(root.attrs.x).toBe("1 & 2");
    expect((root.children[1] as XmlElement).text).toBe("<AB'");
  });

  it.each([
    ["unclosed", "<a><b></a>"],
    ["raw <", "<a>1 < 2</a>"],
    ["bare &", "<a>Q&A</a>"],
    ["unknown entity", "<a>&nbsp;</a>"],
    ["unquoted attribute", "<a x=1/>"],
    ["raw < in attribute", '<a x="<"/>'],
    ["quote breaking out", '<a x="1" y="2"" z="3"/>'],
    ["duplicate attribute", '<a x="1" x="2"/>'],
    ["two roots", "<a/><b/>"],
    ["forbidden character", "<a>\u0001</a>"],
  ])("rejects %s", (_, xml) => {
    expect(() => parseXml(xml)).toThrow();
  });
});

describe("badge drawing (SPEC.md 4.8)", () => {
  it("label BRAIN.md by default, value the model's display name, on its tier's colour", () => {
    for (const tier of ["budget", "mid", "premium", "frontier"] as const) {
      const model = MODELS.find((m) => m.tier === tier)!;
      const svg = draw(model.id);
      const [label, value] = texts(svg);
      expect(label!.text).toBe(DEFAULT_LABEL);
      expect(value!.text).toBe(model.display_name);
      expect(rects(svg)[2]!.attrs.fill).toBe(TIER_COLORS[tier]);
    }
    expect(TIER_COLORS).toEqual({ budget: "#2da44e", mid: "#d97706", premium: "#4f46e5", frontier: "#7c3aed" });
  });

  it("accepts an upstream id too; an unknown or missing model is a grey 'unknown' badge", () => {
    expect(texts(draw("z-ai/glm-4.7"))[1]!.text).toBe("GLM 4.7");
    for (const model of ["gpt-9-ultra", "", "auto", undefined]) {
      const svg = draw(model);
      expect(texts(svg)[1]!.text).toBe("unknown");
      expect(rects(svg)[2]!.attrs.fill).toBe(UNKNOWN_COLOR);
    }
  });

  it("sizes each half from the Verdana 11px width table: text width rounded up, plus 5 px a side", () => {
    // B R A I N . m d, widths of shields' Verdana 11px table: 57.12 px, so 58 + 10.
    expect(verdana11Width("BRAIN.md")).toBeCloseTo(7.54 + 7.65 + 7.52 + 4.63 + 8.23 + 4 + 10.7 + 6.85, 5);
    const svg = draw("gpt-5-mini", undefined);
    const [labelRect, valueRect] = rects(svg).slice(1, 3);
    expect(labelRect!.attrs.width).toBe("68");
    // "GPT-5 mini": G P T - 5 space m i n i
    const valueWidth = Math.ceil(8.53 + 6.63 + 6.78 + 5 + 6.99 + 3.87 + 10.7 + 3.02 + 6.96 + 3.02);
    expect(valueRect!.attrs.width).toBe(String(valueWidth + 10));
    expect(valueRect!.attrs.x).toBe("68");
    const root = parseXml(svg);
    expect(root.attrs.width).toBe(String(68 + valueWidth + 10));
    expect(root.attrs.height).toBe("20");
    const [label, value] = texts(svg);
    expect(label!.attrs.textLength).toBe("580");
    expect(label!.attrs.x).toBe("340");
    expect(value!.attrs.x).toBe(String((68 + (valueWidth + 10) / 2) * 10));
    // A wider label makes a wider badge.
    expect(Number(parseXml(draw("gpt-5-mini", "WWWWWWWW")).attrs.width)).toBeGreaterThan(Number(root.attrs.width));
    expect(verdana11Width("日本")).toBeCloseTo(2 * 10.7, 5);
  });

  it("escapes both texts: markup in a label is text, never elements or attributes", () => {
    const evil = `"/><script>alert(1)</script><text x='1'>&amp;`;
    const svg = draw("gpt-5-mini", evil);
    const root = parseXml(svg);
    const names = new Set(allElements(root).map((e) => e.name));
    expect(names.has("script")).toBe(false);
    expect(texts(svg)).toHaveLength(2);
    expect(texts(svg)[0]!.text).toBe(badgeText(evil));
    expect(root.attrs["aria-label"]).toBe(`${badgeText(evil)}: GPT-5 mini`);
    expect(escapeXml(`<&>"'`)).toBe("&lt;&amp;&gt;&quot;&apos;");
  });

  it(`cleans and caps texts at ${MAX_BADGE_CHARS} characters: controls and lone surrogates dropped, white space folded`, () => {
    expect(badgeText("a\u0000b\u0007c\u007F")).toBe("abc");
    expect(badgeText("  two\n\tlines  ")).toBe("two lines");
    expect(badgeText("x\uD800y\uDC00z 🧠")).toBe("xyz 🧠");
    const long = badgeText("🧠".repeat(100));
    expect([...long]).toHaveLength(MAX_BADGE_CHARS);
    expect(long.endsWith("…")).toBe(true);
    expect(texts(draw(undefined, "\u0001\u0002"))[0]!.text).toBe(DEFAULT_LABEL);
    // Still well-formed with every kind of hostile text at once.
    parseXml(draw("gpt-5-mini", `\uFFFE\uD83D<]]>${"&".repeat(80)}`));
  });

  it("If-None-Match: exact, weak, listed and * match; anything else does not", () => {
    const tag = '"abc"';
    expect(etagMatches('"abc"', tag)).toBe(true);
    expect(etagMatches('W/"abc"', tag)).toBe(true);
    expect(etagMatches('"x", "abc"', tag)).toBe(true);
    expect(etagMatches("*", tag)).toBe(true);
    expect(etagMatches('"abd"', tag)).toBe(false);
    expect(etagMatches(undefined, tag)).toBe(false);
  });

  it("docs/brain-badge.svg is what the service draws for ?model=claude-sonnet-4-6", () => {
    expect(committed.trimEnd()).toBe(draw("claude-sonnet-4-6"));
  });
});
