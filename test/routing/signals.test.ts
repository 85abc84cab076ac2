import { describe, expect, it } from "vitest";
import { detectSignals, LONG_CONTEXT_TOKENS, SIMPLE_MAX_CHARS } from "../../src/routing/signals";
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
  ["Summarize this story and translate it to French", ["creative", "summarization", "translation"]],
  // Dates and phone numbers are not arithmetic; a plain sentence with them is a simple question.
  ["Is the meeting on 2024-01-02? Call 555-1234.", ["simple"]],
  // One weak cue is not enough: "why" alone is a plain question.
  ["Why is the sky blue?", ["simple"]],
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

  it("is case-insensitive and reads phrases across punctuation", () => {
    expect(fired(user("SUMMARIZE THIS"))).toEqual(["summarization"]);
    expect(fired(user("Go step-by-step through the proof"))).toContain("reasoning");
    expect(fired(user("The steps by which we go"))).not.toContain("reasoning");
  });

  it("classifies the last user message, not earlier turns or the system prompt", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "You are a Python coding assistant. Debug code." },
      { role: "user", content: "Write a poem about the sea" },
      { role: "assistant", content: "The sea, the sea..." },
      { role: "user", content: "Now translate it into German" },
    ];
    expect(fired(messages)).toEqual(["translation"]);
  });

  it("uses the last message when no message is from the user", () => {
    expect(fired([{ role: "system", content: "Summarize the input." }])).toEqual(["summarization"]);
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

  it("a question longer than the simple limit with no cue has no signal at all", () => {
    const long = "Tell me about the history of the bicycle and its riders across the decades. ".repeat(Math.ceil(SIMPLE_MAX_CHARS / 70));
    expect(fired(user(long))).toEqual([]);
  });

  it("handles text beyond ASCII without confusing words", () => {
    expect(fired(user("Résume cet article en français: « summarize » ce texte"))).toContain("summarization");
    expect(fired(user("日本語に翻訳してください"))).toEqual(["simple"]);
    expect(fired(user(""))).toEqual(["simple"]);
  });
});

describe("signal detection on very long messages", () => {
  const filler = "The quarterly numbers were in line with the plan for the region. ".repeat(800); // ~52,000 characters

  it("reads the head and the tail, where the request is stated", () => {
    expect(detectSignals(user(`Summarize the following report. ${filler}`)).signals.summarization).toBe(true);
    expect(detectSignals(user(`${filler} Now translate that into German.`)).signals.translation).toBe(true);
    expect(detectSignals(user(`${filler} Summarize the following report. ${filler}`)).signals.summarization).toBe(false);
  });

  it("still sizes long_context from the whole conversation", () => {
    expect(detectSignals(user(filler)).signals.long_context).toBe(true);
  });
});
